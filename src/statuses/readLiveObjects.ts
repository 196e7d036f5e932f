import type { ObjectRef } from '../api/kinds.ts';
import { mapLimit } from '../concurrency/mapLimit.ts';
import type { ApiResource, KubeTarget } from '../deliveries/KubeTarget.ts';
import { resolveResource, resourcePath } from '../deliveries/resolveResource.ts';
import { sendRequest, type RetryPolicy } from '../deliveries/sendRequest.ts';
import { MANAGED_LABEL } from '../api/karmadaLabels.ts';
import type { ObservedObject } from './buildStatusFiles.ts';

/** A status read should give up quickly: the next one is seconds away. */
const READ_RETRY: RetryPolicy = { attempts: 2, baseDelayMs: 100, maxDelayMs: 500 };

/** Objects per LIST page: a namespace of 20k objects is 20 requests, none of them a response of unbounded size. */
const LIST_PAGE = 1_000;

export interface LiveObjects {
  /** What the member returned for each object it has. */
  found: ObservedObject[];
  /** Objects the member does not have (404): drift, which only an apply repairs. */
  missing: ObjectRef[];
  /** Objects that could not be read (unreachable, unserved kind, other errors); nothing is said about them. */
  unread: number;
}

/**
 * Reads a cluster's inventory from the member: the status stage's input without an apply, so only reads are sent
 * (the work status controller's informer, as a poll). One LIST per kind and namespace, of the objects labelled as
 * Flotilla's, instead of one GET per object: a status pass over 20k objects every few seconds is a handful of
 * requests. An object the LIST does not return is GET on its own (missing, or no longer labelled, which a GET
 * still reads), as is every object of a kind whose LIST fails: the result is the same as GETting each.
 */
export async function readLiveObjects(
  kube: KubeTarget,
  refs: readonly ObjectRef[],
  concurrency = 8,
  pageSize = LIST_PAGE,
): Promise<LiveObjects> {
  const out: LiveObjects = { found: [], missing: [], unread: 0 };
  const single: { ref: ObjectRef; resource: ApiResource }[] = [];
  const groups = [...groupByCollection(refs).values()];
  await mapLimit(groups, concurrency, async (group) => {
    const { apiVersion, kind, namespace } = group[0]!;
    let resource: ApiResource | undefined;
    try {
      resource = await resolveResource(kube, apiVersion, kind, READ_RETRY);
    } catch {
      resource = undefined;
    }
    if (!resource) {
      out.unread += group.length;
      return;
    }
    const listed = await listManaged(kube, apiVersion, resource, namespace, pageSize);
    for (const ref of group) {
      const live = listed?.get(ref.name);
      if (live) out.found.push({ ref, live: { apiVersion, kind, ...live } });
      else single.push({ ref, resource });
    }
  });
  await mapLimit(single, concurrency, async ({ ref, resource }) => {
    try {
      const res = await sendRequest(
        kube,
        { method: 'GET', path: resourcePath(ref.apiVersion, resource, ref.namespace, ref.name), timeoutMs: 5_000 },
        READ_RETRY,
      );
      if (res.status === 200 && res.body && typeof res.body === 'object')
        out.found.push({ ref, live: res.body as Record<string, unknown> });
      else if (res.status === 404) out.missing.push(ref);
      else out.unread++;
    } catch {
      out.unread++;
    }
  });
  // Stable order: the status files do not depend on which request answered first.
  out.found.sort((a, b) => key(a.ref).localeCompare(key(b.ref)));
  return out;
}

/** Refs by the collection one LIST reads: apiVersion, kind and namespace (a cluster-scoped kind's refs share one). */
function groupByCollection(refs: readonly ObjectRef[]): Map<string, ObjectRef[]> {
  const groups = new Map<string, ObjectRef[]>();
  for (const ref of refs) {
    const k = `${ref.apiVersion}/${ref.kind}/${ref.namespace}`;
    const group = groups.get(k);
    if (group) group.push(ref);
    else groups.set(k, [ref]);
  }
  return groups;
}

/** Name → object of one collection's Flotilla-labelled objects, every page; null when a page could not be read. */
async function listManaged(
  kube: KubeTarget,
  apiVersion: string,
  resource: ApiResource,
  namespace: string,
  pageSize: number,
): Promise<Map<string, Record<string, unknown>> | null> {
  const byName = new Map<string, Record<string, unknown>>();
  let token: string | undefined;
  do {
    const query: Record<string, string> = {
      labelSelector: `${MANAGED_LABEL}=true`,
      limit: String(pageSize),
      ...(token ? { continue: token } : {}),
    };
    let res;
    try {
      res = await sendRequest(
        kube,
        { method: 'GET', path: resourcePath(apiVersion, resource, namespace), query, timeoutMs: 10_000 },
        READ_RETRY,
      );
    } catch {
      return null;
    }
    const body = res.body as { items?: unknown; metadata?: { continue?: string } } | undefined;
    if (res.status !== 200 || !body || !Array.isArray(body.items)) return null;
    for (const item of body.items as Record<string, unknown>[]) {
      const name = (item.metadata as { name?: string } | undefined)?.name;
      if (name) byName.set(name, item);
    }
    token = body.metadata?.continue || undefined;
  } while (token);
  return byName;
}

function key(r: ObjectRef): string {
  return `${r.apiVersion}/${r.kind}/${r.namespace}/${r.name}`;
}
