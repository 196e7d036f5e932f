// When Karmada schedules a binding at all (scheduler.go#doScheduleBinding, helper.go#placementChanged,
// util/binding.go#IsBindingReplicasChanged). Divided workloads are not redistributed otherwise.
import type { Cluster } from '../api/cluster.ts';
import { placementJson } from './placementJson.ts';
import type { ClusterAffinityTerm, Placement } from '../api/policy.ts';
import { isWorkload } from './framework.ts';
import { replicaSchedulingType } from './replicaStrategy.ts';
import type { SchedulingRequest } from './types.ts';

export type RescheduleReason =
  | 'PlacementChanged'
  | 'ReplicasChanged'
  | 'RescheduleTriggered'
  | 'AlwaysScheduled'
  | 'TargetClusterGone';

/** Why the binding must be scheduled now, or undefined when Karmada would leave it alone. */
export function needsReschedule(req: SchedulingRequest, clusters: readonly Cluster[]): RescheduleReason | undefined {
  if (placementChanged(req.placement, req.previousPlacement, req.observedAffinityName)) return 'PlacementChanged';
  if (replicasChanged(req)) return 'ReplicasChanged';
  if (req.reschedule) return 'RescheduleTriggered';
  if (!isWorkload(req) || replicaSchedulingType(req.placement) === 'Duplicated') return 'AlwaysScheduled';
  // Karmada reschedules when a target cluster is being deleted; in Git a deleted cluster file is gone.
  const known = namesOf(clusters);
  if (req.previous.some((tc) => !known.has(tc.name))) return 'TargetClusterGone';
  return undefined;
}

const clusterNames = new WeakMap<readonly Cluster[], ReadonlySet<string>>();

/**
 * The names of a render's cluster list, made once per list: every binding of the render is checked against the same
 * one, and a set of 500 names per binding was a large part of a fleet-wide relabel at XL.
 */
function namesOf(clusters: readonly Cluster[]): ReadonlySet<string> {
  let names = clusterNames.get(clusters);
  if (!names) clusterNames.set(clusters, (names = new Set(clusters.map((c) => c.metadata.name))));
  return names;
}

const decoded = new WeakMap<Placement, { text: string; normal: Placement }>();

/**
 * A policy's placement as Go writes and decodes it (fields it does not declare and empty omitempty fields gone), once
 * per placement object: every binding of a policy is checked against the same one.
 */
function asGoDecodes(placement: Placement): { text: string; normal: Placement } {
  let known = decoded.get(placement);
  if (!known) {
    const text = placementJson(placement);
    decoded.set(placement, (known = { text, normal: JSON.parse(text) as Placement }));
  }
  return known;
}

/**
 * Changed when there is no applied placement, or anything but clusterAffinities differs, or the term the
 * scheduler observed differs (changes to other terms do not count). Unparsable applied placement: unchanged.
 */
export function placementChanged(
  placement: Placement,
  applied: string | undefined,
  observedAffinityName: string | undefined,
): boolean {
  if (!applied) return true;
  const current = asGoDecodes(placement);
  // The annotation is what placementJson wrote for the same placement: nothing to parse.
  if (applied === current.text) return false;
  let previous: Placement;
  try {
    // Both sides as Go decodes them: the annotation is Go's json.Marshal (empty omitempty fields left out), and a
    // binding written before that was the policy's own JSON.
    previous = JSON.parse(placementJson(JSON.parse(applied) as Placement)) as Placement;
  } catch {
    return false;
  }
  placement = current.normal;
  if (deepEqual(placement, previous)) return false;
  if (
    !deepEqual(placement.clusterAffinity, previous.clusterAffinity) ||
    !deepEqual(placement.clusterTolerations, previous.clusterTolerations) ||
    !deepEqual(placement.spreadConstraints, previous.spreadConstraints) ||
    !deepEqual(placement.replicaScheduling, previous.replicaScheduling)
  ) {
    return true;
  }
  return clusterAffinitiesChanged(placement.clusterAffinities, previous.clusterAffinities, observedAffinityName);
}

function clusterAffinitiesChanged(
  current: readonly ClusterAffinityTerm[] | undefined,
  applied: readonly ClusterAffinityTerm[] | undefined,
  observed: string | undefined,
): boolean {
  if (!observed) return true;
  const now = current?.find((t) => t.affinityName === observed);
  const before = applied?.find((t) => t.affinityName === observed);
  if (!now || !before) return true;
  return !deepEqual(now, before);
}

/** Duplicated: any cluster's replicas differ from spec.replicas; Divided: the sum differs. Nil strategy: never. */
export function replicasChanged(req: SchedulingRequest): boolean {
  if (!req.placement.replicaScheduling) return false;
  if (replicaSchedulingType(req.placement) === 'Duplicated')
    return req.previous.some((tc) => tc.replicas !== req.replicas);
  return req.previous.reduce((s, tc) => s + tc.replicas, 0) !== req.replicas;
}

/** Structural equality of JSON-like values; object keys holding undefined count as absent. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const k of keys) if (!deepEqual(ra[k], rb[k])) return false;
  return true;
}
