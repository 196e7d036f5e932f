import git from 'isomorphic-git';
import path from 'node:path';
import { buildCommit } from '../commits/buildCommit.ts';
import { PackWriter } from '../commits/PackWriter.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readRef } from '../commits/readRef.ts';
import type { CommitInfo, GitIdentity, GitRepo } from '../commits/types.ts';
import { updateRef } from '../commits/updateRef.ts';
import { writeTreeEdits } from '../commits/writeTreeEdits.ts';
import { RegistrationError } from './RegistrationError.ts';

export interface RegistrationTarget {
  repo: GitRepo;
  /** Branch holding the config, e.g. main. */
  sourceBranch: string;
  /** Commit to this branch instead (created off the source branch when new), to open a pull request from. */
  branch?: string;
}

export interface FileChange {
  path: string;
  /** New content; null deletes the file. */
  text: string | null;
}

export interface RegistrationCommit {
  commit: string;
  /** Full ref name that moved. */
  ref: string;
  parent: string;
  /** The ref did not exist before (a new --branch). */
  created: boolean;
  /** The checked-out work tree and index were brought along (non-bare repo, branch checked out). */
  worktreeUpdated: boolean;
}

/** The commit an operation edits: the --branch head when it exists, else the source branch head. */
export async function readBase(t: RegistrationTarget): Promise<{ ref: string; base: CommitInfo; created: boolean }> {
  const sourceRef = `refs/heads/${t.sourceBranch}`;
  const source = await readRef(t.repo, sourceRef);
  if (!source)
    throw new RegistrationError(
      'NO_SOURCE_BRANCH',
      `source branch ${t.sourceBranch} does not exist in ${t.repo.dir}; fix: pass --source-branch, or commit the config first`,
    );
  const ref = t.branch ? `refs/heads/${t.branch}` : sourceRef;
  const existing = t.branch ? await readRef(t.repo, ref) : source;
  return { ref, base: await readCommitInfo(t.repo, existing ?? source), created: existing === null };
}

/**
 * Commits one file change on top of `base` and moves `ref` by compare-and-swap. In a non-bare repo whose
 * checked-out branch is `ref`, the file must be clean in the work tree (else nothing is written: a user's
 * edit is never clobbered), and afterwards the work tree file and the index entry follow the commit, so
 * `git status` stays clean.
 */
export async function commitRegistration(
  t: RegistrationTarget,
  base: { ref: string; base: CommitInfo; created: boolean },
  change: FileChange,
  message: string,
  author: GitIdentity,
): Promise<RegistrationCommit> {
  const { repo } = t;
  const checkedOut =
    !repo.bare &&
    (await git.currentBranch({ fs: repo.fs, gitdir: repo.gitdir, fullname: true }).catch(() => undefined)) === base.ref;
  if (checkedOut) await assertClean(repo, change.path);

  const pack = new PackWriter(repo);
  const content = change.text === null ? null : new TextEncoder().encode(change.text);
  const tree = await writeTreeEdits(repo, pack, base.base.tree, new Map([[change.path, content]]));
  const commit = buildCommit(pack, { tree, parents: [base.base.oid], message, author, committer: author });
  await pack.flush();
  await updateRef(repo, base.ref, commit, base.created ? null : base.base.oid);

  if (checkedOut) {
    const file = path.join(repo.dir, change.path);
    if (content === null) {
      await repo.fs.promises.rm(file, { force: true });
      await git.remove({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, filepath: change.path, cache: repo.cache });
    } else {
      await repo.fs.promises.mkdir(path.dirname(file), { recursive: true });
      await repo.fs.promises.writeFile(file, content);
      await git.add({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, filepath: change.path, cache: repo.cache });
    }
  }
  return { commit, ref: base.ref, parent: base.base.oid, created: base.created, worktreeUpdated: checkedOut };
}

async function assertClean(repo: GitRepo, filepath: string): Promise<void> {
  const status = await git.status({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, filepath, cache: repo.cache });
  if (status === 'unmodified' || status === 'absent') return;
  throw new RegistrationError(
    'WORKTREE_DIRTY',
    `${filepath} has uncommitted changes in ${repo.dir} (git status: ${status.replace('*', '')}); nothing was committed; fix: commit or stash them (git stash), or pass --branch to commit elsewhere`,
  );
}
