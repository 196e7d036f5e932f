import type { ResourceType } from '../types.ts';
import { compareKubeAwareVersions } from '../../sorting/compareKubeAwareVersions.ts';

/** An APIService's groupPriorityMinimum and versionPriority, which order discovery. */
export type ApiServicePriority = readonly [group: number, version: number];

/**
 * kube-apiserver's APIService priorities (cmd/kube-apiserver/app/aggregator.go merged over
 * DefaultGenericAPIServicePriorities) for the group versions this emulator serves; a group version missing here gets
 * no APIService, as makeAPIService skips it.
 */
export const BUILTIN_API_SERVICE_PRIORITIES: Readonly<Record<string, ApiServicePriority>> = {
  v1: [18000, 1],
  'apps/v1': [17800, 15],
  'events.k8s.io/v1': [17750, 15],
  'authentication.k8s.io/v1': [17700, 15],
  'authorization.k8s.io/v1': [17600, 15],
  'autoscaling/v1': [17500, 15],
  'autoscaling/v2': [17500, 30],
  'batch/v1': [17400, 15],
  'certificates.k8s.io/v1': [17300, 15],
  'networking.k8s.io/v1': [17200, 15],
  'policy/v1': [17100, 15],
  'rbac.authorization.k8s.io/v1': [17000, 15],
  'storage.k8s.io/v1': [16800, 15],
  'apiextensions.k8s.io/v1': [16700, 15],
  'admissionregistration.k8s.io/v1': [16700, 15],
  'scheduling.k8s.io/v1': [16600, 15],
  'coordination.k8s.io/v1': [16500, 15],
  'node.k8s.io/v1': [16300, 15],
  'discovery.k8s.io/v1': [16200, 15],
  'flowcontrol.apiserver.k8s.io/v1': [16100, 21],
};

/** crdregistration's APIService for each served version of a CRD. */
export const CRD_API_SERVICE_PRIORITY: ApiServicePriority = [1000, 100];

/** kube-aggregator's own group, which its discovery manager puts first (APIRegistrationGroupPriority). */
export const APIREGISTRATION_GROUP = 'apiregistration.k8s.io';
const APIREGISTRATION_PRIORITY: ApiServicePriority = [20001, 0];

/** The APIService metrics-server's manifests install for what the emulator computes in its place. */
const METRICS_SERVER_PRIORITY: ApiServicePriority = [100, 100];

/** What the aggregated discovery manager gives a group version no APIService prioritises. */
const UNPRIORITISED: ApiServicePriority = [1000, 15];

/** The priority discovery orders a served group version by when no APIService in the store says otherwise. */
export function servedPriority(rt: Pick<ResourceType, 'group' | 'version' | 'crd' | 'computed'>): ApiServicePriority {
  if (rt.crd) return CRD_API_SERVICE_PRIORITY;
  if (rt.group === APIREGISTRATION_GROUP) return APIREGISTRATION_PRIORITY;
  if (rt.computed === 'metrics') return METRICS_SERVER_PRIORITY;
  return BUILTIN_API_SERVICE_PRIORITIES[rt.group ? `${rt.group}/${rt.version}` : rt.version] ?? UNPRIORITISED;
}

/** A group version and the priority its APIService (or the default above) gives it. */
export interface PrioritisedVersion {
  group: string;
  version: string;
  priority: ApiServicePriority;
}

export interface OrderedGroup {
  group: string;
  versions: string[];
}

export const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** ByVersionPriority: higher versionPriority first, then the kube-aware version order. */
function byVersionPriority(a: PrioritisedVersion, b: PrioritisedVersion): number {
  return b.priority[1] - a.priority[1] || compareKubeAwareVersions(a.version, b.version);
}

function versionsOf(entries: readonly PrioritisedVersion[]): string[] {
  return [...entries].sort(byVersionPriority).map((e) => e.version);
}

/**
 * The aggregated discovery document's order (the resource manager's calculateAPIGroupsLocked): groups by the highest
 * groupPriorityMinimum of their versions, ties by group name; versions by ByVersionPriority.
 */
export function aggregatedDiscoveryOrder(entries: readonly PrioritisedVersion[]): OrderedGroup[] {
  const groups = new Map<string, PrioritisedVersion[]>();
  for (const entry of entries) groups.set(entry.group, [...(groups.get(entry.group) ?? []), entry]);
  const priorityOf = (list: PrioritisedVersion[]) => Math.max(...list.map((e) => e.priority[0]));
  return [...groups]
    .sort(([a, as], [b, bs]) => priorityOf(bs) - priorityOf(as) || byString(a, b))
    .map(([group, list]) => ({ group, versions: versionsOf(list) }));
}

/**
 * The legacy APIGroupList's order (kube-aggregator's SortedByGroupAndVersion): APIServices by groupPriorityMinimum,
 * ties by APIService name (`version.group`), each group placed where its first APIService falls; versions by
 * ByVersionPriority.
 */
export function apiServiceOrder(entries: readonly PrioritisedVersion[]): OrderedGroup[] {
  const sorted = [...entries].sort(
    (a, b) => b.priority[0] - a.priority[0] || byString(`${a.version}.${a.group}`, `${b.version}.${b.group}`),
  );
  const groups = new Map<string, PrioritisedVersion[]>();
  for (const entry of sorted) groups.set(entry.group, [...(groups.get(entry.group) ?? []), entry]);
  return [...groups].map(([group, list]) => ({ group, versions: versionsOf(list) }));
}
