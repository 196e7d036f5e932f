// What the failover tests render with instead of a live fleet: a fixed clock, and a member's state as the status
// branch records it after it stopped answering.
import type { ObservedCluster } from '../../src/api/cluster.ts';

/** 2026-11-29T15:00:00Z: the times the tests write are read against it. */
export const T0 = Date.parse('2026-11-29T15:00:00Z');

/** A clock standing `s` seconds after T0. */
export const at = (s: number) => () => new Date(T0 + s * 1000);

/** NotReady (ClusterNotReachable) since `since`, with the not-ready NoSchedule and a NoExecute taint (as a ClusterTaintPolicy adds). */
export function notReadyCluster(since: string): ObservedCluster {
  return {
    status: {
      conditions: [{ type: 'Ready', status: 'False', reason: 'ClusterNotReachable', lastTransitionTime: since }],
    },
    taints: [
      { key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule', timeAdded: since },
      { key: 'cluster.karmada.io/not-ready', effect: 'NoExecute', timeAdded: since },
    ],
  };
}
