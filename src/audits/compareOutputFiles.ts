import { createHash } from 'node:crypto';
import { listFolderFiles } from '../commits/listFolderFiles.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import { readTree } from '../commits/readTree.ts';
import { isSafeEntryName } from '../commits/safeEntryName.ts';
import { isBlobMode, isTreeMode, type GitRepo, type TreeEntry, type TreeFile } from '../commits/types.ts';
import { maskRenderStamps } from './maskRenderStamps.ts';

export interface OutputDifference {
  /** In both trees, with different bytes (stamps aside). */
  differs: string[];
  /** Rendered from the source but absent from the output tree. */
  missing: string[];
  /** In the output tree but not rendered from the source: put there by hand, or left behind. */
  extra: string[];
}

/** A file's text with its render stamps blanked, as a digest: what a replay keeps of each file it renders. */
export function stampFreeDigest(text: string): string {
  return createHash('sha1').update(maskRenderStamps(text)).digest('base64');
}

/**
 * stampFreeDigest of every file of a tree as it stands (a file that is not UTF-8 read with replacement characters):
 * what the output tree is compared with when the render cannot be replayed, its tree is the record.
 */
export async function treeDigests(repo: GitRepo, tree: string): Promise<Map<string, string>> {
  const decoder = new TextDecoder();
  const out = new Map<string, string>();
  for await (const batch of batchesOf(repo, tree, () => true))
    for (const { path, bytes } of batch) out.set(path, stampFreeDigest(decoder.decode(bytes)));
  return out;
}

/**
 * Every path of `expected` (stampFreeDigest by path) and of the tree compared, the tree read a batch of one cluster's
 * folder at a time, each file decoded, masked and digested as it is read: a replay of the largest fleets keeps a
 * digest per file and never the three million texts of either side. `skip` names paths that cannot be checked (held
 * objects keep their last good output, which the current source no longer describes): `presentSkipped` lists those
 * the tree holds. `ignore` names paths of the tree not compared at all.
 */
export async function compareWithTree(
  repo: GitRepo,
  tree: string,
  expected: ReadonlyMap<string, string>,
  skip: ReadonlySet<string> = new Set(),
  ignore: (path: string) => boolean = () => false,
): Promise<OutputDifference & { presentSkipped: string[] }> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const out: OutputDifference & { presentSkipped: string[] } = {
    differs: [],
    missing: [],
    extra: [],
    presentSkipped: [],
  };
  const seen = new Set<string>();
  const compared = (path: string) => !ignore(path) && !skip.has(path) && expected.has(path);
  for await (const batch of batchesOf(repo, tree, compared)) {
    for (const { path, bytes } of batch) {
      if (ignore(path)) continue;
      if (skip.has(path)) out.presentSkipped.push(path);
      else if (!expected.has(path)) out.extra.push(path);
      else {
        seen.add(path);
        let text: string | undefined;
        try {
          text = decoder.decode(bytes);
        } catch {
          text = undefined; // not UTF-8: no render writes that
        }
        if (text === undefined || stampFreeDigest(text) !== expected.get(path)) out.differs.push(path);
      }
    }
  }
  for (const path of expected.keys()) if (!seen.has(path) && !skip.has(path)) out.missing.push(path);
  for (const list of [out.differs, out.missing, out.extra, out.presentSkipped]) list.sort();
  return out;
}

/** How many blobs one batch of batchesOf holds at once. */
const BLOBS_PER_BATCH = 4096;

/** The top folder of what each cluster gets (outputPaths.ts). */
const CLUSTERS_DIR = 'clusters';

/** Each file of a tree, with its bytes when `read` wants them, a batch of one top folder or one cluster's at a time. */
async function* batchesOf(
  repo: GitRepo,
  tree: string,
  read: (path: string) => boolean,
): AsyncGenerator<{ path: string; bytes: Uint8Array | undefined }[]> {
  for await (const folder of foldersOf(repo, tree)) {
    const files = [...folder];
    for (let i = 0; i < files.length; i += BLOBS_PER_BATCH) {
      const batch = files.slice(i, i + BLOBS_PER_BATCH);
      const blobs = await readBlobs(
        repo,
        batch.filter(([path]) => read(path)).map(([, f]) => f.oid),
      );
      yield batch.map(([path, f]) => ({ path, bytes: read(path) ? blobs.get(f.oid) : undefined }));
    }
  }
}

/**
 * The files of a tree keyed by their full path, as listTreeFiles lists them (no gitlink, no name git would not check
 * out, none that is not UTF-8), a top folder or one cluster's folder at a time, then the files at the top.
 */
async function* foldersOf(repo: GitRepo, tree: string): AsyncGenerator<Map<string, TreeFile>> {
  const top = new Map<string, TreeFile>();
  for (const entry of (await readTree(repo, tree)).filter(listed)) {
    if (isBlobMode(entry.mode)) top.set(entry.name, { oid: entry.oid, mode: entry.mode });
    else if (entry.name !== CLUSTERS_DIR) yield listFolderFiles(repo, tree, `${entry.name}/`);
    else
      for (const cluster of (await readTree(repo, entry.oid)).filter(listed)) {
        const path = `${CLUSTERS_DIR}/${cluster.name}`;
        if (isBlobMode(cluster.mode)) top.set(path, { oid: cluster.oid, mode: cluster.mode });
        else yield listFolderFiles(repo, tree, `${path}/`);
      }
  }
  yield top;
}

function listed(e: TreeEntry): boolean {
  return isSafeEntryName(e.name) && e.notUtf8 === undefined && (isBlobMode(e.mode) || isTreeMode(e.mode));
}
