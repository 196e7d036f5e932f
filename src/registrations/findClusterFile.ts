import { parseYamlValues } from '../yaml/blockYaml.ts';
import { listTreeFiles } from '../commits/listTreeFiles.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import type { GitRepo } from '../commits/types.ts';
import type { TreeWalkLimit } from '../commits/treeWalkBudget.ts';
import { ignoreRulesOf } from '../documents/readIgnoreRules.ts';
import { IGNORE_FILE, isConfigFile } from '../documents/selectConfigFiles.ts';

export interface ClusterFile {
  path: string;
  text: string;
}

/**
 * The config file of `tree` that registers Cluster `name`, or null. Folders are a convention only, so the
 * search widens: clusters/<name>.yaml first, then the rest of clusters/, then every config file. The tree is listed
 * within `limit` (TreeTooLargeError past it).
 */
export async function findClusterFile(
  repo: GitRepo,
  tree: string,
  name: string,
  limit: TreeWalkLimit,
): Promise<ClusterFile | null> {
  const files = await listTreeFiles(repo, tree, limit);
  const ignoreOid = files.get(IGNORE_FILE)?.oid;
  const ignore = ignoreOid ? (await ignoreRulesOf(repo, ignoreOid)).rules : undefined;
  const config = [...files.keys()].filter((p) => isConfigFile(p, ignore));
  const conventional = [`clusters/${name}.yaml`, `clusters/${name}.yml`].filter((p) => config.includes(p));
  const rounds = [
    conventional,
    config.filter((p) => p.startsWith('clusters/') && !conventional.includes(p)),
    config.filter((p) => !p.startsWith('clusters/')),
  ];
  const decoder = new TextDecoder();
  for (const paths of rounds) {
    const blobs = await readBlobs(
      repo,
      paths.map((p) => files.get(p)!.oid),
    );
    for (const path of paths) {
      const text = decoder.decode(blobs.get(files.get(path)!.oid)!);
      if (!/\bkind:\s*["']?Cluster\b/.test(text)) continue;
      if (registers(text, name)) return { path, text };
    }
  }
  return null;
}

function registers(text: string, name: string): boolean {
  try {
    return parseYamlValues(text).some((d) => {
      const js = d as { kind?: unknown; metadata?: { name?: unknown } } | null;
      return js?.kind === 'Cluster' && js.metadata?.name === name;
    });
  } catch {
    return false; // an unparseable file registers nothing; validate reports it
  }
}
