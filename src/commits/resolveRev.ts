import { readCommitInfo } from './readCommitInfo.ts';
import { readObject } from './readObject.ts';
import { readRef } from './readRef.ts';
import { RevNotFoundError } from './RevNotFoundError.ts';
import type { GitRepo } from './types.ts';

/**
 * Resolves a branch name, 'refs/…' name, HEAD, or a full or abbreviated (>= 4 hex) sha to the
 * sha of a commit. Annotated tags are peeled. Refs win over abbreviated shas, as in git.
 * Git's ancestry suffixes follow, chained as git allows: `~N` (N first parents back), `^N` (parent N), `~`/`^` = 1.
 */
export async function resolveRev(repo: GitRepo, rev: string): Promise<string> {
  const steps = /^(.+?)((?:[~^]\d*)+)$/.exec(rev);
  if (!steps) return resolveName(repo, rev);
  let oid = await resolveName(repo, steps[1]!);
  for (const [, op, digits] of steps[2]!.matchAll(/([~^])(\d*)/g)) {
    const n = digits === '' ? 1 : Number(digits);
    if (op === '^') {
      if (n === 0) continue;
      const parent = (await readCommitInfo(repo, oid)).parents[n - 1];
      if (!parent) throw new RevNotFoundError(rev, `${oid.slice(0, 12)} has no parent ${n}`);
      oid = parent;
    } else {
      for (let i = 0; i < n; i++) {
        const parent = (await readCommitInfo(repo, oid)).parents[0];
        if (!parent)
          throw new RevNotFoundError(rev, `the history before ${oid.slice(0, 12)} is only ${i} commit(s) long`);
        oid = parent;
      }
    }
  }
  return oid;
}

async function resolveName(repo: GitRepo, rev: string): Promise<string> {
  let oid: string | null = null;
  if (/^[0-9a-f]{40}$/.test(rev)) oid = rev;
  else {
    oid = await readRef(repo, rev);
    if (oid === null && /^[0-9a-fA-F]{4,39}$/.test(rev)) oid = await expandAbbreviated(repo, rev);
  }
  if (oid === null) throw new RevNotFoundError(rev, 'no ref or object has that name');
  return peelToCommit(repo, rev, oid);
}

async function expandAbbreviated(repo: GitRepo, rev: string): Promise<string | null> {
  // Imported here: a branch name or a full sha, what nearly every command resolves, needs none of the package.
  const { default: git } = await import('isomorphic-git');
  try {
    return await git.expandOid({ fs: repo.fs, gitdir: repo.gitdir, oid: rev.toLowerCase(), cache: repo.cache });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'NotFoundError') return null;
    if (code === 'AmbiguousError') throw new RevNotFoundError(rev, (err as Error).message, true);
    throw err;
  }
}

async function peelToCommit(repo: GitRepo, rev: string, start: string): Promise<string> {
  let oid = start;
  // A tag may point at a tag; git allows chains, bound it to stay safe from cycles in corrupt repos.
  for (let depth = 0; depth < 16; depth++) {
    let found;
    try {
      found = readObject(repo, oid);
    } catch (err) {
      if ((err as { code?: string }).code === 'NotFoundError') {
        throw new RevNotFoundError(rev, `object ${oid} is not in the repository`);
      }
      throw err;
    }
    if (found.type === 'commit') return oid;
    const target =
      found.type === 'tag' ? /^object ([0-9a-f]{40})$/m.exec(found.content.toString('utf8'))?.[1] : undefined;
    if (!target) throw new RevNotFoundError(rev, `${oid} is a ${found.type}, not a commit`);
    oid = target;
  }
  throw new RevNotFoundError(rev, 'tag chain deeper than 16');
}
