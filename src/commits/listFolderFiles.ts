import { listTreeFiles } from './listTreeFiles.ts';
import { readTree } from './readTree.ts';
import { isTreeMode, type GitRepo, type TreeFile } from './types.ts';

/** The files under `folder` of a commit's root tree, keyed by their full path; empty when the folder is absent. */
export async function listFolderFiles(repo: GitRepo, rootTree: string, folder: string): Promise<Map<string, TreeFile>> {
  let tree = rootTree;
  for (const name of folder.split('/').filter(Boolean)) {
    const entry = (await readTree(repo, tree)).find((e) => e.name === name && isTreeMode(e.mode));
    if (!entry) return new Map();
    tree = entry.oid;
  }
  return new Map([...(await listTreeFiles(repo, tree))].map(([p, f]) => [folder + p, f]));
}
