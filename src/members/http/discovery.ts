import {
  APIREGISTRATION_GROUP,
  aggregatedDiscoveryOrder,
  apiServiceOrder,
  byString,
  type OrderedGroup,
  type PrioritisedVersion,
  servedPriority,
} from '../resources/discoveryOrder.ts';
import { groupVersionOf, type ResourceRegistry } from '../resources/ResourceRegistry.ts';
import type { KubeObject, ResourceType } from '../types.ts';

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

/** A group version discovery lists, the priority that orders it, and whether a Service (not this server) serves it. */
interface ListedVersion extends PrioritisedVersion {
  external: boolean;
}

/**
 * Every served group version outside the core group, then every APIService's, keyed by APIService name: an
 * APIService's priorities replace the ones a served group version starts with.
 */
function listedVersions(registry: ResourceRegistry, apiServices: readonly KubeObject[]): ListedVersion[] {
  const listed = new Map<string, ListedVersion>();
  for (const { group, versions } of registry.groupVersions())
    for (const version of versions)
      if (group !== '') {
        const priority = servedPriority(registry.inGroupVersion(group, version)[0]!);
        listed.set(`${version}.${group}`, { group, version, priority, external: false });
      }
  for (const a of apiServices) {
    const { group, version } = a.spec ?? {};
    if (typeof group !== 'string' || group === '' || typeof version !== 'string') continue;
    if (group === APIREGISTRATION_GROUP) continue;
    const priority = [Number(a.spec.groupPriorityMinimum ?? 0), Number(a.spec.versionPriority ?? 0)] as const;
    listed.set(`${version}.${group}`, { group, version, priority, external: a.spec.service != null });
  }
  return [...listed.values()];
}

/**
 * kube-aggregator's apisHandler: its own group first, then every APIService's group (available or not) in
 * SortedByGroupAndVersion's order.
 */
function apiServiceGroups(registry: ResourceRegistry, apiServices: readonly KubeObject[]): OrderedGroup[] {
  const listed = listedVersions(registry, apiServices);
  const own = registry.groupVersions().filter((g) => g.group === APIREGISTRATION_GROUP);
  return [...own, ...apiServiceOrder(listed.filter((v) => v.group !== APIREGISTRATION_GROUP))];
}

export function apiGroupList(registry: ResourceRegistry, apiServices: readonly KubeObject[] = []): object {
  const groups = apiServiceGroups(registry, apiServices).map((g) => groupEntry(g.group, g.versions));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

export function apiGroup(
  registry: ResourceRegistry,
  group: string,
  apiServices: readonly KubeObject[] = [],
): object | undefined {
  const found = apiServiceGroups(registry, apiServices).find((g) => g.group === group);
  return found ? { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(found.group, found.versions) } : undefined;
}

/**
 * Whether a Service behind an APIService, not this server, would answer for this group version: the emulator runs
 * none, so the aggregator's proxy finds it unavailable.
 */
export function servedElsewhere(
  registry: ResourceRegistry,
  apiServices: readonly KubeObject[],
  group: string,
  version: string,
): boolean {
  if (registry.inGroupVersion(group, version).length > 0) return false;
  return listedVersions(registry, apiServices).some((v) => v.external && v.group === group && v.version === version);
}

/**
 * A built-in kind's subresources by storage path, as APIInstaller sorts them; a CRD's as its discovery controller
 * appends them (status, then scale).
 */
function listedSubresources(rt: ResourceType): ResourceType['subresources'] {
  return rt.crd ? rt.subresources : [...rt.subresources].sort(byString);
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
    for (const sub of listedSubresources(rt)) {
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
          subresources: listedSubresources(rt).map((sub) => ({
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

/**
 * `/api` (legacy = core group only) or `/apis` (every other group) as an APIGroupDiscoveryList. A version only an
 * APIService with a Service names is listed without resources, as the aggregator's discovery manager adds one whose
 * discovery it could not fetch.
 */
export function aggregatedDiscovery(
  registry: ResourceRegistry,
  legacy: boolean,
  apiVersion: 'v2' | 'v2beta1',
  apiServices: readonly KubeObject[] = [],
): object {
  const groups = legacy
    ? registry.groupVersions().filter((g) => g.group === '')
    : aggregatedDiscoveryOrder(
        listedVersions(registry, apiServices).filter(
          (v) => v.external || registry.inGroupVersion(v.group, v.version).length > 0,
        ),
      );
  const items = groups.map((g) => ({
    metadata: { name: g.group, creationTimestamp: null },
    versions: g.versions.map((version) => {
      const resources = registry.inGroupVersion(g.group, version).map(aggregatedResource);
      return { version, ...(resources.length > 0 ? { resources } : {}), freshness: 'Current' };
    }),
  }));
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${apiVersion}`, metadata: {}, items };
}
