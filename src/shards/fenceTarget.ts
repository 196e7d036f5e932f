import type { KubeTarget } from '../deliveries/KubeTarget.ts';

/** A write refused because this replica no longer owns the cluster: its Lease lapsed or the cluster moved. */
export class FencedError extends Error {
  readonly code = 'FENCED' as const;
  constructor(cluster: string) {
    super(
      `not writing to ${cluster}: this replica no longer owns it (its Lease was not renewed in time, or the cluster moved to another replica)`,
    );
    this.name = 'FencedError';
  }
}

/**
 * The member as a replica may use it: every write checks, right before it is sent, that the replica still owns the
 * cluster. A pass that outlives its ownership stops writing there, before the next owner may start (fencing).
 */
export function fenceTarget(kube: KubeTarget, owns: () => boolean): KubeTarget {
  return {
    name: kube.name,
    server: kube.server,
    discovery: kube.discovery,
    stats: kube.stats,
    request(req) {
      if (req.method !== 'GET' && !owns()) return Promise.reject(new FencedError(kube.name));
      return kube.request(req);
    },
    close: () => kube.close(),
  };
}
