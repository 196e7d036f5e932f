import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

const git = (dir: string, args: string[], input?: string) =>
  execFileSync('git', args, { cwd: dir, input, encoding: 'utf8' }).trim();

/**
 * A commit on `branch` (HEAD's tree plus `folder`, `bomb` unless given, possibly nested as `clusters/member1/bomb`)
 * made with git plumbing: 3 trees of 1,000 entries, each naming the one below, and one blob, about 100 KiB that spell
 * a billion paths. Its sha; the work tree and index are untouched, so the next `commit` of a ConfigRepo deletes the
 * folder again.
 */
export function commitTreeBomb(dir: string, branch = 'main', message = 'a billion paths', folder = 'bomb'): string {
  let oid = git(dir, ['hash-object', '-w', '--stdin'], 'x\n');
  let mode = '100644 blob';
  for (let level = 0; level < 3; level++) {
    oid = git(dir, ['mktree'], Array.from({ length: 1000 }, (_, i) => `${mode} ${oid}\tn${i}\n`).join(''));
    mode = '040000 tree';
  }
  const root = withFolder(dir, git(dir, ['rev-parse', `${branch}^{tree}`]), folder.split('/'), oid);
  const commit = git(dir, ['commit-tree', root, '-p', branch, '-m', message]);
  git(dir, ['update-ref', `refs/heads/${branch}`, commit]);
  return commit;
}

/** `tree` (null: none) with the folder at `names` set to `oid`, the trees along the way written: the new tree's oid. */
function withFolder(dir: string, tree: string | null, names: readonly string[], oid: string): string {
  const [name, ...rest] = names;
  const lines = tree ? git(dir, ['ls-tree', tree]).split('\n').filter(Boolean) : [];
  const others = lines.filter((l) => l.slice(l.indexOf('\t') + 1) !== name);
  const existing = lines.find((l) => l.slice(l.indexOf('\t') + 1) === name && l.includes(' tree '));
  const below = rest.length ? withFolder(dir, existing ? existing.split(/\s/)[2]! : null, rest, oid) : oid;
  return git(dir, ['mktree'], [...others, `040000 tree ${below}\t${name}`].map((l) => `${l}\n`).join(''));
}

/** A commit on `branch` with its head's tree, the bomb kept: its sha. */
export function commitSameTree(dir: string, branch = 'main', message = 'keeps it'): string {
  const commit = git(dir, ['commit-tree', `${branch}^{tree}`, '-p', branch, '-m', message]);
  git(dir, ['update-ref', `refs/heads/${branch}`, commit]);
  return commit;
}

/**
 * A commit on `branch` (HEAD's tree plus `deep/`, `depth` folders named `d` each in the one before, a file at the
 * bottom), its trees written as loose objects here (a git process each would take minutes): its sha.
 */
export function commitDeepFolder(dir: string, depth: number, branch = 'main', message = 'a deep folder'): string {
  const objects = path.join(dir, git(dir, ['rev-parse', '--git-dir']), 'objects');
  let oid = git(dir, ['hash-object', '-w', '--stdin'], 'x\n');
  let mode = '100644';
  for (let level = 0; level < depth; level++) {
    const body = Buffer.concat([Buffer.from(`${mode} d\0`), Buffer.from(oid, 'hex')]);
    const object = Buffer.concat([Buffer.from(`tree ${body.length}\0`), body]);
    oid = createHash('sha1').update(object).digest('hex');
    fs.mkdirSync(path.join(objects, oid.slice(0, 2)), { recursive: true });
    fs.writeFileSync(path.join(objects, oid.slice(0, 2), oid.slice(2)), deflateSync(object));
    mode = '40000';
  }
  const root = git(dir, ['mktree'], `${git(dir, ['ls-tree', branch])}\n040000 tree ${oid}\tdeep\n`);
  const commit = git(dir, ['commit-tree', root, '-p', branch, '-m', message]);
  git(dir, ['update-ref', `refs/heads/${branch}`, commit]);
  return commit;
}
