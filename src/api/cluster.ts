// cluster.karmada.io/v1alpha1 Cluster, as Karmada defines it (pkg/apis/cluster/v1alpha1/types.go).
import type { ObjectMeta } from './policy.ts';

export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  timeAdded?: string;
}

export interface ClusterSpec {
  syncMode: 'Push' | 'Pull';
  id?: string;
  apiEndpoint?: string;
  /** Flotilla: credentials are named by reference only, never inline in Git. */
  kubeconfigRef?: { path?: string; context?: string };
  secretRef?: { namespace: string; name: string };
  insecureSkipTLSVerification?: boolean;
  proxyURL?: string;
  provider?: string;
  region?: string;
  zones?: string[];
  /** Deprecated; admission moves it into zones. */
  zone?: string;
  taints?: Taint[];
  /** Karmada's resource models: node grades by the minimum of each resource (validated ascending, same names). */
  resourceModels?: ResourceModel[];
}

export interface ResourceModel {
  grade: number;
  ranges: { name: string; min: string | number; max: string | number }[];
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

export interface APIEnablement {
  groupVersion: string;
  resources?: { name: string; kind: string }[];
}

/** Quantities as Kubernetes writes them ("4", "3500m", "16Gi"). */
export type ResourceList = Record<string, string | number>;

export interface ClusterStatus {
  kubernetesVersion?: string;
  apiEnablements?: APIEnablement[];
  conditions?: Condition[];
  nodeSummary?: { totalNum?: number; readyNum?: number };
  resourceSummary?: {
    allocatable?: ResourceList;
    allocating?: ResourceList;
    allocated?: ResourceList;
    /** How many nodes of each grade of spec.resourceModels the cluster has, from their free resources. */
    allocatableModelings?: { grade: number; count: number }[];
  };
}

export interface Cluster {
  apiVersion: 'cluster.karmada.io/v1alpha1';
  kind: 'Cluster';
  metadata: ObjectMeta;
  spec: ClusterSpec;
  /** Absent when Flotilla knows nothing of the cluster yet: treated as Ready with every API enabled. */
  status?: ClusterStatus;
}

/**
 * What Flotilla knows of a cluster beyond Git: its collected status and the taints controllers added (automatic
 * not-ready/unreachable, ClusterTaintPolicy), from the status branch or --cluster-status. Git's spec.taints stay the
 * user's; the effective taints are both lists together.
 */
export interface ObservedCluster {
  status?: ClusterStatus;
  taints?: Taint[];
}
