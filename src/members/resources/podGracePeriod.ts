import type { KubeObject } from '../types.ts';

/**
 * The pod strategy's CheckGracefulDelete: the grace period a delete gives a pod's containers to stop. The caller's
 * gracePeriodSeconds (a negative one already taken as 1), else the pod's terminationGracePeriodSeconds; none for a pod no node runs or that has finished,
 * since no kubelet would end it.
 */
export function podGracePeriod(pod: KubeObject, requested: number | undefined): number {
  if (!pod.spec?.nodeName) return 0;
  if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') return 0;
  return requested ?? pod.spec?.terminationGracePeriodSeconds ?? 0;
}
