// The plugin contract (Karmada pkg/scheduler/framework/interface.go): a filter plugin says whether one
// cluster fits, with a coded result and a human-readable reason; a score plugin rates a feasible cluster.
import type { Cluster } from '../api/cluster.ts';
import type { FilterPluginName, SchedulingRequest } from './types.ts';

export type FilterCode = 'Success' | 'Unschedulable';

export interface FilterResult {
  code: FilterCode;
  /** Why the cluster does not fit, in Karmada's words: "cluster(s) had untolerated taint {dedicated=gpu:NoSchedule}". */
  reason?: string;
  /** Which part of the placement it fails, where Karmada's reason does not say: "not in clusterNames". */
  detail?: string;
}

export interface FilterContext {
  request: SchedulingRequest;
  cluster: Cluster;
  /** The clusterAffinities term being tried (Karmada's status.schedulerObservedAffinityName during a cycle). */
  affinityName?: string;
}

export interface FilterPlugin {
  name: FilterPluginName;
  filter(ctx: FilterContext): FilterResult;
}

export interface ScorePlugin {
  name: string;
  score(request: SchedulingRequest, cluster: Cluster): number;
}

export const MIN_CLUSTER_SCORE = 0;
export const MAX_CLUSTER_SCORE = 100;

export const fits: FilterResult = { code: 'Success' };

export function unschedulable(reason: string, detail?: string): FilterResult {
  return detail ? { code: 'Unschedulable', reason, detail } : { code: 'Unschedulable', reason };
}

/** Whether the previous result already targets the cluster (Karmada's TargetContains). */
export function previouslyTargeted(request: SchedulingRequest, clusterName: string): boolean {
  let names = targetedNames.get(request.previous);
  if (!names) {
    names = new Set(request.previous.map((tc) => tc.name));
    targetedNames.set(request.previous, names);
  }
  return names.has(clusterName);
}

/** Asked once per plugin and cluster: a set per previous result, not a search of it each time. */
const targetedNames = new WeakMap<readonly { name: string }[], Set<string>>();

/**
 * Karmada's ResourceBindingSpec.IsWorkload, which AssignReplicas, doScheduleBinding and the ClusterAffinity filter
 * share: replicas, or replica requirements (a Deployment scaled to 0 that requests CPU still is one). A non-workload
 * (ConfigMap, Service, a Deployment at 0 without requests) goes to every candidate with 0 replicas.
 */
export function isWorkload(request: Pick<SchedulingRequest, 'replicas' | 'replicaRequirements'>): boolean {
  return request.replicas > 0 || request.replicaRequirements === true;
}
