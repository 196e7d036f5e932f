// multiclusterservices/<namespace>/<name>.yaml on the rendered branch: every MultiClusterService of the source commit,
// as Git has it. Karmada keeps one in each provider's execution namespace as a Work it never dispatches; here the
// applier and the Pull agents read it to dispatch providers' EndpointSlices to consumers, and the status side to know
// which Services a provider's endpoints are collected for. Never applied to a member. Part of the branch contract
// (docs/BRANCHES.md, docs/schemas/rendered-multiclusterservice).
import type { MultiClusterService } from '../../api/multiClusterService.ts';
import { listFolderFiles } from '../../commits/listFolderFiles.ts';
import { readBlobs } from '../../commits/readBlobs.ts';
import type { GitRepo } from '../../commits/types.ts';
import { parseYamlValue } from '../../yaml/blockYaml.ts';
import { assertInside } from './outputPaths.ts';

export const MULTI_CLUSTER_SERVICES_FOLDER = 'multiclusterservices/';

export function multiClusterServicePath(namespace: string, name: string): string {
  return assertInside(MULTI_CLUSTER_SERVICES_FOLDER, `${MULTI_CLUSTER_SERVICES_FOLDER}${namespace}/${name}.yaml`);
}

/** The MultiClusterServices of a rendered tree with their paths, sorted by path; a file that does not parse is left out. */
export async function readMultiClusterServices(
  repo: GitRepo,
  tree: string,
): Promise<{ path: string; mcs: MultiClusterService }[]> {
  const files = await listFolderFiles(repo, tree, MULTI_CLUSTER_SERVICES_FOLDER);
  const paths = [...files.keys()].filter((p) => p.endsWith('.yaml')).sort();
  if (paths.length === 0) return [];
  const blobs = await readBlobs(
    repo,
    paths.map((p) => files.get(p)!.oid),
  );
  const decoder = new TextDecoder();
  const out: { path: string; mcs: MultiClusterService }[] = [];
  for (const path of paths) {
    try {
      out.push({ path, mcs: parseYamlValue(decoder.decode(blobs.get(files.get(path)!.oid)!)) as MultiClusterService });
    } catch {
      // Flotilla wrote it; a hand-made broken file dispatches nothing rather than stop every cluster's apply.
    }
  }
  return out;
}
