import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readTree } from '../commits/readTree.ts';
import { isTreeMode, type GitRepo } from '../commits/types.ts';
import { DEFAULT_STATUS_REF } from '../branches/status/branch.ts';
import { preferredRef } from '../api/servedApis.ts';
import {
  buildStatusFiles,
  renderedQuotaStatusFiles,
  statusPathsOf,
  type RenderedQuota,
  type ClusterFileOptions,
  type ClusterReport,
  type QuotaOverallOf,
  type TargetsOf,
} from './buildStatusFiles.ts';
import { parseRefKey, refKey } from '../api/kinds.ts';
import { readRef } from '../commits/readRef.ts';
import { listFolderFiles } from '../commits/listFolderFiles.ts';
import { templateStatusPath } from '../branches/status/statusFiles.ts';
import { FEDERATED_QUOTA_STATUS_FOLDER, federatedQuotaStatusPathOf } from '../branches/status/federatedQuotaStatus.ts';
import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
import type { ShardedIndex } from '../branches/rendered/outputIndex.ts';
import { clusterStatusPath } from '../branches/status/statusFiles.ts';
import { endpointsPath } from '../branches/status/exportedEndpoints.ts';
import { agentClusters, markMissingHeartbeats } from './markMissingHeartbeats.ts';
import { commitStatusEdits } from '../branches/status/commitStatusEdits.ts';
import type { InterpreterSet } from '../interpreters/customizations.ts';
import type { AutoscalerEdits } from './decideFederatedHpas.ts';
import type { MultiClusterServiceStatusEdits } from './multiClusterServiceConditions.ts';
import { replicasSyncEdits, replicasSyncPaths, type ReplicasSyncPlan } from './syncDeploymentReplicas.ts';

export interface WriteStatusOptions {
  repo: GitRepo;
  /** Default refs/heads/flotilla/status. */
  statusRef?: string;
  reports: readonly ClusterReport[];
  /** Trailers of the status commit: which rendered and source commit this status describes. */
  renderedCommit?: string;
  sourceCommit?: string;
  /** Injected clock: commit time and condition transition times. */
  now?: () => Date;
  /** Declared health, reflection and aggregation hooks for custom kinds (the rendered commit's). */
  interpreters?: InterpreterSet;
  /** Compare-and-swap attempts before giving up. Default 20. */
  maxAttempts?: number;
  /** Git's Clusters and ClusterTaintPolicies (the managed taints) and the Ready damping thresholds. */
  clusterOptions?: ClusterFileOptions;
  /** FederatedHPA decisions to commit with this status (statuses/decideFederatedHpas.ts), each with its message line. */
  autoscalers?: AutoscalerEdits;
  /**
   * The replicas syncer's Deployments (syncDeploymentReplicas.ts): their counts are decided on this commit's own
   * template status files, so a count follows the members in the status commit that brings their status in.
   */
  replicasSync?: ReplicasSyncPlan;
  /** CrossCluster MultiClusterServices' status conditions to commit with this status (multiClusterServiceConditions.ts). */
  multiClusterServices?: MultiClusterServiceStatusEdits;
  /** With --leader-elect: the replica writing (the `Replica` trailer), so who wrote which cluster's status is in Git. */
  replica?: string;
}

export interface WriteStatusResult {
  /** The new status commit, or null when nothing changed (no commit is made). */
  commit: string | null;
  changedPaths: string[];
  /** Compare-and-swap attempts used (1 without contention). */
  attempts: number;
}

/**
 * Commits the reported clusters' status to the status branch, if any byte of it changed. Concurrent writers (one
 * per set of clusters) never lose each other's updates: the branch moves by compare-and-swap only, and when another
 * writer got there first this one re-reads the branch, re-merges its own clusters' entries into the new files and
 * tries again.
 */
export async function writeStatus(opts: WriteStatusOptions): Promise<WriteStatusResult> {
  const ref = opts.statusRef ?? DEFAULT_STATUS_REF;
  const now = opts.now ?? (() => new Date());
  const reports = opts.renderedCommit
    ? await withApplied(opts.repo, opts.reports, opts.renderedCommit, opts.sourceCommit)
    : opts.reports;
  // Pull clusters Git registers and this writer does not probe: their agents' heartbeats are watched.
  const watched = agentClusters(
    opts.clusterOptions?.clusters,
    reports.map((r) => r.cluster),
  );
  const autoscalerPaths = [
    ...(opts.autoscalers?.edits.keys() ?? []),
    ...(opts.multiClusterServices?.edits.keys() ?? []),
    ...(opts.replicasSync ? replicasSyncPaths(opts.replicasSync) : []),
  ];
  const rendered = opts.renderedCommit ? await renderedTargets(opts.repo, opts.renderedCommit, reports) : undefined;
  // Every quota's status, whatever its members report: Karmada's status controller writes it on the quota's own events.
  const quotas = rendered?.quotas ?? [];
  const knownQuotas = opts.renderedCommit ? await quotaStatusFiles(opts.repo, ref) : [];
  const quotaPaths = [
    ...knownQuotas,
    ...quotas.flatMap((q) => [templateStatusPath(q.ref), federatedQuotaStatusPathOf(q.ref) ?? []].flat()),
  ];
  const paths = [
    ...new Set([...statusPathsOf(reports), ...watched.map(clusterStatusPath), ...autoscalerPaths, ...quotaPaths]),
  ].sort();
  const done = await commitStatusEdits(
    opts.repo,
    ref,
    paths,
    (existing) => {
      const time = now();
      const edits = renderedQuotaStatusFiles(existing, quotas, knownQuotas);
      const built = buildStatusFiles(
        existing,
        reports,
        time,
        opts.interpreters,
        opts.clusterOptions,
        rendered?.targetsOf,
        rendered?.quotaOverallOf,
      );
      // The reports' files are the fresher: they merge what the members said in this pass.
      for (const [path, text] of built) edits.set(path, text);
      for (const [path, text] of markMissingHeartbeats(existing, watched, time, opts.clusterOptions))
        edits.set(path, text);
      // Only the reconciler decides; a decision equal to what the branch holds already changes nothing.
      for (const [path, text] of [...(opts.autoscalers?.edits ?? []), ...(opts.multiClusterServices?.edits ?? [])])
        if ((existing.get(path) ?? null) !== text) edits.set(path, text);
      const synced = opts.replicasSync
        ? replicasSyncEdits(
            opts.replicasSync,
            (path) => (edits.has(path) ? (edits.get(path) ?? undefined) : existing.get(path)),
            time,
          )
        : undefined;
      for (const [path, text] of synced?.edits ?? []) if ((existing.get(path) ?? null) !== text) edits.set(path, text);
      const lines = [...(opts.autoscalers?.lines ?? []), ...(synced?.lines ?? [])];
      return { edits, message: statusMessage(opts, [...edits.keys()], lines), time };
    },
    opts.maxAttempts,
  );
  return {
    commit: done.commit,
    changedPaths: done.commit ? [...done.change!.edits.keys()].sort() : [],
    attempts: done.attempts,
  };
}

/** The targets of the templates these reports apply, and the quotas' overall, as the rendered commit's index lists them. */
async function renderedTargets(
  repo: GitRepo,
  renderedCommit: string,
  reports: readonly ClusterReport[],
): Promise<{ targetsOf: TargetsOf; quotaOverallOf: QuotaOverallOf; quotas: RenderedQuota[] } | undefined> {
  const index = await renderedIndex(repo, renderedCommit);
  if (!index) return undefined;
  const keys = new Set<string>();
  // Every object whose template status file these reports may rewrite (buildStatusFiles' entries).
  for (const r of reports) {
    for (const ref of [
      ...(r.delivery?.results.map((res) => res.ref) ?? []),
      ...(r.delivery?.previousInventory ?? []),
      ...(r.observed?.map((o) => o.ref) ?? []),
    ])
      keys.add(refKey(preferredRef(ref)));
  }
  const quotaKeys = index.quotaTemplates();
  await index.load({ templates: [...keys, ...quotaKeys] });
  const quotas = quotaKeys.flatMap((key) => {
    const overall = index.template(key)?.quotaOverall;
    return overall ? [{ ref: parseRefKey(key), overall }] : [];
  });
  return {
    quotas,
    targetsOf: (ref) => {
      const entry = index.template(refKey(ref));
      return entry ? new Set(entry.clusters) : undefined;
    },
    quotaOverallOf: (ref) => index.template(refKey(ref))?.quotaOverall,
  };
}

/** The quota status files the status branch holds now. */
async function quotaStatusFiles(repo: GitRepo, ref: string): Promise<string[]> {
  const head = await readRef(repo, ref);
  if (!head) return [];
  const files = await listFolderFiles(repo, (await readCommitInfo(repo, head)).tree, FEDERATED_QUOTA_STATUS_FOLDER);
  return [...files.keys()].filter((p) => p.endsWith('.yaml'));
}

/**
 * The index of a rendered commit, kept for the repository's next status write: a reconciler's passes apply the same
 * rendered commit until the source moves, and its index (shards read as asked) never changes.
 */
const lastIndex = new WeakMap<GitRepo, { commit: string; index: ShardedIndex | null }>();
async function renderedIndex(repo: GitRepo, commit: string): Promise<ShardedIndex | null> {
  const kept = lastIndex.get(repo);
  if (kept?.commit === commit) return kept.index;
  const index = await openOutputIndex(repo, (await readCommitInfo(repo, commit)).tree);
  lastIndex.set(repo, { commit, index });
  return index;
}

/** Each report with a delivery gets the record of what it applied: the rendered commit and its folder's tree. */
async function withApplied(
  repo: GitRepo,
  reports: readonly ClusterReport[],
  renderedCommit: string,
  sourceCommit: string | undefined,
): Promise<ClusterReport[]> {
  if (!reports.some((r) => r.delivery && !r.applied && !r.delivery.notReady)) return [...reports];
  const root = await readTree(repo, (await readCommitInfo(repo, renderedCommit)).tree);
  const clusters = root.find((e) => e.name === 'clusters' && isTreeMode(e.mode));
  const folders = clusters ? await readTree(repo, clusters.oid) : [];
  return reports.map((r) => {
    // A cluster that was not Ready applied nothing: what it last applied stays its record.
    if (!r.delivery || r.applied || r.delivery.notReady) return r;
    const folder = folders.find((e) => e.name === r.cluster && isTreeMode(e.mode));
    const failed = r.delivery.results.filter((x) => x.action === 'failed' || x.action === 'conflict').length;
    return {
      ...r,
      applied: {
        cluster: r.cluster,
        renderedCommit,
        ...(sourceCommit ? { sourceCommit } : {}),
        folderTree: folder?.oid ?? null,
        failed,
      },
    };
  });
}

function statusMessage(opts: WriteStatusOptions, changed: string[], decisions: readonly string[]): string {
  const clusters = opts.reports.map((r) => r.cluster).sort();
  const lines = [`Status of ${clusters.join(', ')}`.slice(0, 200), ''];
  for (const r of [...opts.reports].sort((a, b) => (a.cluster < b.cluster ? -1 : 1))) {
    const parts: string[] = [];
    const ready = r.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready) parts.push(`Ready=${ready.status}${ready.reason ? ` (${ready.reason})` : ''}`);
    if (r.delivery) {
      const counts = new Map<string, number>();
      for (const res of r.delivery.results) counts.set(res.action, (counts.get(res.action) ?? 0) + 1);
      parts.push(
        [...counts]
          .sort()
          .map(([a, n]) => `${n} ${a}`)
          .join(', ') || 'no objects',
      );
    }
    if (r.observed) parts.push(`${r.observed.length} object(s) read back, none applied`);
    lines.push(`${r.cluster}: ${parts.join('; ')}`);
  }
  for (const path of changed) {
    const m = /^clusters\/(.+)\.yaml$/.exec(path);
    if (m && !clusters.includes(m[1]!))
      lines.push(`${m[1]}: Ready=Unknown (ClusterStatusUnknown): its agent's heartbeat stopped`);
  }
  // Endpoints change with pods, not with Git: the message says whose and how many, so the history reads as an audit.
  for (const r of opts.reports) {
    if (!r.exports || !changed.includes(endpointsPath(r.cluster))) continue;
    const addresses = r.exports.reduce((n, s) => n + s.endpointSlices.reduce((m, e) => m + e.endpoints.length, 0), 0);
    lines.push(
      `${r.cluster}: endpoints of ${r.exports.length} exported service(s) now ${addresses} endpoint(s)${r.exports.length ? `: ${r.exports.map((s) => `${s.namespace}/${s.name}`).join(', ')}` : ''}`.slice(
        0,
        300,
      ),
    );
  }
  // Each autoscaling decision names its FederatedHPA, the metrics it saw and the replicas: the history is the audit.
  for (const line of decisions) {
    const m = /^(CronFederatedHPA|FederatedHPA|Replicas synced for Deployment) ([^/]+)\/([^\s:]+)[: ]/.exec(line);
    const folder =
      { CronFederatedHPA: 'cronautoscalers', FederatedHPA: 'autoscalers' }[m?.[1] ?? ''] ?? 'syncedreplicas';
    const path = m ? `${folder}/${m[2]}/${m[3]}.yaml` : undefined;
    if (!path || changed.includes(path)) lines.push(line.slice(0, 400));
  }
  for (const line of opts.multiClusterServices?.lines ?? []) {
    const m = /^MultiClusterService ([^/]+)\/([^\s:]+):/.exec(line);
    if (m && changed.includes(`multiclusterservices/${m[1]}/${m[2]}.yaml`)) lines.push(line.slice(0, 400));
  }
  lines.push(`${changed.length} status file(s) changed`, '');
  if (opts.replica) lines.push(`Replica: ${opts.replica}`);
  if (opts.renderedCommit) lines.push(`Rendered-Commit: ${opts.renderedCommit}`);
  if (opts.sourceCommit) lines.push(`Source-Commit: ${opts.sourceCommit}`);
  return `${lines.join('\n')}\n`;
}
