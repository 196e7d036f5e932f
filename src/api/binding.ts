// work.karmada.io/v1alpha2 ResourceBinding / ClusterResourceBinding: the scheduling result, kept on the
// output branch under bindings/ so the next render reads it as the previous result.
import type { Condition, ResourceList } from './cluster.ts';
import type { ObjectMeta, Placement } from './policy.ts';

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
  suspension?: unknown;
  gracefulEvictionTasks?: unknown[];
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
