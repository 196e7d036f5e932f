// endpoints/<cluster>.yaml on the status branch: the EndpointSlices of every Service a member exports (a
// ServiceExport in its folder), as the status side collected them there. Importing members' derived slices are
// built from these files (interpreters/deriveImportedServices.ts), never from the rendered branch: pod IPs stay
// off `flotilla/rendered` and `main`. Part of the branch contract (docs/BRANCHES.md, docs/schemas/status-endpoints).
import { stringify } from 'yaml';
import { parseYamlValue } from '../../yaml/blockYaml.ts';
import { GO_YAML_STRINGIFY_OPTIONS } from '../../yaml/goYamlSchema.ts';
import { listFolderFiles } from '../../commits/listFolderFiles.ts';
import { readBlobs } from '../../commits/readBlobs.ts';
import { readCommitInfo } from '../../commits/readCommitInfo.ts';
import { readRef } from '../../commits/readRef.ts';
import type { GitRepo } from '../../commits/types.ts';
import { parseBranchFile } from '../../errors/parseBranchFile.ts';

export const SERVICE_EXPORT_API_VERSION = 'multicluster.x-k8s.io/v1alpha1';
export const ENDPOINTS_FOLDER = 'endpoints/';

/** One EndpointSlice of an exported Service: the fields an importing cluster's copy carries (Karmada copies them all but metadata). */
export interface CollectedEndpointSlice {
  name: string;
  addressType: string;
  endpoints: Record<string, unknown>[];
  ports: Record<string, unknown>[];
}

/** One exported Service of one member: its ServiceExport's namespace and name and the slices found for it. */
export interface ExportedService {
  namespace: string;
  name: string;
  endpointSlices: CollectedEndpointSlice[];
}

export interface ExportedEndpointsFile {
  cluster: string;
  services: ExportedService[];
}

export function endpointsPath(cluster: string): string {
  return `${ENDPOINTS_FOLDER}${cluster}.yaml`;
}

/**
 * The file's bytes, or null (no file) when the member exports nothing. Services and slices are sorted, so the
 * same endpoints give the same bytes and a status commit happens only when they change.
 */
export function serializeExportedEndpoints(cluster: string, services: readonly ExportedService[]): string | null {
  if (services.length === 0) return null;
  const sorted = [...services]
    .sort((a, b) => compare(`${a.namespace}/${a.name}`, `${b.namespace}/${b.name}`))
    .map((s) => ({
      namespace: s.namespace,
      name: s.name,
      endpointSlices: [...s.endpointSlices].sort((a, b) => compare(a.name, b.name)),
    }));
  const file: ExportedEndpointsFile = { cluster, services: sorted };
  return stringify(file, GO_YAML_STRINGIFY_OPTIONS);
}

export function parseExportedEndpoints(text: string): ExportedEndpointsFile {
  const value = parseYamlValue(text) as Partial<ExportedEndpointsFile> | null;
  if (!value || typeof value.cluster !== 'string' || !Array.isArray(value.services))
    throw new Error('expected a mapping with cluster and services');
  return { cluster: value.cluster, services: value.services };
}

/** Every member's exported endpoints on the status branch, by cluster; empty when the branch does not exist. */
export async function readExportedEndpoints(repo: GitRepo, statusRef: string): Promise<Map<string, ExportedService[]>> {
  const head = await readRef(repo, statusRef);
  const out = new Map<string, ExportedService[]>();
  if (!head) return out;
  const files = await listFolderFiles(repo, (await readCommitInfo(repo, head)).tree, ENDPOINTS_FOLDER);
  const paths = [...files.keys()].filter((p) => p.endsWith('.yaml')).sort();
  const blobs = await readBlobs(
    repo,
    paths.map((p) => files.get(p)!.oid),
  );
  const decoder = new TextDecoder();
  for (const path of paths) {
    const file = parseBranchFile(statusRef, path, () =>
      parseExportedEndpoints(decoder.decode(blobs.get(files.get(path)!.oid)!)),
    );
    out.set(file.cluster, file.services);
  }
  return out;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
