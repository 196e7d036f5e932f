import { createHash } from 'node:crypto';
import type { ResourceRegistry } from '../resources/ResourceRegistry.ts';

// kubectl apply --server-side downloads openapi v3 only to find, for the kind it applies, a PATCH operation
// tagged with x-kubernetes-group-version-kind; it does no client-side schema validation. So each group
// version document lists the item paths with that tag and a fieldValidation parameter, and no schemas.

const gvPath = (group: string, version: string) => (group ? `apis/${group}/${version}` : `api/${version}`);

export function openapiGroupVersionDocument(
  registry: ResourceRegistry,
  group: string,
  version: string,
): object | undefined {
  const types = registry.inGroupVersion(group, version);
  if (types.length === 0) return undefined;
  const paths: Record<string, object> = {};
  const parameters = [
    { name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } },
    { name: 'fieldManager', in: 'query', schema: { type: 'string', uniqueItems: true } },
    { name: 'force', in: 'query', schema: { type: 'boolean', uniqueItems: true } },
    { name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } },
  ];
  for (const rt of types) {
    const base = `/${gvPath(group, version)}${rt.namespaced ? '/namespaces/{namespace}' : ''}/${rt.plural}`;
    const gvk = { group: rt.group, version: rt.version, kind: rt.kind };
    const op = (action: string) => ({
      operationId: `${action}${rt.kind}`,
      'x-kubernetes-action': action,
      'x-kubernetes-group-version-kind': gvk,
      parameters,
      responses: { '200': { description: 'OK' } },
    });
    // Computed kinds (metrics.k8s.io) are read-only, as metrics-server's document says.
    if (rt.computed === 'review') {
      paths[base] = { post: op('post') };
      continue;
    }
    paths[`${base}/{name}`] = rt.computed
      ? { get: op('get') }
      : { get: op('get'), put: op('put'), patch: op('patch'), delete: op('delete') };
    paths[base] = rt.computed ? { get: op('list') } : { get: op('list'), post: op('post') };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.32.0' }, paths, components: { schemas: {} } };
}

/** The `/openapi/v3` index; the hash changes whenever the documents do, which is what kubectl's cache keys on. */
export function openapiIndex(registry: ResourceRegistry): object {
  const paths: Record<string, object> = {};
  for (const { group, versions } of registry.groupVersions()) {
    for (const version of versions) {
      const doc = JSON.stringify(openapiGroupVersionDocument(registry, group, version));
      const hash = createHash('sha512').update(doc).digest('hex').slice(0, 32).toUpperCase();
      paths[gvPath(group, version)] = { serverRelativeURL: `/openapi/v3/${gvPath(group, version)}?hash=${hash}` };
    }
  }
  return { paths };
}
