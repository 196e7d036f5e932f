// Select step (Karmada core/common.go#SelectClusters and core/spreadconstraint): turn scored clusters into
// candidates with capacity and overflow tier, sorted, then apply spread constraints. Only `cluster` and
// `region` constraints select; `zone` and `provider` only filtered earlier; spreadByLabel is ignored.
import type { Cluster } from '../api/cluster.ts';
import type { Placement, SpreadConstraint } from '../api/policy.ts';
import { matchClusterAffinity } from '../selectors/matchClusterAffinity.ts';
import { availableReplicas } from './availableReplicas.ts';
import {
  replicaSchedulingType,
  shouldIgnoreAvailableResource,
  shouldIgnoreSpreadConstraint,
} from './replicaStrategy.ts';
import { compareNames, MAX_GROUP_SEARCH_STEPS, selectGroups, type GroupInfo } from './selectGroups.ts';
import type { CandidateCluster, SchedulingRequest, StepResult } from './types.ts';

export interface ScoredCluster {
  cluster: Cluster;
  score: number;
}

export interface RegionGroup {
  name: string;
  score: number;
  availableReplicas: number;
  /** In candidate order. */
  clusters: CandidateCluster[];
}

/** Not matched by the active term or any of its overflow affinities (cannot happen after filtering). */
export const UNMATCHED_OVERFLOW_ORDER = 1000;

/** Estimates capacity for each scored cluster and sorts them (overflow asc, score desc, available desc, name). */
export function buildCandidates(
  scored: readonly ScoredCluster[],
  req: SchedulingRequest,
  affinityName?: string,
): CandidateCluster[] {
  const previous = new Map<string, number>();
  for (const tc of req.previous) if (!previous.has(tc.name)) previous.set(tc.name, tc.replicas);
  const candidates = scored.map(({ cluster, score }) => {
    const name = cluster.metadata.name;
    const allocatable = availableReplicas(cluster, req);
    const held = previous.get(name) ?? 0;
    return {
      name,
      cluster,
      score,
      overflowOrder: overflowOrderOf(cluster, req.placement, affinityName),
      availableReplicas: allocatable + held,
      allocatableReplicas: allocatable,
    };
  });
  return sortCandidates(candidates);
}

/** Karmada's sortClusters with the availableReplicas comparison. */
export function sortCandidates(candidates: CandidateCluster[]): CandidateCluster[] {
  return [...candidates].sort(
    (a, b) =>
      a.overflowOrder - b.overflowOrder ||
      b.score - a.score ||
      b.availableReplicas - a.availableReplicas ||
      compareNames(a.name, b.name),
  );
}

function overflowOrderOf(cluster: Cluster, placement: Placement, affinityName: string | undefined): number {
  if (placement.clusterAffinity || !placement.clusterAffinities || placement.clusterAffinities.length === 0) return 0;
  const term = placement.clusterAffinities.find((t) => t.affinityName === affinityName);
  if (!term) return UNMATCHED_OVERFLOW_ORDER;
  if (matchClusterAffinity(term, cluster)) return 0;
  const index = (term.overflowAffinities ?? []).findIndex((a) => matchClusterAffinity(a, cluster));
  return index < 0 ? UNMATCHED_OVERFLOW_ORDER : index + 1;
}

const WEIGHT_UNIT = 1000;

/**
 * Karmada's calcGroupScore. Duplicated: 1000 per cluster that fits all replicas, plus their mean score.
 * Divided: enough clusters (at least the cluster minGroups) to hold ceil(replicas / minGroups), scored
 * 1000 x that target plus the mean score of the clusters used; short groups score 1000 x what they hold.
 */
export function calcGroupScore(
  clusters: readonly CandidateCluster[],
  placement: Placement,
  replicas: number,
  minGroups: number,
): number {
  if (replicaSchedulingType(placement) === 'Duplicated') {
    const valid = clusters.filter((c) => c.availableReplicas >= replicas);
    if (valid.length === 0) return 0;
    return (
      valid.length * WEIGHT_UNIT +
      goDiv(
        valid.reduce((s, c) => s + c.score, 0),
        valid.length,
      )
    );
  }
  const target = Math.ceil(replicas / minGroups);
  let clusterMinGroups = 0;
  for (const sc of placement.spreadConstraints ?? [])
    if (sc.spreadByField === 'cluster') clusterMinGroups = sc.minGroups ?? 0;
  if (clusterMinGroups < minGroups) clusterMinGroups = minGroups;
  let sumAvailable = 0;
  let sumScore = 0;
  let used = 0;
  for (const c of clusters) {
    sumAvailable += c.availableReplicas;
    sumScore += c.score;
    used++;
    if (used >= clusterMinGroups && sumAvailable >= target) break;
  }
  if (sumAvailable < target) return sumAvailable * WEIGHT_UNIT + goDiv(sumScore, clusters.length);
  return target * WEIGHT_UNIT + goDiv(sumScore, used);
}

/** Go's integer division (truncates toward zero). */
function goDiv(a: number, b: number): number {
  return Math.trunc(a / b);
}

/** Groups candidates by spec.region (clusters without a region are left out), keeping candidate order. */
export function groupByRegion(
  candidates: readonly CandidateCluster[],
  placement: Placement,
  replicas: number,
): RegionGroup[] {
  const regions = new Map<string, RegionGroup>();
  for (const c of candidates) {
    const region = c.cluster.spec.region;
    if (!region) continue;
    let group = regions.get(region);
    if (!group) {
      group = { name: region, score: 0, availableReplicas: 0, clusters: [] };
      regions.set(region, group);
    }
    group.clusters.push(c);
    group.availableReplicas += c.availableReplicas;
  }
  const minGroups = constraintFor(placement.spreadConstraints, 'region')?.minGroups ?? 0;
  for (const group of regions.values()) group.score = calcGroupScore(group.clusters, placement, replicas, minGroups);
  return [...regions.values()];
}

function constraintFor(
  constraints: readonly SpreadConstraint[] | undefined,
  field: SpreadConstraint['spreadByField'],
): SpreadConstraint | undefined {
  let found: SpreadConstraint | undefined;
  for (const sc of constraints ?? []) if (sc.spreadByField === field) found = sc;
  return found;
}

function failure(message: string, detail?: string): StepResult<never> {
  return detail
    ? { ok: false, status: 'SchedulerError', message, detail }
    : { ok: false, status: 'SchedulerError', message };
}

/**
 * Karmada's SelectBestClusters: without spread constraints (or with static weighting) every candidate is
 * selected; a region constraint picks regions then clusters; a cluster constraint picks up to maxGroups
 * clusters with enough capacity (capacity ignored for Duplicated). An unset maxGroups counts as 0.
 */
export function selectBestClusters(
  placement: Placement,
  candidates: readonly CandidateCluster[],
  replicas: number,
): StepResult<CandidateCluster[]> {
  const constraints = placement.spreadConstraints ?? [];
  if (constraints.length === 0 || shouldIgnoreSpreadConstraint(placement)) return { ok: true, value: [...candidates] };
  const needReplicas = shouldIgnoreAvailableResource(placement) ? -1 : replicas;
  const region = constraintFor(constraints, 'region');
  const cluster = constraintFor(constraints, 'cluster') ?? {};
  if (region) return selectByRegion(groupByRegion(candidates, placement, replicas), region, cluster);
  if (constraintFor(constraints, 'cluster')) return selectByCluster(candidates, cluster, needReplicas);
  return failure('just support cluster and region spread constraint');
}

function selectByCluster(
  candidates: readonly CandidateCluster[],
  constraint: SpreadConstraint,
  needReplicas: number,
): StepResult<CandidateCluster[]> {
  const minGroups = constraint.minGroups ?? 0;
  if (candidates.length < minGroups) {
    return failure(
      'the number of feasible clusters is less than spreadConstraint.MinGroups',
      `spread constraint cluster: ${candidates.length} feasible cluster(s), fewer than minGroups ${minGroups}`,
    );
  }
  const needCount = Math.min(candidates.length, constraint.maxGroups ?? 0);
  if (needReplicas < 0) return { ok: true, value: candidates.slice(0, needCount) };
  const selected = selectClustersByAvailableResource(candidates, needCount, needReplicas);
  // Karmada refuses an empty selection even when it holds the replicas asked for: with no maxGroups, a workload at
  // 0 replicas (or a non-workload) is a selection error, not an assignment one.
  if (!selected || selected.length === 0)
    return failure(
      `no enough resource when selecting ${needCount} clusters`,
      needCount === 0
        ? 'spread constraint cluster: maxGroups is not set (0), so no cluster can be selected; set maxGroups to at least minGroups'
        : `spread constraint cluster: not enough capacity for ${needReplicas} replicas in ${needCount} cluster(s)`,
    );
  return { ok: true, value: selected };
}

/**
 * Takes the first `count` candidates and, from the last one backwards, swaps a chosen cluster for the
 * remaining cluster with the most capacity when that one has more, until the chosen ones hold `needReplicas`.
 */
export function selectClustersByAvailableResource(
  candidates: readonly CandidateCluster[],
  count: number,
  needReplicas: number,
): CandidateCluster[] | undefined {
  const chosen = candidates.slice(0, count);
  const rest = candidates.slice(count);
  const enough = (): boolean => chosen.reduce((s, c) => s + c.availableReplicas, 0) >= needReplicas;
  for (let slot = chosen.length - 1; !enough() && slot >= 0; slot--) {
    let best = -1;
    let bestAvailable = (chosen[slot] as CandidateCluster).availableReplicas;
    rest.forEach((c, i) => {
      if (c.availableReplicas > bestAvailable) {
        best = i;
        bestAvailable = c.availableReplicas;
      }
    });
    if (best < 0) continue;
    const swapped = chosen[slot] as CandidateCluster;
    chosen[slot] = rest[best] as CandidateCluster;
    rest[best] = swapped;
  }
  return enough() ? chosen : undefined;
}

function selectByRegion(
  regions: RegionGroup[],
  regionConstraint: SpreadConstraint,
  clusterConstraint: SpreadConstraint,
): StepResult<CandidateCluster[]> {
  const minRegions = regionConstraint.minGroups ?? 0;
  if (regions.length < minRegions) {
    return failure(
      'the number of feasible region is less than spreadConstraint.MinGroups',
      `spread constraint region: ${regions.length} feasible region(s), fewer than minGroups ${minRegions}`,
    );
  }
  const groups: GroupInfo[] = regions.map((r) => ({ name: r.name, value: r.clusters.length, weight: r.score }));
  const chosen = selectGroups(groups, minRegions, regionConstraint.maxGroups ?? 0, clusterConstraint.minGroups ?? 0);
  if (!chosen) {
    return failure(
      `spread constraint region: choosing ${minRegions}..${regionConstraint.maxGroups ?? 0} of ${regions.length} regions to hold the cluster minGroups ` +
        `${clusterConstraint.minGroups ?? 0} takes more than ${MAX_GROUP_SEARCH_STEPS} search steps, so Flotilla does not search it; ` +
        'lower the region maxGroups or the cluster minGroups, or narrow clusterAffinity to fewer regions',
    );
  }
  if (chosen.length === 0) {
    return failure(
      'the number of clusters is less than the cluster spreadConstraint.MinGroups',
      `spread constraint region: no ${minRegions}..${regionConstraint.maxGroups ?? 0} region(s) hold the cluster minGroups ${clusterConstraint.minGroups ?? 0}`,
    );
  }
  const byName = new Map(regions.map((r) => [r.name, r]));
  const selected: CandidateCluster[] = [];
  let others: CandidateCluster[] = [];
  for (const g of chosen) {
    const region = byName.get(g.name) as RegionGroup;
    selected.push(region.clusters[0] as CandidateCluster);
    others.push(...region.clusters.slice(1));
  }
  const needCount = Math.min(others.length + selected.length, clusterConstraint.maxGroups ?? 0);
  const restCount = needCount - selected.length;
  if (restCount > 0) {
    others = sortCandidates(others);
    selected.push(...others.slice(0, restCount));
  }
  return { ok: true, value: selected };
}
