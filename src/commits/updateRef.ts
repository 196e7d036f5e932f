import path from 'node:path';
import { RefConflictError } from './RefConflictError.ts';
import type { GitRepo } from './types.ts';

/**
 * Compare-and-swap of a ref, with git's own locking protocol so native git and other Flotilla
 * processes interlock with us: create `<ref>.lock` with O_EXCL, check the current value (loose
 * file, else packed-refs) equals `expectedOld` (null: the ref must not exist), write the lock,
 * rename it over the ref. Throws RefConflictError when the value differs or the lock is held.
 * Writes no reflog, and does not fsync.
 */
export async function updateRef(repo: GitRepo, ref: string, newOid: string, expectedOld: string | null): Promise<void> {
  assertRefName(ref);
  for (const oid of [newOid, expectedOld]) {
    if (oid !== null && !/^[0-9a-f]{40}$/.test(oid)) throw new Error(`updateRef: not a full lowercase sha: ${oid}`);
  }
  const fs = repo.fs.promises;
  const refPath = path.join(repo.gitdir, ref);
  const lockPath = `${refPath}.lock`;
  await fs.mkdir(path.dirname(refPath), { recursive: true });

  let lock;
  try {
    lock = await fs.open(lockPath, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Racy read, for the message only: the holder may be about to change it.
    const actual = await readRefValue(repo, ref).catch(() => null);
    throw new RefConflictError(ref, expectedOld, actual, true);
  }

  let renamed = false;
  try {
    const actual = await readRefValue(repo, ref);
    if (actual !== expectedOld) throw new RefConflictError(ref, expectedOld, actual);
    await lock.writeFile(`${newOid}\n`);
    await lock.close();
    await fs.rename(lockPath, refPath);
    renamed = true;
  } finally {
    if (!renamed) {
      await lock.close().catch(() => undefined);
      await fs.rm(lockPath, { force: true });
    }
  }
}

/** The value stored for exactly this ref: the loose file wins over packed-refs, as in git. */
async function readRefValue(repo: GitRepo, ref: string): Promise<string | null> {
  const fs = repo.fs.promises;
  try {
    const text = (await fs.readFile(path.join(repo.gitdir, ref), 'utf8')).trim();
    if (text.startsWith('ref:')) throw new Error(`updateRef: ${ref} is a symbolic ref (${text}); update its target instead`);
    return text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  let packed: string;
  try {
    packed = await fs.readFile(path.join(repo.gitdir, 'packed-refs'), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  for (const line of packed.split('\n')) {
    if (line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    if (space > 0 && line.slice(space + 1).trimEnd() === ref) return line.slice(0, space);
  }
  return null;
}

/** The subset of `git check-ref-format` rules that keep a name safe as a path under refs/. */
function assertRefName(ref: string): void {
  const ok =
    ref.startsWith('refs/') &&
    !ref.endsWith('/') &&
    !ref.endsWith('.') &&
    !ref.includes('..') &&
    !ref.includes('@{') &&
    !/[\x00-\x20\x7f~^:?*[\\]/.test(ref) &&
    ref.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
  if (!ok) throw new Error(`updateRef: invalid ref name ${JSON.stringify(ref)} (must be a full name under refs/)`);
}
