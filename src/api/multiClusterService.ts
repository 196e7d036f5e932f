// networking.karmada.io/v1alpha1 MultiClusterService (pkg/apis/networking/v1alpha1/service_types.go): exposes the
// Service of the same namespace and name across clusters. Flotilla reads the CrossCluster type: the Service goes to
// providers and consumers, and the providers' EndpointSlices are dispatched to the consumers.
import type { ObjectMeta } from './policy.ts';

export const NETWORKING_API_VERSION = 'networking.karmada.io/v1alpha1';
export const MULTI_CLUSTER_SERVICE_KIND = 'MultiClusterService';

export type ExposureType = 'CrossCluster' | 'LoadBalancer';

/** ClusterSelector: one cluster by name. */
export interface ClusterSelector {
  name: string;
}

export interface MultiClusterService {
  apiVersion: typeof NETWORKING_API_VERSION;
  kind: typeof MULTI_CLUSTER_SERVICE_KIND;
  metadata: ObjectMeta;
  spec: {
    types: ExposureType[];
    ports?: { name?: string; port: number }[];
    /** Empty or absent: every registered cluster provides the backends (helper.GetProviderClusters). */
    providerClusters?: ClusterSelector[];
    /** Empty or absent: every registered cluster consumes (helper.GetConsumerClusters). */
    consumerClusters?: ClusterSelector[];
    /** Deprecated in Karmada in favour of providerClusters/consumerClusters, which its controllers read instead. */
    range?: { clusterNames?: string[] };
    serviceProvisionClusters?: string[];
    serviceConsumptionClusters?: string[];
  };
}
