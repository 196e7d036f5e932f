import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import nodeFs from 'node:fs';

/** What the lock file holds: enough to tell a live holder from one that died without cleaning up. */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the holder started. */
  startedAt: string;
}

export interface RepoLock {
  readonly file: string;
  readonly holder: LockHolder;
  /** The stale holder this process replaced, if it had to. */
  readonly tookOverFrom: LockHolder | undefined;
  /** Still ours: the file exists and names this process. */
  held(): boolean;
  release(): void;
}

export class LockHeldError extends Error {
  readonly code = 'LOCK_HELD';
  constructor(
    readonly file: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(
      holder
        ? `another reconciler holds ${file}: pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}; fix: stop that one (one reconciler per repo), or delete the file if that process is gone`
        : `${file} exists but cannot be read; fix: delete it if no reconciler runs on this repo`,
    );
  }
}

export const LOCK_FILE = 'flotilla-reconciler.lock';

/**
 * One reconciler per repo: a lock file in the git dir, created whole or not at all (createWhole). A lock whose pid is dead on this
 * host is stale (the holder was killed) and is taken over; a live one, or one from another host (whose pid
 * cannot be checked from here), is refused with LockHeldError.
 */
export function acquireRepoLock(
  gitdir: string,
  opts: { pid?: number; now?: Date; isAlive?: (pid: number) => boolean } = {},
): RepoLock {
  const file = path.join(gitdir, LOCK_FILE);
  const holder: LockHolder = {
    pid: opts.pid ?? process.pid,
    host: hostname(),
    startedAt: (opts.now ?? new Date()).toISOString(),
  };
  const text = `${JSON.stringify(holder)}\n`;
  const isAlive = opts.isAlive ?? pidAlive;
  let tookOverFrom: LockHolder | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      createWhole(file, text, holder.pid);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new LockHeldError(file, readHolder(file));
        throw err;
      }
    }
    const current = readHolder(file);
    if (!current || current.host !== holder.host || isAlive(current.pid)) throw new LockHeldError(file, current);
    // Stale. Move it aside under a name of our own: of two processes taking over at once only one rename
    // succeeds, and if what moved is not the stale lock we read, it goes back untouched.
    const aside = `${file}.stale-${holder.pid}`;
    try {
      nodeFs.renameSync(file, aside);
    } catch {
      throw new LockHeldError(file, readHolder(file));
    }
    const moved = readHolder(aside);
    if (moved?.pid !== current.pid || moved.startedAt !== current.startedAt) {
      nodeFs.renameSync(aside, file);
      throw new LockHeldError(file, moved);
    }
    nodeFs.rmSync(aside, { force: true });
    tookOverFrom = current;
  }
  const held = () => {
    const now = readHolder(file);
    return now?.pid === holder.pid && now.startedAt === holder.startedAt;
  };
  return {
    file,
    holder,
    tookOverFrom,
    held,
    release() {
      if (held()) nodeFs.rmSync(file, { force: true });
    },
  };
}

/**
 * Creates `file` holding `text`, failing with EEXIST when it exists. Written beside it and linked into place, so the
 * lock appears with its holder in it: created empty and then written (O_EXCL alone), a second reconciler starting at
 * the same moment read it empty and could not name the holder.
 */
function createWhole(file: string, text: string, pid: number): void {
  const staged = `${file}.new-${pid}-${randomBytes(4).toString('hex')}`;
  nodeFs.writeFileSync(staged, text, { flag: 'wx' });
  try {
    nodeFs.linkSync(staged, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A file system without hard links: O_EXCL alone, with its short empty window.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP')
      nodeFs.writeFileSync(file, text, { flag: 'wx' });
    else throw err;
  } finally {
    nodeFs.rmSync(staged, { force: true });
  }
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(nodeFs.readFileSync(file, 'utf8')) as Partial<LockHolder>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.startedAt === 'string')
      return parsed as LockHolder;
  } catch {
    // unreadable: treated as held by someone unknown
  }
  return undefined;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, it is just not ours to signal.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
