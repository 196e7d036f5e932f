import type { ApiResource, KubeTarget } from './KubeTarget.ts';
import { sendRequest, statusMessage, type RetryPolicy } from './sendRequest.ts';
import { responseErrorText } from './clientGoErrors.ts';

/** The member answered discovery with an error: `error` is its answer as client-go's error says it. */
export class DiscoveryFailedError extends Error {
  constructor(
    message: string,
    readonly error: string,
  ) {
    super(message);
    this.name = 'DiscoveryFailedError';
  }
}

/**
 * The resource (plural, namespaced) serving `kind` in `apiVersion`, from GET /api/v1 or /apis/<group>/<version>,
 * cached on the KubeTarget. A kind missing from a cached list, or a groupVersion that was 404, triggers one fresh
 * read: a CRD may have been established since. Undefined when the server really does not serve it.
 */
export async function resolveResource(
  kube: KubeTarget,
  apiVersion: string,
  kind: string,
  retry?: RetryPolicy,
): Promise<ApiResource | undefined> {
  const cached = kube.discovery.get(apiVersion);
  if (cached !== undefined) {
    const list = await cached.catch(() => null);
    const hit = list?.find((r) => r.kind === kind);
    if (hit) return hit;
    // Another caller may already have replaced the entry with a fresh read: use that one.
    if (kube.discovery.get(apiVersion) !== cached)
      return (await kube.discovery.get(apiVersion)!.catch(() => null))?.find((r) => r.kind === kind);
  }
  const fresh = readResourceList(kube, apiVersion, retry);
  kube.discovery.set(apiVersion, fresh);
  // A failed read must not poison the cache for the next pass.
  fresh.catch(() => kube.discovery.get(apiVersion) === fresh && kube.discovery.delete(apiVersion));
  return (await fresh)?.find((r) => r.kind === kind);
}

export function forgetDiscovery(kube: KubeTarget, apiVersion: string): void {
  kube.discovery.delete(apiVersion);
}

async function readResourceList(
  kube: KubeTarget,
  apiVersion: string,
  retry?: RetryPolicy,
): Promise<ApiResource[] | null> {
  const path = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  const res = await sendRequest(kube, { method: 'GET', path }, retry);
  if (res.status === 404) return null;
  if (res.status !== 200)
    throw new DiscoveryFailedError(
      `discovery ${path} on ${kube.name} failed: ${statusMessage(res)}`,
      responseErrorText(res),
    );
  const resources = ((res.body as { resources?: ApiResource[] }).resources ?? []).filter((r) => !r.name.includes('/'));
  return resources.map((r) => ({ name: r.name, kind: r.kind, namespaced: r.namespaced }));
}

/** /api|apis/<gv>[/namespaces/<ns>]/<plural>[/<name>], each segment escaped. */
export function resourcePath(apiVersion: string, resource: ApiResource, namespace: string, name?: string): string {
  const root = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  const ns = resource.namespaced ? `/namespaces/${encodeURIComponent(namespace || 'default')}` : '';
  return `${root}${ns}/${resource.name}${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;
}
