// work.karmada.io/v1alpha2 ResourceBinding / ClusterResourceBinding: the scheduling result, kept on the
// output branch under bindings/ so the next render reads it as the previous result.
import type { Condition, ResourceList } from './cluster.ts';
import type { ObjectMeta, Placement, Suspension } from './policy.ts';

export interface TargetCluster {
  name: string;
  replicas: number;
}

export interface BindingResource {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
}

export interface ReplicaRequirements {
  resourceRequest?: ResourceList;
  nodeClaim?: unknown;
  namespace?: string;
  priorityClassName?: string;
}

export interface ResourceBindingSpec {
  resource: BindingResource;
  replicas?: number;
  replicaRequirements?: ReplicaRequirements;
  clusters?: TargetCluster[];
  placement?: Placement;
  propagateDeps?: boolean;
  conflictResolution?: 'Abort' | 'Overwrite';
  preserveResourcesOnDeletion?: boolean;
  requiredBy?: { namespace?: string; name: string; clusters?: TargetCluster[] }[];
  rescheduleTriggeredAt?: string;
  suspension?: Suspension;
  /** The claiming policy's failover, as the detector copies it (read through applicationFailoverOf). */
  failover?: unknown;
  gracefulEvictionTasks?: GracefulEvictionTask[];
  /** The claiming policy's schedulerName (default-scheduler unless it names another). */
  schedulerName?: string;
  /** On a ResourceBinding whose policy names a PriorityClass: that class's value (bindings/schedulePriority.ts). */
  schedulePriority?: { priority?: number };
}

/**
 * A cluster being evicted from the binding (Karmada's GracefulEvictionTask): its copy stays until every cluster of
 * the new result is healthy or the grace period ends, and the ClusterEviction filter keeps it out meanwhile.
 */
export interface GracefulEvictionTask {
  fromCluster: string;
  purgeMode: 'Gracefully' | 'Directly' | 'Never';
  /** The replicas the cluster held; absent for non-workloads. */
  replicas?: number;
  reason: 'TaintUntolerated' | 'ApplicationFailure';
  message?: string;
  /** Karmada's names: the taint manager, or the application failover controller of a ResourceBinding or a ClusterResourceBinding. */
  producer:
    | 'TaintManager'
    | 'resource-binding-application-failover-controller'
    | 'cluster-resource-binding-application-failover-controller';
  /** Absent: the default graceful eviction timeout (600 s, Karmada's --graceful-eviction-timeout). */
  gracePeriodSeconds?: number;
  suppressDeletion?: boolean;
  clustersBeforeFailover?: string[];
  creationTimestamp: string;
}

export interface ResourceBindingStatus {
  schedulerObservedAffinityName?: string;
  lastScheduledTime?: string;
  conditions?: Condition[];
}

export interface ResourceBinding {
  apiVersion: 'work.karmada.io/v1alpha2';
  kind: 'ResourceBinding' | 'ClusterResourceBinding';
  metadata: ObjectMeta;
  spec: ResourceBindingSpec;
  status?: ResourceBindingStatus;
}

/**
 * The clusters a binding's Works go to (Karmada's mergeTargetClusters): its own result, then each requiredBy
 * snapshot's clusters it lacks, with the first such snapshot's replicas. An attached binding has no result of its own:
 * its parents' snapshots are all of it.
 */
export function workClusters(binding: Pick<ResourceBinding, 'spec'>): TargetCluster[] {
  const own = binding.spec.clusters ?? [];
  if (!binding.spec.requiredBy?.length) return own;
  const out = [...own];
  const seen = new Set(own.map((c) => c.name));
  for (const snapshot of binding.spec.requiredBy)
    for (const c of snapshot.clusters ?? [])
      if (!seen.has(c.name)) {
        seen.add(c.name);
        out.push(c);
      }
  return out;
}
