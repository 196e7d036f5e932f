// Karmada's CrossCluster MultiClusterService, as pure functions (pkg/controllers/multiclusterservice,
// pkg/util/helper/mcs.go): which clusters provide and consume a Service, which providers' slices are collected, and
// the EndpointSlices `<provider>-<slice>` a consumer gets. The endpoints come from the status branch
// (endpoints/<provider>.yaml), as for ServiceImports: the same flow, a second reader.
import type { ClusterStatus } from '../api/cluster.ts';
import {
  MULTI_CLUSTER_SERVICE_KIND,
  NETWORKING_API_VERSION,
  type MultiClusterService,
} from '../api/multiClusterService.ts';
import { endpointsPath, type ExportedService } from '../branches/status/exportedEndpoints.ts';
import { controllerWorkMetadata } from './controllerWorkMetadata.ts';
import {
  DISPATCHED_SLICE_MANAGER,
  ENDPOINT_SLICE_MANAGED_BY_LABEL,
  SERVICE_NAME_LABEL,
  type DerivedObject,
} from './deriveImportedServices.ts';

/** util.EndpointSliceProvisionClusterAnnotation: the provider a dispatched slice came from. */
export const PROVISION_CLUSTER_ANNOTATION = 'endpointslice.karmada.io/provision-cluster';

/**
 * The registered clusters, each with what the status branch knows of it (undefined: nothing yet, so Ready with every
 * API enabled, as everywhere in Flotilla).
 */
export type RegisteredClusters = ReadonlyMap<string, ClusterStatus | undefined>;

export function isMultiClusterService(m: unknown): m is MultiClusterService {
  const o = m as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } } | null;
  return (
    !!o &&
    o.apiVersion === NETWORKING_API_VERSION &&
    o.kind === MULTI_CLUSTER_SERVICE_KIND &&
    typeof o.metadata?.name === 'string'
  );
}

/** helper.MultiClusterServiceCrossClusterEnabled: only this type dispatches endpoints; LoadBalancer is not read. */
export function isCrossCluster(mcs: MultiClusterService): boolean {
  return (mcs.spec?.types ?? []).includes('CrossCluster');
}

/** helper.GetProviderClusters: the clusters named (unknown ones included), or every registered cluster when none is. */
export function providerClusters(mcs: MultiClusterService, registered: Iterable<string>): string[] {
  return namedOrAll(mcs.spec?.providerClusters, registered);
}

/** helper.GetConsumerClusters: the clusters named (unknown ones included), or every registered cluster when none is. */
export function consumerClusters(mcs: MultiClusterService, registered: Iterable<string>): string[] {
  return namedOrAll(mcs.spec?.consumerClusters, registered);
}

/**
 * The Service's placement (buildResourceBinding): clusterNames = providers ∪ consumers. Unknown names stay in it, as
 * in Karmada; the scheduler places on registered clusters only.
 */
export function serviceClusters(mcs: MultiClusterService, registered: Iterable<string>): string[] {
  const names = [...registered];
  return [...new Set([...providerClusters(mcs, names), ...consumerClusters(mcs, names)])].sort();
}

/** A cluster a MultiClusterService names that is not registered (Karmada's ClusterNotFound event). */
export interface UnknownCluster {
  field: 'providerClusters' | 'consumerClusters';
  index: number;
  name: string;
}

export function unknownClusters(mcs: MultiClusterService, registered: ReadonlySet<string>): UnknownCluster[] {
  const out: UnknownCluster[] = [];
  for (const field of ['providerClusters', 'consumerClusters'] as const)
    (mcs.spec?.[field] ?? []).forEach((c, index) => {
      if (typeof c?.name === 'string' && !registered.has(c.name)) out.push({ field, index, name: c.name });
    });
  return out;
}

/**
 * Why a cluster takes no part in dispatching, or undefined when it does: not registered (ClusterNotFound), not
 * Ready, or EndpointSlice known to be disabled (propagateMultiClusterService, dispatchEndpointSlice). What the status
 * branch does not know counts as Ready and enabled.
 */
export function skipReason(cluster: string, registered: RegisteredClusters): string | undefined {
  if (!registered.has(cluster)) return 'is not registered';
  const status = registered.get(cluster);
  const ready = status?.conditions?.find((c) => c.type === 'Ready');
  if (ready && ready.status !== 'True') return `is not Ready (Ready=${ready.status})`;
  if (endpointSliceDisabled(status)) return 'does not serve discovery.k8s.io/v1 EndpointSlice';
  return undefined;
}

/** The providers whose slices are collected and dispatched: the registered, Ready ones serving EndpointSlices. */
export function activeProviders(mcs: MultiClusterService, registered: RegisteredClusters): string[] {
  if (!isCrossCluster(mcs)) return [];
  return providerClusters(mcs, registered.keys()).filter((c) => skipReason(c, registered) === undefined);
}

/**
 * Why some of a CrossCluster MultiClusterService's named or implied providers give `consumer` nothing, one line each
 * (Karmada's warning events on the MultiClusterService); empty when `consumer` does not consume it. Unknown names are
 * left out: the render reports them (UNKNOWN_CLUSTER).
 */
export function skippedProviderNotes(
  consumer: string,
  mcs: MultiClusterService,
  registered: RegisteredClusters,
): string[] {
  if (!isCrossCluster(mcs) || !consumerClusters(mcs, registered.keys()).includes(consumer)) return [];
  const what = `MultiClusterService ${mcs.metadata.namespace ?? 'default'}/${mcs.metadata.name}`;
  const self = skipReason(consumer, registered);
  if (self) return [`${what}: consumer ${consumer} ${self}: no EndpointSlice dispatched to it`];
  return providerClusters(mcs, registered.keys())
    .filter((p) => p !== consumer && registered.has(p))
    .flatMap((p) => {
      const why = skipReason(p, registered);
      return why ? [`${what}: provider ${p} ${why}: its EndpointSlices are not dispatched`] : [];
    });
}

/**
 * The Services `cluster` must collect the slices of because it is an active provider of a CrossCluster
 * MultiClusterService: namespace and name (the MultiClusterService's, which is the Service's).
 */
export function servicesProvidedBy(
  cluster: string,
  services: readonly MultiClusterService[],
  registered: RegisteredClusters,
): { namespace: string; name: string }[] {
  return services
    .filter((mcs) => activeProviders(mcs, registered).includes(cluster))
    .map((mcs) => ({ namespace: mcs.metadata.namespace ?? 'default', name: mcs.metadata.name }));
}

/**
 * ensureEndpointSliceWork for one consumer: every active provider's recorded slices of each CrossCluster
 * MultiClusterService that `consumer` consumes, but the consumer's own, as `<provider>-<slice>` labelled with the
 * Service's name and the dispatch controller, annotated with the provider. A consumer that is not Ready or does not
 * serve EndpointSlices gets nothing (dispatchEndpointSlice skips it). Sorted: stable output.
 */
export function dispatchEndpointSlices(
  consumer: string,
  services: readonly { path: string; mcs: MultiClusterService }[],
  registered: RegisteredClusters,
  exported: ReadonlyMap<string, readonly ExportedService[]>,
): DerivedObject[] {
  if (skipReason(consumer, registered) !== undefined) return [];
  const out: DerivedObject[] = [];
  for (const { mcs } of [...services].sort((a, b) => compare(a.path, b.path))) {
    if (!isCrossCluster(mcs) || !consumerClusters(mcs, registered.keys()).includes(consumer)) continue;
    const namespace = mcs.metadata.namespace ?? 'default';
    for (const provider of activeProviders(mcs, registered)) {
      if (provider === consumer) continue;
      const recorded = exported.get(provider)?.find((s) => s.namespace === namespace && s.name === mcs.metadata.name);
      for (const slice of [...(recorded?.endpointSlices ?? [])].sort((a, b) => compare(a.name, b.name))) {
        // Karmada's own naming, to avoid clashes and say where a slice came from.
        const name = `${provider}-${slice.name}`;
        out.push({
          path: `${endpointsPath(provider)}#${namespace}/${name}`,
          manifest: {
            apiVersion: 'discovery.k8s.io/v1',
            kind: 'EndpointSlice',
            metadata: {
              name,
              namespace,
              ...dispatchedWorkMetadata(consumer, provider, mcs.metadata.name, slice.name, name, namespace),
            },
            addressType: slice.addressType,
            endpoints: slice.endpoints,
            ports: slice.ports,
          },
        });
      }
    }
  }
  return out;
}

/**
 * The labels and annotations of a dispatched slice as its Work carries it: the dispatch controller's (the Service's
 * name, itself as manager, the provider), then ctrlutil.CreateOrUpdateWork's with the slice's UID, which the slice it
 * rebuilt has not. The Work is named after the provider's collected slice (the collect controller's Work, whose name
 * the dispatch controller reuses) in the consumer's execution namespace. No binding, so no conflict resolution.
 */
function dispatchedWorkMetadata(
  consumer: string,
  provider: string,
  service: string,
  collected: string,
  name: string,
  namespace: string,
): { labels: Record<string, string>; annotations: Record<string, string> } {
  return controllerWorkMetadata(
    consumer,
    { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', namespace, name },
    {
      labels: { [SERVICE_NAME_LABEL]: service, [ENDPOINT_SLICE_MANAGED_BY_LABEL]: DISPATCHED_SLICE_MANAGER },
      annotations: { [PROVISION_CLUSTER_ANNOTATION]: provider },
    },
    { uid: '', workOf: { kind: 'EndpointSlice', name: collected } },
  );
}

function namedOrAll(selectors: readonly { name?: unknown }[] | undefined, registered: Iterable<string>): string[] {
  const named = (selectors ?? []).map((s) => s?.name).filter((n): n is string => typeof n === 'string' && n !== '');
  return [...new Set(named.length > 0 ? named : registered)].sort();
}

/**
 * Cluster.APIEnablement(EndpointSlice) == APIDisabled: unlisted counts as disabled only when the list is known to be
 * complete (CompleteAPIEnablements, with no field an empty list); no list and no such condition is no knowledge.
 */
function endpointSliceDisabled(status: ClusterStatus | undefined): boolean {
  if (!status) return false;
  const listed = (status.apiEnablements ?? []).some(
    (g) => g.groupVersion === 'discovery.k8s.io/v1' && (g.resources ?? []).some((r) => r.kind === 'EndpointSlice'),
  );
  if (listed) return false;
  return (status.conditions ?? []).some((c) => c.type === 'CompleteAPIEnablements' && c.status === 'True');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
