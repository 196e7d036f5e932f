import { groupVersionOf, type ResourceRegistry } from '../resources/ResourceRegistry.ts';
import type { ResourceType } from '../types.ts';

// Discovery documents in both shapes kubectl 1.32 understands: aggregated (apidiscovery.k8s.io/v2, one
// request for everything) and legacy (APIVersions / APIGroupList / APIResourceList per group version).
// client-node only ever asks for the per-group-version APIResourceList.

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
/** metrics-server's verbs for its computed kinds. */
const COMPUTED_VERBS = ['get', 'list'];
/** The review kinds take a create and nothing else. */
const REVIEW_VERBS = ['create'];
const SUBRESOURCE_VERBS: Record<string, string[]> = {
  status: ['get', 'patch', 'update'],
  scale: ['get', 'patch', 'update'],
  // FinalizeREST implements Update only: no get, no patch.
  finalize: ['update'],
  log: ['get'],
  exec: ['create', 'get'],
  attach: ['create', 'get'],
  portforward: ['create', 'get'],
};

/** The kind a subresource answers with, as kube-apiserver's discovery names it (Scale aside). */
const SUBRESOURCE_KINDS: Record<string, string> = {
  log: 'Pod',
  exec: 'PodExecOptions',
  attach: 'PodAttachOptions',
  portforward: 'PodPortForwardOptions',
};

export const AGGREGATED_CONTENT_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

export function apiVersions(address: string): object {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: address }],
  };
}

function groupEntry(group: string, versions: string[]): object {
  const list = versions.map((version) => ({ groupVersion: `${group}/${version}`, version }));
  return { name: group, versions: list, preferredVersion: list[0] };
}

export function apiGroupList(registry: ResourceRegistry): object {
  const groups = registry
    .groupVersions()
    .filter((g) => g.group !== '')
    .map((g) => groupEntry(g.group, g.versions));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

export function apiGroup(registry: ResourceRegistry, group: string): object | undefined {
  const found = registry.groupVersions().find((g) => g.group === group && group !== '');
  return found ? { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(found.group, found.versions) } : undefined;
}

export function apiResourceList(registry: ResourceRegistry, group: string, version: string): object | undefined {
  const types = registry.inGroupVersion(group, version);
  if (types.length === 0) return undefined;
  const resources: object[] = [];
  for (const rt of types) {
    resources.push({
      name: rt.plural,
      singularName: rt.singular,
      namespaced: rt.namespaced,
      kind: rt.kind,
      verbs: rt.computed === 'review' ? REVIEW_VERBS : rt.computed ? COMPUTED_VERBS : VERBS,
      ...(rt.shortNames.length ? { shortNames: rt.shortNames } : {}),
      ...(rt.categories.length ? { categories: rt.categories } : {}),
    });
    for (const sub of rt.subresources) {
      resources.push({
        name: `${rt.plural}/${sub}`,
        singularName: '',
        namespaced: rt.namespaced,
        ...(sub === 'scale'
          ? { group: 'autoscaling', version: 'v1', kind: 'Scale' }
          : { kind: SUBRESOURCE_KINDS[sub] ?? rt.kind }),
        verbs: SUBRESOURCE_VERBS[sub],
      });
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersionOf({ group, version }), resources };
}

function aggregatedResource(rt: ResourceType): object {
  return {
    resource: rt.plural,
    responseKind: { group: rt.group, version: rt.version, kind: rt.kind },
    scope: rt.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: rt.singular,
    verbs: rt.computed === 'review' ? REVIEW_VERBS : rt.computed ? COMPUTED_VERBS : VERBS,
    ...(rt.shortNames.length ? { shortNames: rt.shortNames } : {}),
    ...(rt.categories.length ? { categories: rt.categories } : {}),
    ...(rt.subresources.length
      ? {
          subresources: rt.subresources.map((sub) => ({
            subresource: sub,
            responseKind:
              sub === 'scale'
                ? { group: 'autoscaling', version: 'v1', kind: 'Scale' }
                : { group: rt.group, version: rt.version, kind: SUBRESOURCE_KINDS[sub] ?? rt.kind },
            verbs: SUBRESOURCE_VERBS[sub],
          })),
        }
      : {}),
  };
}

/** `/api` (legacy = core group only) or `/apis` (every other group) as an APIGroupDiscoveryList. */
export function aggregatedDiscovery(registry: ResourceRegistry, legacy: boolean, apiVersion: 'v2' | 'v2beta1'): object {
  const items = registry
    .groupVersions()
    .filter((g) => (g.group === '') === legacy)
    .map((g) => ({
      metadata: { name: g.group, creationTimestamp: null },
      versions: g.versions.map((version) => ({
        version,
        resources: registry.inGroupVersion(g.group, version).map(aggregatedResource),
        freshness: 'Current',
      })),
    }));
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${apiVersion}`, metadata: {}, items };
}
