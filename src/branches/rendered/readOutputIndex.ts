import { readBlobs } from '../../commits/readBlobs.ts';
import type { PackWriter } from '../../commits/PackWriter.ts';
import { readTree } from '../../commits/readTree.ts';
import { isTreeMode, type GitRepo } from '../../commits/types.ts';
import { shardNamespacesOf } from './indexNamespaceList.ts';
import { INDEX_PATH, ShardedIndex, shardIdOf, type OutputIndex } from './outputIndex.ts';

const [INDEX_DIR, INDEX_FILE] = INDEX_PATH.split('/') as [string, string];
const SHARD_FOLDER = 'index';

/**
 * The output index of an output tree, opened: the root is read now, each shard when a step asks for it (works/outputIndex.ts
 * has the format). null when the tree has no index (a first render, a branch Flotilla did not write).
 */
export async function openOutputIndex(repo: GitRepo, tree: string): Promise<ShardedIndex | null> {
  const found = await readIndexOids(repo, tree);
  if (!found) return null;
  const { rootOid, shardOids } = found;
  const decoder = new TextDecoder();
  const rootText = decoder.decode((await readBlobs(repo, [rootOid])).get(rootOid)!);
  return ShardedIndex.open(
    rootText,
    new Set(shardOids.keys()),
    async (ids) => {
      const blobs = await readBlobs(
        repo,
        ids.map((id) => shardOids.get(id)!),
      );
      return new Map(ids.map((id) => [id, decoder.decode(blobs.get(shardOids.get(id)!)!)]));
    },
    shardNamespacesOf(repo, shardOids),
  );
}

/**
 * The blob oids of an output tree's index: its root file, and its shards by id; null when the tree has no index.
 * `pending`: a tree written to that pack and not flushed yet.
 */
export async function readIndexOids(
  repo: GitRepo,
  tree: string,
  pending?: PackWriter,
): Promise<{ rootOid: string; shardOids: Map<string, string> } | null> {
  const dir = (await readTree(repo, tree, pending)).find((e) => e.name === INDEX_DIR && isTreeMode(e.mode));
  if (!dir) return null;
  const entries = await readTree(repo, dir.oid, pending);
  const rootOid = entries.find((e) => e.name === INDEX_FILE && !isTreeMode(e.mode))?.oid;
  if (!rootOid) return null;
  const folder = entries.find((e) => e.name === SHARD_FOLDER && isTreeMode(e.mode));
  const shardOids = new Map<string, string>();
  for (const e of folder ? await readTree(repo, folder.oid, pending) : []) {
    const id = shardIdOf(e.name);
    if (id && !isTreeMode(e.mode)) shardOids.set(id, e.oid);
  }
  return { rootOid, shardOids };
}

/** The whole output index of an output tree, every shard read; null when the tree has none. */
export async function readOutputIndex(repo: GitRepo, tree: string): Promise<OutputIndex | null> {
  const index = await openOutputIndex(repo, tree);
  if (!index) return null;
  await index.loadAll();
  return index.toWhole();
}
