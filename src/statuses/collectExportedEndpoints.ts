// Karmada's service-export controller and endpointslice collect controller, as a poll: for every ServiceExport
// Flotilla applied to a member, and every Service the member provides for a CrossCluster MultiClusterService, the
// member's EndpointSlices of that Service (pkg/controllers/mcs/service_export_controller.go,
// pkg/controllers/multiclusterservice/endpointslice_collect_controller.go).
import type { ObjectRef } from '../api/kinds.ts';
import {
  SERVICE_EXPORT_API_VERSION,
  type CollectedEndpointSlice,
  type ExportedService,
} from '../branches/status/exportedEndpoints.ts';
import { mapLimit } from '../concurrency/mapLimit.ts';
import type { KubeTarget } from '../deliveries/KubeTarget.ts';
import { resolveResource, resourcePath } from '../deliveries/resolveResource.ts';
import { sendRequest, type RetryPolicy } from '../deliveries/sendRequest.ts';
import { isManagedByKarmada, SERVICE_NAME_LABEL } from '../interpreters/deriveImportedServices.ts';
import { servicesProvidedBy, type RegisteredClusters } from '../interpreters/dispatchEndpointSlices.ts';
import type { MultiClusterService } from '../api/multiClusterService.ts';
import { readMultiClusterServices } from '../branches/rendered/multiClusterServices.ts';
import { CLUSTERS_PATH } from '../branches/rendered/outputPaths.ts';
import { parseRegisteredClusters } from '../branches/rendered/registeredClusters.ts';
import { readObservedClusters } from '../branches/status/readStatusBranch.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readTextFiles } from '../commits/readPathOids.ts';
import type { GitRepo } from '../commits/types.ts';

const READ_RETRY: RetryPolicy = { attempts: 2, baseDelayMs: 100, maxDelayMs: 500 };

/** What the rendered and status branches say of the MultiClusterServices: each one, and the clusters registered. */
export interface MultiClusterServiceContext {
  services: { path: string; mcs: MultiClusterService }[];
  registered: RegisteredClusters;
}

/**
 * The MultiClusterServices of a rendered commit, with the registered clusters and their status as the status branch
 * has it (which providers are Ready and serve EndpointSlices). Undefined when it cannot be read: then only
 * ServiceExports are collected.
 */
export async function readMultiClusterServiceContext(
  repo: GitRepo,
  renderedCommit: string,
  statusRef: string,
): Promise<MultiClusterServiceContext | undefined> {
  try {
    const tree = (await readCommitInfo(repo, renderedCommit)).tree;
    const services = await readMultiClusterServices(repo, tree);
    if (services.length === 0) return { services, registered: new Map() };
    const observed = await readObservedClusters(repo, statusRef);
    const text = (await readTextFiles(repo, tree, [CLUSTERS_PATH])).get(CLUSTERS_PATH) ?? '{}';
    const registered = new Map(parseRegisteredClusters(text).map((c) => [c.name, observed.get(c.name)?.status]));
    return { services, registered };
  } catch {
    return undefined;
  }
}

/**
 * The Services whose slices a member records: those it exports with a ServiceExport among its objects (its
 * inventory), and those it provides for a CrossCluster MultiClusterService while it is Ready and serves
 * EndpointSlices (Karmada's endpointslice collect controller). Each Service once.
 */
export function serviceExportsOf(
  refs: readonly ObjectRef[],
  cluster?: string,
  mcs?: MultiClusterServiceContext,
): ObjectRef[] {
  const out = refs.filter((r) => r.apiVersion === SERVICE_EXPORT_API_VERSION && r.kind === 'ServiceExport');
  if (cluster === undefined || !mcs) return out;
  const seen = new Set(out.map((r) => `${r.namespace}/${r.name}`));
  for (const s of servicesProvidedBy(
    cluster,
    mcs.services.map((x) => x.mcs),
    mcs.registered,
  )) {
    if (seen.has(`${s.namespace}/${s.name}`)) continue;
    seen.add(`${s.namespace}/${s.name}`);
    out.push({ apiVersion: 'v1', kind: 'Service', namespace: s.namespace, name: s.name });
  }
  return out;
}

/**
 * The exported Services' slices on one member, or undefined when any could not be read: the recorded endpoints then
 * stay as they were rather than vanish from every importer on one failed read. Slices a Karmada-style controller
 * manages (imported or dispatched ones) are skipped, as helper.IsEndpointSliceManagedByKarmada does.
 */
export async function collectExportedEndpoints(
  kube: KubeTarget,
  exports: readonly ObjectRef[],
): Promise<ExportedService[] | undefined> {
  if (exports.length === 0) return [];
  let resource;
  try {
    resource = await resolveResource(kube, 'discovery.k8s.io/v1', 'EndpointSlice', READ_RETRY);
  } catch {
    return undefined;
  }
  if (!resource) return undefined;
  const found = await mapLimit([...exports], 4, async (ref): Promise<ExportedService | null> => {
    try {
      const res = await sendRequest(
        kube,
        {
          method: 'GET',
          path: resourcePath('discovery.k8s.io/v1', resource, ref.namespace),
          query: { labelSelector: `${SERVICE_NAME_LABEL}=${ref.name}` },
          timeoutMs: 10_000,
        },
        READ_RETRY,
      );
      const items = (res.body as { items?: unknown } | undefined)?.items;
      if (res.status !== 200 || !Array.isArray(items)) return null;
      const slices: CollectedEndpointSlice[] = [];
      for (const item of items as Record<string, unknown>[]) {
        const meta = (item.metadata ?? {}) as {
          name?: string;
          labels?: Record<string, string>;
          deletionTimestamp?: string;
        };
        if (!meta.name || meta.deletionTimestamp || isManagedByKarmada(meta.labels)) continue;
        slices.push({
          name: meta.name,
          addressType: String(item.addressType ?? 'IPv4'),
          endpoints: Array.isArray(item.endpoints) ? (item.endpoints as Record<string, unknown>[]) : [],
          ports: Array.isArray(item.ports) ? (item.ports as Record<string, unknown>[]) : [],
        });
      }
      return { namespace: ref.namespace, name: ref.name, endpointSlices: slices };
    } catch {
      return null;
    }
  });
  return found.some((s) => s === null) ? undefined : (found as ExportedService[]);
}
