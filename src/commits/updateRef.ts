import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import { RefConflictError } from './RefConflictError.ts';
import type { GitRepo } from './types.ts';

/**
 * Compare-and-swap of a ref, with git's own locking protocol so native git and other Flotilla
 * processes interlock with us: create `<ref>.lock` with O_EXCL, check the current value (loose
 * file, else packed-refs) equals `expectedOld` (null: the ref must not exist), write the lock,
 * rename it over the ref. Throws RefConflictError when the value differs or the lock is held.
 * A lock untouched for STALE_REF_LOCK_MS was left by a writer that died holding it and is taken over; so is, at once,
 * one whose Flotilla owner line names a process of this host that no longer runs.
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
  for (let attempt = 0; ; attempt++) {
    try {
      lock = await fs.open(lockPath, 'wx');
      await lock.write(ownerLine()).catch(() => undefined); // without it, the lock only goes stale after 10 s
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (attempt === 0 && (await removeStaleLock(repo, lockPath))) continue;
      // Racy read, for the message only: the holder may be about to change it.
      const actual = await readRefValue(repo, ref).catch(() => null);
      throw new RefConflictError(ref, expectedOld, actual, true);
    }
  }

  let renamed = false;
  try {
    const actual = await readRefValue(repo, ref);
    if (actual !== expectedOld) throw new RefConflictError(ref, expectedOld, actual);
    await lock.truncate(0);
    await lock.write(`${newOid}\n`, 0);
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

/**
 * Flotilla holds a ref lock for the milliseconds between creating it and renaming it over the ref (git does the
 * same); one untouched for this long belongs to a writer killed in between, and git never removes it by itself:
 * without a take-over, every later update of that branch would fail.
 */
export const STALE_REF_LOCK_MS = 10_000;

/**
 * What Flotilla writes into a lock it holds until the new value replaces it: who holds it. The owner sits in the lock
 * itself, not in a file beside it, so it can never describe another holder's lock (native git's, a later writer's),
 * and a file beside a ref would be read by git as a broken ref. Native git's locks carry no such line.
 */
const OWNER_PREFIX = 'flotilla-lock-owner';

function ownerLine(): string {
  return `${OWNER_PREFIX} pid=${process.pid} host=${hostname()}\n`;
}

/** A lock's Flotilla owner, or null: git's lock, an older Flotilla's, or one written a moment ago and not yet named. */
export function parseLockOwner(text: string): { pid: number; host: string } | null {
  const m = /^flotilla-lock-owner pid=(\d+) host=(\S+)\n/.exec(text);
  return m ? { pid: Number(m[1]), host: m[2]! } : null;
}

/**
 * A lock nobody will remove: untouched for STALE_REF_LOCK_MS, or owned by a process of this host that has ended
 * (a pid of another host, or of no known owner, cannot be checked from here: those wait the 10 s). A reused pid
 * reads as alive, which only means waiting.
 */
async function isAbandoned(repo: GitRepo, file: string): Promise<boolean> {
  const fs = repo.fs.promises;
  const stat = await fs.stat(file).catch(() => null);
  if (!stat) return false;
  if (Date.now() - stat.mtimeMs >= STALE_REF_LOCK_MS) return true;
  const owner = parseLockOwner(await fs.readFile(file, 'utf8').catch(() => ''));
  return owner !== null && owner.host === hostname() && !isRunning(owner.pid);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, someone else's
  }
}

/**
 * Moves an abandoned lock aside under a name of our own, so that of two writers taking over at once only one
 * removes it; if what moved turns out live (someone took the lock in between), it is linked back. True when removed.
 */
async function removeStaleLock(repo: GitRepo, lockPath: string): Promise<boolean> {
  const fs = repo.fs.promises;
  if (!(await isAbandoned(repo, lockPath))) return false;
  const aside = `${lockPath}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await fs.rename(lockPath, aside);
  } catch {
    return false;
  }
  const abandoned = await isAbandoned(repo, aside);
  if (!abandoned) await fs.link(aside, lockPath).catch(() => undefined);
  await fs.rm(aside, { force: true });
  return abandoned;
}

/** The value stored for exactly this ref: the loose file wins over packed-refs, as in git. */
async function readRefValue(repo: GitRepo, ref: string): Promise<string | null> {
  const fs = repo.fs.promises;
  try {
    const text = (await fs.readFile(path.join(repo.gitdir, ref), 'utf8')).trim();
    if (text.startsWith('ref:'))
      throw new Error(`updateRef: ${ref} is a symbolic ref (${text}); update its target instead`);
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
    // biome-ignore lint/suspicious/noControlCharactersInRegex: git check-ref-format refuses control characters in ref names
    !/[\x00-\x20\x7f~^:?*[\\]/.test(ref) &&
    ref.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
  if (!ok) throw new Error(`updateRef: invalid ref name ${JSON.stringify(ref)} (must be a full name under refs/)`);
}
