import { execFileSync } from 'node:child_process';

const git = (dir: string, args: string[], input?: string) =>
  execFileSync('git', args, { cwd: dir, input, encoding: 'utf8' }).trim();

/**
 * A commit on `branch` (HEAD's tree plus `bomb/`) made with git plumbing: 3 trees of 1,000 entries, each naming the
 * one below, and one blob, about 100 KiB that spell a billion paths. Its sha; the work tree and index are untouched,
 * so the next `commit` of a ConfigRepo deletes the folder again.
 */
export function commitTreeBomb(dir: string, branch = 'main', message = 'a billion paths'): string {
  let oid = git(dir, ['hash-object', '-w', '--stdin'], 'x\n');
  let mode = '100644 blob';
  for (let level = 0; level < 3; level++) {
    oid = git(dir, ['mktree'], Array.from({ length: 1000 }, (_, i) => `${mode} ${oid}\tn${i}\n`).join(''));
    mode = '040000 tree';
  }
  const root = git(dir, ['mktree'], `${git(dir, ['ls-tree', branch])}\n040000 tree ${oid}\tbomb\n`);
  const commit = git(dir, ['commit-tree', root, '-p', branch, '-m', message]);
  git(dir, ['update-ref', `refs/heads/${branch}`, commit]);
  return commit;
}

/** A commit on `branch` with its head's tree, the bomb kept: its sha. */
export function commitSameTree(dir: string, branch = 'main', message = 'keeps it'): string {
  const commit = git(dir, ['commit-tree', `${branch}^{tree}`, '-p', branch, '-m', message]);
  git(dir, ['update-ref', `refs/heads/${branch}`, commit]);
  return commit;
}
