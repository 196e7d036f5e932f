import type { ObjectRef } from '../api/kinds.ts';
import { mapLimit } from '../deliveries/applyClusterFolder.ts';
import type { KubeTarget } from '../deliveries/KubeTarget.ts';
import { resolveResource, resourcePath } from '../deliveries/resolveResource.ts';
import { sendRequest, type RetryPolicy } from '../deliveries/sendRequest.ts';
import type { ObservedObject } from './buildStatusFiles.ts';

/** A status read should give up quickly: the next one is seconds away. */
const READ_RETRY: RetryPolicy = { attempts: 2, baseDelayMs: 100, maxDelayMs: 500 };

export interface LiveObjects {
  /** What the member returned for each object it has. */
  found: ObservedObject[];
  /** Objects the member does not have (404): drift, which only an apply repairs. */
  missing: ObjectRef[];
  /** Objects that could not be read (unreachable, unserved kind, other errors); nothing is said about them. */
  unread: number;
}

/**
 * GETs each object of a cluster's inventory from the member: the status stage's input without an apply, so only
 * reads are sent (the work status controller's informer, as a poll).
 */
export async function readLiveObjects(kube: KubeTarget, refs: readonly ObjectRef[], concurrency = 8): Promise<LiveObjects> {
  const out: LiveObjects = { found: [], missing: [], unread: 0 };
  await mapLimit(refs, concurrency, async (ref) => {
    try {
      const resource = await resolveResource(kube, ref.apiVersion, ref.kind, READ_RETRY);
      if (!resource) {
        out.unread++;
        return;
      }
      const res = await sendRequest(kube, { method: 'GET', path: resourcePath(ref.apiVersion, resource, ref.namespace, ref.name), timeoutMs: 5_000 }, READ_RETRY);
      if (res.status === 200 && res.body && typeof res.body === 'object') out.found.push({ ref, live: res.body as Record<string, unknown> });
      else if (res.status === 404) out.missing.push(ref);
      else out.unread++;
    } catch {
      out.unread++;
    }
  });
  // Stable order: the status files do not depend on which GET answered first.
  out.found.sort((a, b) => key(a.ref).localeCompare(key(b.ref)));
  return out;
}

function key(r: ObjectRef): string {
  return `${r.apiVersion}/${r.kind}/${r.namespace}/${r.name}`;
}
