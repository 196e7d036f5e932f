import type { KubeObject } from '../types.ts';

/**
 * The pod strategy's CheckGracefulDelete: the grace period a delete gives a pod's containers to stop. The caller's
 * gracePeriodSeconds, else the pod's terminationGracePeriodSeconds; none for a pod no node runs or that has finished,
 * since no kubelet would end it.
 */
export function podGracePeriod(pod: KubeObject, requested: number | undefined): number {
  if (!pod.spec?.nodeName) return 0;
  if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') return 0;
  const asked = requested !== undefined && requested < 0 ? 1 : requested;
  return asked ?? pod.spec?.terminationGracePeriodSeconds ?? 0;
}
