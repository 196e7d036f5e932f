// TaintToleration filter: NoSchedule and NoExecute taints must be tolerated by placement.clusterTolerations.
// Clusters the previous result already targets skip the check (taints only block new placements).
import type { Taint } from '../../api/cluster.ts';
import type { Toleration } from '../../api/policy.ts';
import { fits, previouslyTargeted, unschedulable, type FilterPlugin } from '../framework.ts';

/** Kubernetes Toleration.ToleratesTaint. */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator || 'Equal') {
    case 'Exists':
      return true;
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    default:
      return false;
  }
}

/** The first NoSchedule/NoExecute taint no toleration covers, in the cluster's order. */
export function findUntoleratedTaint(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
): Taint | undefined {
  return (taints ?? []).find(
    (taint) =>
      (taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') &&
      !(tolerations ?? []).some((t) => toleratesTaint(t, taint)),
  );
}

/** Kubernetes Taint.ToString(): key=value:effect, or key:effect without a value. */
export function taintToString(taint: Taint): string {
  return taint.value ? `${taint.key}=${taint.value}:${taint.effect}` : `${taint.key}:${taint.effect}`;
}

export const taintToleration: FilterPlugin = {
  name: 'TaintToleration',
  filter({ request, cluster }) {
    if (previouslyTargeted(request, cluster.metadata.name)) return fits;
    const taint = findUntoleratedTaint(cluster.spec.taints, request.placement.clusterTolerations);
    return taint ? unschedulable(`cluster(s) had untolerated taint {${taintToString(taint)}}`) : fits;
  },
};
