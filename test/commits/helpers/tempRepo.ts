// Throwaway repositories made by native git, the oracle these tests compare against.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

export interface TempRepo {
  /** Work tree (non-bare) or the repository itself (bare). */
  path: string;
  gitdir: string;
  /** Runs native git in the repo; returns stdout. */
  git(args: string[], options?: { input?: string | Uint8Array; env?: Record<string, string> }): string;
  /** Same, stdout as raw bytes (binary blobs). */
  gitBytes(args: string[]): Buffer;
  cleanup(): void;
}

// Deterministic identity and dates; no user or system config leaks in.
export const GIT_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Ada Author',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_AUTHOR_DATE: '1700000000 +0530',
  GIT_COMMITTER_NAME: 'Carl Committer',
  GIT_COMMITTER_EMAIL: 'carl@example.com',
  GIT_COMMITTER_DATE: '1700000100 -0800',
};

export function makeTempRepo(options: { bare?: boolean } = {}): TempRepo {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'flotilla-commits-'));
  const repoPath = path.join(root, options.bare ? 'repo.git' : 'repo');
  const runBytes = (
    cwd: string,
    args: string[],
    opts: { input?: string | Uint8Array; env?: Record<string, string> } = {},
  ) =>
    execFileSync('git', args, {
      cwd,
      input: opts.input,
      env: { ...GIT_ENV, HOME: root, ...opts.env },
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  const run = (cwd: string, args: string[], opts: { input?: string | Uint8Array; env?: Record<string, string> } = {}) =>
    runBytes(cwd, args, opts).toString('utf8');
  run(root, ['init', '-q', '-b', 'main', ...(options.bare ? ['--bare'] : []), repoPath]);
  run(repoPath, ['config', 'gc.auto', '0']);
  return {
    path: repoPath,
    gitdir: options.bare ? repoPath : path.join(repoPath, '.git'),
    git: (args, opts) => run(repoPath, args, opts),
    gitBytes: (args) => runBytes(repoPath, args),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** Writes files into a work tree (content null deletes), creating directories as needed. */
export function writeWorkTree(repo: TempRepo, files: Record<string, string | null>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(repo.path, rel);
    if (content === null) fs.rmSync(abs, { recursive: true, force: true });
    else {
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, content);
    }
  }
}

/** `git add -A && git commit`; returns the new commit's sha. */
export function commitAll(repo: TempRepo, message = 'change'): string {
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--allow-empty', '-m', message]);
  return repo.git(['rev-parse', 'HEAD']).trim();
}

/** Deletes a loose object, to prove later code never reads it. */
export function removeLooseObject(repo: TempRepo, oid: string): void {
  fs.rmSync(path.join(repo.gitdir, 'objects', oid.slice(0, 2), oid.slice(2)));
}

/** A blob written by git: its oid. */
export function writeBlob(repo: TempRepo, text: string): string {
  return repo.git(['hash-object', '-w', '--stdin'], { input: text }).trim();
}

/**
 * A tree object of these file entries in this order, written without git's checks (what a repository that does not
 * fsck what it receives may hold: entries out of order, a name twice): its oid.
 */
export function writeLiteralTree(repo: TempRepo, entries: [name: string, oid: string][]): string {
  const body = Buffer.concat(
    entries.map(([name, oid]) => Buffer.concat([Buffer.from(`100644 ${name}\0`), Buffer.from(oid, 'hex')])),
  );
  return repo.git(['hash-object', '-t', 'tree', '--literally', '-w', '--stdin'], { input: body }).trim();
}

export function bytes(text: string): Uint8Array {
  return Buffer.from(text, 'utf8');
}

/** `git ls-tree -r -z` as path -> {mode, oid}; the oracle for tree listings. */
export function lsTree(repo: TempRepo, treeish: string): Map<string, { mode: string; oid: string }> {
  const out = new Map<string, { mode: string; oid: string }>();
  for (const record of repo.git(['ls-tree', '-r', '-z', treeish]).split('\0')) {
    if (!record) continue;
    const [meta, file] = record.split('\t') as [string, string];
    const [mode, , oid] = meta.split(' ') as [string, string, string];
    out.set(file, { mode, oid });
  }
  return out;
}

/**
 * A "tree bomb" written by git: `depth` tree objects, each of `width` entries naming the one below (the last naming one
 * blob), so a few objects spell width^depth paths. Its oid.
 */
export function writeTreeBomb(repo: TempRepo, width: number, depth: number): string {
  let oid = writeBlob(repo, 'x\n');
  let mode = '100644 blob';
  for (let level = 0; level < depth; level++) {
    const lines = Array.from({ length: width }, (_, i) => `${mode} ${oid}\tn${i}\n`).join('');
    oid = repo.git(['mktree'], { input: lines }).trim();
    mode = '040000 tree';
  }
  return oid;
}

/** A commit whose tree is HEAD's with `tree` added as the folder `name`, made by git plumbing on HEAD: its sha. */
export function commitWithFolder(repo: TempRepo, name: string, tree: string, message = 'add a folder'): string {
  const root = `${repo.git(['ls-tree', 'HEAD'])}040000 tree ${tree}\t${name}\n`;
  const rootTree = repo.git(['mktree'], { input: root }).trim();
  const commit = repo.git(['commit-tree', rootTree, '-p', 'HEAD', '-m', message]).trim();
  repo.git(['update-ref', 'HEAD', commit]);
  return commit;
}

/**
 * `depth` folders each in the one before, one blob at the bottom, as loose objects written here (a git process per
 * object would take minutes): the oid of the top one.
 */
export function writeTreeChain(repo: TempRepo, depth: number): string {
  let oid = writeBlob(repo, 'x\n');
  let mode = '100644';
  for (let level = 0; level < depth; level++) {
    const body = Buffer.concat([Buffer.from(`${mode} d\0`), Buffer.from(oid, 'hex')]);
    const object = Buffer.concat([Buffer.from(`tree ${body.length}\0`), body]);
    oid = createHash('sha1').update(object).digest('hex');
    const dir = path.join(repo.gitdir, 'objects', oid.slice(0, 2));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, oid.slice(2)), deflateSync(object));
    mode = '40000';
  }
  return oid;
}
