import path from 'node:path';
import type { GitRepo } from '../../commits/types.ts';

// The lists derived from the output index's shards and kept beside the object store (which namespaces, which kinds
// each shard holds: indexNamespaceList.ts, indexKindList.ts): read whole, written whole. Caches only: one that cannot
// be read is none, and one that cannot be written (a read-only repository) is not.

/** The text of `<gitdir>/<name>`; undefined when there is none or it cannot be read. */
export function readShardList(repo: GitRepo, name: string): string | undefined {
  try {
    return repo.fs.readFileSync(path.join(repo.gitdir, name), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Writes `<gitdir>/<name>` to a file of this process and renames it over the list, so a crash or another writer
 * never leaves half of one; a failure is ignored.
 */
export async function saveShardList(repo: GitRepo, name: string, text: string): Promise<void> {
  const target = path.join(repo.gitdir, name);
  const tmp = `${target}.${process.pid}.${++saves}.tmp`;
  try {
    await repo.fs.promises.writeFile(tmp, text);
    await repo.fs.promises.rename(tmp, target);
  } catch {
    await repo.fs.promises.rm(tmp, { force: true }).catch(() => undefined);
  }
}

/** Distinct temp files for saves of one process that overlap (two repositories, two syncs). */
let saves = 0;
