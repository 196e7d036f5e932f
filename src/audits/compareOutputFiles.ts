import { createHash } from 'node:crypto';
import { listTreeFiles } from '../commits/listTreeFiles.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import { readTree } from '../commits/readTree.ts';
import { isTreeMode, type GitRepo, type TreeFile } from '../commits/types.ts';
import { maskRenderStamps } from './maskRenderStamps.ts';

export interface OutputDifference {
  /** In both trees, with different bytes (stamps aside). */
  differs: string[];
  /** Rendered from the source but absent from the output tree. */
  missing: string[];
  /** In the output tree but not rendered from the source: put there by hand, or left behind. */
  extra: string[];
}

/**
 * Every path of both trees compared byte for byte after maskRenderStamps; `skip` names paths that cannot
 * be checked (held objects keep their last good output, which the current source no longer describes).
 */
export function compareOutputFiles(
  expected: ReadonlyMap<string, string>,
  actual: ReadonlyMap<string, Uint8Array>,
  skip: ReadonlySet<string> = new Set(),
): OutputDifference {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const out: OutputDifference = { differs: [], missing: [], extra: [] };
  for (const path of [...new Set([...expected.keys(), ...actual.keys()])].sort()) {
    if (skip.has(path)) continue;
    const want = expected.get(path);
    const have = actual.get(path);
    if (have === undefined) out.missing.push(path);
    else if (want === undefined) out.extra.push(path);
    else {
      let text: string | undefined;
      try {
        text = decoder.decode(have);
      } catch {
        text = undefined; // not UTF-8: no render writes that
      }
      if (text === undefined || maskRenderStamps(text) !== maskRenderStamps(want)) out.differs.push(path);
    }
  }
  return out;
}

/** A file's text with its render stamps blanked, as a digest: what a replay keeps of each file it renders. */
export function stampFreeDigest(text: string): string {
  return createHash('sha1').update(maskRenderStamps(text)).digest('base64');
}

/** How many blobs one step of compareWithTree holds at once. */
const BLOBS_PER_STEP = 4096;

/**
 * compareOutputFiles against a tree read one folder of a cluster at a time, each file decoded, masked and digested as
 * it is read: a replay of the largest fleets keeps a digest per file (`expected`, stampFreeDigest) and never the
 * three million texts of either side. `ignore` names paths of the tree not compared at all; `present` is told each
 * skipped path the tree holds.
 */
export async function compareWithTree(
  repo: GitRepo,
  tree: string,
  expected: ReadonlyMap<string, string>,
  skip: ReadonlySet<string>,
  ignore: (path: string) => boolean,
): Promise<OutputDifference & { presentSkipped: string[] }> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const out: OutputDifference & { presentSkipped: string[] } = {
    differs: [],
    missing: [],
    extra: [],
    presentSkipped: [],
  };
  const seen = new Set<string>();
  const compare = async (files: [string, string][]) => {
    const blobs = await readBlobs(
      repo,
      files.filter(([path]) => expected.has(path)).map(([, oid]) => oid),
    );
    for (const [path, oid] of files) {
      const want = expected.get(path);
      if (want === undefined) {
        out.extra.push(path);
        continue;
      }
      seen.add(path);
      let text: string | undefined;
      try {
        text = decoder.decode(blobs.get(oid)!);
      } catch {
        text = undefined; // not UTF-8: no render writes that
      }
      if (text === undefined || stampFreeDigest(text) !== want) out.differs.push(path);
    }
  };
  for await (const folder of foldersOf(repo, tree)) {
    const files: [string, string][] = [];
    for (const [path, f] of folder) {
      if (ignore(path)) continue;
      if (skip.has(path)) {
        out.presentSkipped.push(path);
        continue;
      }
      files.push([path, f.oid]);
      if (files.length >= BLOBS_PER_STEP) await compare(files.splice(0));
    }
    await compare(files);
  }
  for (const path of expected.keys()) if (!seen.has(path) && !skip.has(path)) out.missing.push(path);
  for (const list of [out.differs, out.missing, out.extra, out.presentSkipped]) list.sort();
  return out;
}

/** The top folder of what each cluster gets (outputPaths.ts). */
const CLUSTERS_DIR = 'clusters';

/** The files of a tree, a cluster's folder (or another top-level folder) at a time, keyed by their full path. */
async function* foldersOf(repo: GitRepo, tree: string): AsyncGenerator<Map<string, TreeFile>> {
  const top = new Map<string, TreeFile>();
  for (const entry of await readTree(repo, tree)) {
    if (!isTreeMode(entry.mode)) {
      top.set(entry.name, { oid: entry.oid, mode: entry.mode });
      continue;
    }
    if (entry.name !== CLUSTERS_DIR) {
      yield prefixed(`${entry.name}/`, await listTreeFiles(repo, entry.oid));
      continue;
    }
    for (const cluster of await readTree(repo, entry.oid)) {
      const at = `${CLUSTERS_DIR}/${cluster.name}`;
      if (isTreeMode(cluster.mode)) yield prefixed(`${at}/`, await listTreeFiles(repo, cluster.oid));
      else top.set(at, { oid: cluster.oid, mode: cluster.mode });
    }
  }
  yield top;
}

function prefixed(prefix: string, files: ReadonlyMap<string, TreeFile>): Map<string, TreeFile> {
  return new Map([...files].map(([path, f]) => [prefix + path, f]));
}
