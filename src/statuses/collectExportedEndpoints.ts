// Karmada's service-export controller, as a poll: for every ServiceExport Flotilla applied to a member, the
// member's EndpointSlices of the Service of that name (pkg/controllers/mcs/service_export_controller.go).
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

const READ_RETRY: RetryPolicy = { attempts: 2, baseDelayMs: 100, maxDelayMs: 500 };

/** The ServiceExports among a member's objects (its inventory). */
export function serviceExportsOf(refs: readonly ObjectRef[]): ObjectRef[] {
  return refs.filter((r) => r.apiVersion === SERVICE_EXPORT_API_VERSION && r.kind === 'ServiceExport');
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
