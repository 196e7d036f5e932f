// apps.karmada.io/v1alpha1 WorkloadRebalancer: a one-off request to schedule the listed workloads afresh
// (Karmada's fresh mode), committed to the config repo instead of created on an API server.
import type { ObjectMeta } from './policy.ts';

export interface ObjectReference {
  apiVersion: string;
  kind: string;
  /** Absent for cluster-scoped workloads only: a namespaced one without it names nothing, as in Karmada. */
  namespace?: string;
  name: string;
}

export interface WorkloadRebalancer {
  apiVersion: 'apps.karmada.io/v1alpha1';
  kind: 'WorkloadRebalancer';
  metadata: ObjectMeta & { generation?: number };
  spec: {
    workloads: ObjectReference[];
    /** Karmada deletes the rebalancer this long after it finished; see README (Rescheduling) for Git. */
    ttlSecondsAfterFinished?: number;
  };
}
