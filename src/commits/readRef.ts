import path from 'node:path';
import type { GitRepo } from './types.ts';

/**
 * The oid a ref points at, following symbolic refs such as HEAD; null when it does not exist
 * (a branch not created yet, or HEAD of an empty repo). Accepts full names ('refs/heads/main')
 * and the short forms git accepts ('main', 'v1', 'origin/main'), tried in git's order. A loose
 * ref file wins over packed-refs, as in git.
 */
export async function readRef(repo: GitRepo, ref: string): Promise<string | null> {
  let packed: Map<string, string> | undefined;
  let name = ref;
  // Symbolic refs may chain (HEAD -> refs/heads/main); bound it against cycles in a corrupt repo.
  for (let depth = 0; depth < 5; depth++) {
    if (/^[0-9a-f]{40}$/.test(name)) return name;
    let value: string | null = null;
    for (const candidate of candidates(name)) {
      value = readLoose(repo, candidate);
      if (value === null) value = (packed ??= readPackedRefs(repo)).get(candidate) ?? null;
      if (value !== null) break;
    }
    if (value === null) return null;
    if (!value.startsWith('ref:')) return value;
    name = value.slice(4).trim();
  }
  return null;
}

/** git rev-parse's rules for a short name (git help revisions). */
function candidates(name: string): string[] {
  return [
    name,
    `refs/${name}`,
    `refs/tags/${name}`,
    `refs/heads/${name}`,
    `refs/remotes/${name}`,
    `refs/remotes/${name}/HEAD`,
  ];
}

/**
 * Synchronous, as the object reader's calls: a ref is one small file, and the thread pool's four trips per read (open,
 * stat, read, close) cost more than the read, several times per sync.
 */
function readLoose(repo: GitRepo, ref: string): string | null {
  if (ref.split('/').some((part) => part === '' || part === '.' || part === '..')) return null;
  // As git: a ref lives under refs/ or is a top-level name in capitals (HEAD, FETCH_HEAD), and holds an object id or
  // `ref: <name>`. Anything else in the git directory (config, logs, hooks) is no ref, and its text must never come
  // back as a revision: a rev from a dashboard query would echo a remote URL's token in its error.
  if (!ref.startsWith('refs/') && !/^[A-Z_]+$/.test(ref)) return null;
  try {
    const value = repo.fs.readFileSync(path.join(repo.gitdir, ref), 'utf8').trim();
    return /^[0-9a-f]{40}$/.test(value) || value.startsWith('ref:') ? value : null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
    throw err;
  }
}

function readPackedRefs(repo: GitRepo): Map<string, string> {
  const refs = new Map<string, string>();
  let text: string;
  try {
    text = repo.fs.readFileSync(path.join(repo.gitdir, 'packed-refs'), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return refs;
    throw err;
  }
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    if (space === 40) refs.set(line.slice(41).trimEnd(), line.slice(0, 40));
  }
  return refs;
}

/**
 * The ref a command that only reads `ref` (a `refs/heads/` branch) reads: the branch, else the remote-tracking copy a
 * clone has fetched (`refs/remotes/origin/<branch>`), so get, describe, explain, history, verify, plan and the
 * dashboard work in a clone of the repository the reconciler renders to. Writers keep `ref` itself.
 */
export async function readableBranchRef(repo: GitRepo, ref: string): Promise<string> {
  if (!ref.startsWith('refs/heads/') || (await readRef(repo, ref)) !== null) return ref;
  const tracking = `refs/remotes/origin/${ref.slice('refs/heads/'.length)}`;
  return (await readRef(repo, tracking)) === null ? ref : tracking;
}

/** readRef of readableBranchRef. */
export async function readBranchHead(repo: GitRepo, ref: string): Promise<string | null> {
  return readRef(repo, await readableBranchRef(repo, ref));
}
