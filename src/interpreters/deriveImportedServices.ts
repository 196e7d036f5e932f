// What an importing member gets for its ServiceImports: Karmada's service-import controller (the derived Service)
// and endpointslice controller (each exporting cluster's slices, renamed and relabelled), dispatched as the
// ServiceImport's dependencies (pkg/controllers/mcs, pkg/resourceinterpreter/default/native/dependencies.go). Pure:
// the cluster's folder and the endpoints recorded on the status branch in, the objects to apply out.
import {
  endpointsPath,
  SERVICE_EXPORT_API_VERSION,
  type ExportedService,
} from '../branches/status/exportedEndpoints.ts';
import { derivedServiceName, importedEndpointSliceName } from '../names/serviceImportNames.ts';
import { controllerWorkMetadata, type AttachedBindingOf } from './controllerWorkMetadata.ts';

export const SERVICE_IMPORT_KIND = 'ServiceImport';
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const ENDPOINT_SLICE_MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
/** util.EndpointSliceControllerLabelValue: slices Karmada's endpointslice controller derived from collected ones. */
export const IMPORTED_SLICE_MANAGER = 'endpointslice-controller.karmada.io';
/** util.EndpointSliceDispatchControllerLabelValue: slices a MultiClusterService dispatched. */
export const DISPATCHED_SLICE_MANAGER = 'endpointslice-dispatch-controller.karmada.io';

/** One object derived for an importing member, with the status-branch origin it is reported under. */
export interface DerivedObject {
  /** Where it comes from: the ServiceImport's rendered path, or the exporter's endpoints file on the status branch. */
  path: string;
  manifest: Record<string, unknown>;
}

/**
 * helper.IsEndpointSliceManagedByKarmada: slices Karmada-style controllers wrote are never collected again, or an
 * importing cluster that also exports would report its imported slices back.
 */
export function isManagedByKarmada(labels: Record<string, string> | undefined): boolean {
  const by = labels?.[ENDPOINT_SLICE_MANAGED_BY_LABEL];
  return by === IMPORTED_SLICE_MANAGER || by === DISPATCHED_SLICE_MANAGER;
}

/**
 * For every ServiceImport among `manifests` (the folder of `cluster`): the Service `derived-<name>` (ClusterIP, the
 * import's ports; only for type ClusterSetIP, as the service-import controller skips the others) and, for every
 * cluster that exports a Service of that namespace and name, each of its slices as `imported-<cluster>-<slice>`
 * labelled with the derived Service's name and Karmada's endpointslice controller as manager. Each reaches the member
 * as Karmada's dependency of the ServiceImport: through its own attached binding, which takes its conflict resolution
 * from the ServiceImport's binding (`bindings`, by the ServiceImport's path; none read as Abort), and its own Work
 * (controllerWorkMetadata). Sorted by path, then name: stable output.
 */
export function deriveImportedServices(
  cluster: string,
  manifests: ReadonlyMap<string, unknown>,
  exported: ReadonlyMap<string, readonly ExportedService[]>,
  bindings: ReadonlyMap<string, AttachedBindingOf> = new Map(),
): DerivedObject[] {
  const out: DerivedObject[] = [];
  // Only a ServiceImport with a string name has anything derived: the names below are built from it.
  const imports = [...manifests]
    .filter(
      ([, m]) => isServiceImport(m) && typeof (m as { metadata?: { name?: unknown } }).metadata?.name === 'string',
    )
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [path, value] of imports) {
    const imp = value as { metadata: { name: string; namespace?: string }; spec?: { type?: string; ports?: unknown } };
    const name = imp.metadata.name;
    const namespace = imp.metadata.namespace ?? 'default';
    const derived = derivedServiceName(name);
    const binding = bindings.get(path) ?? { conflictResolution: undefined };
    // The service-import controller skips any type but ClusterSetIP, none included (its CRD requires one).
    if (imp.spec?.type === 'ClusterSetIP') {
      out.push({
        path: `${path}#${derived}`,
        manifest: {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: {
            name: derived,
            namespace,
            ...controllerWorkMetadata(
              cluster,
              { apiVersion: 'v1', kind: 'Service', namespace, name: derived },
              { labels: {}, annotations: {} },
              { binding },
            ),
          },
          spec: { type: 'ClusterIP', ports: servicePorts(imp.spec?.ports) },
        },
      });
    }
    for (const exporter of [...exported.keys()].sort()) {
      const service = exported.get(exporter)!.find((s) => s.namespace === namespace && s.name === name);
      for (const slice of [...(service?.endpointSlices ?? [])].sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
      )) {
        const sliceName = importedEndpointSliceName(slice.name, exporter);
        out.push({
          path: `${endpointsPath(exporter)}#${namespace}/${sliceName}`,
          manifest: {
            apiVersion: 'discovery.k8s.io/v1',
            kind: 'EndpointSlice',
            metadata: {
              name: sliceName,
              namespace,
              // The endpointslice controller's own work.karmada.io keys (of the exporter's collect Work) give way to
              // the importer's Work's.
              ...controllerWorkMetadata(
                cluster,
                { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', namespace, name: sliceName },
                {
                  labels: { [SERVICE_NAME_LABEL]: derived, [ENDPOINT_SLICE_MANAGED_BY_LABEL]: IMPORTED_SLICE_MANAGER },
                  annotations: {},
                },
                { binding },
              ),
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
 * A multicluster.x-k8s.io ServiceImport, by apiVersion and kind only: whether it carries a usable name is for the
 * caller to check (deriveImportedServices and readImportBindings need one, a folder with any ServiceImport imports).
 */
export function isServiceImport(m: unknown): boolean {
  const o = m as { apiVersion?: unknown; kind?: unknown } | null;
  return !!o && o.apiVersion === SERVICE_EXPORT_API_VERSION && o.kind === SERVICE_IMPORT_KIND;
}

/** servicePorts of the service-import controller: name, protocol, port and appProtocol of each import port. */
function servicePorts(ports: unknown): Record<string, unknown>[] {
  if (!Array.isArray(ports)) return [];
  return ports.map((p: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const k of ['name', 'protocol', 'port', 'appProtocol']) if (p[k] !== undefined && p[k] !== '') out[k] = p[k];
    return out;
  });
}
