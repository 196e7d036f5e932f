// Native git for the bench's setup and its yardstick: create repos, feed `git fast-import`, read a
// whole tree back with `ls-tree | cat-file --batch`. None of this is Flotilla code under test.
import { execFileSync, spawn } from 'node:child_process';
import { openSync, closeSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null' };
const BIG = 2 ** 31;

export function git(gitDir: string, args: string[], input?: string | Buffer): string {
  return execFileSync('git', ['--git-dir', gitDir, ...args], {
    env: ENV,
    input,
    maxBuffer: BIG,
    encoding: 'utf8',
  }).trim();
}

export function initBareRepo(gitDir: string): void {
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', gitDir], { env: ENV });
  git(gitDir, ['config', 'gc.auto', '0']);
}

export interface ImportCommit {
  ref: string;
  /** Parent commit (or ref); none for a root commit. */
  from?: string;
  message: string;
  /** Seconds since the epoch, for author and committer: fixed times give fixed commit ids. */
  time: number;
  /** Path → content; null deletes. */
  files: Iterable<[string, string | Buffer | null]>;
  /** Start from an empty tree even when `from` is given. */
  deleteAll?: boolean;
}

/** One commit as a fast-import stream, every blob inline. */
export function buildImportStream(commit: ImportCommit): Buffer {
  const chunks: Buffer[] = [];
  const who = `Flotilla Bench <bench@example.com> ${commit.time} +0000`;
  const message = Buffer.from(commit.message);
  chunks.push(
    Buffer.from(`commit ${commit.ref}\nauthor ${who}\ncommitter ${who}\ndata ${message.length}\n`),
    message,
    Buffer.from('\n'),
  );
  if (commit.from) chunks.push(Buffer.from(`from ${commit.from}\n`));
  if (commit.deleteAll) chunks.push(Buffer.from('deleteall\n'));
  for (const [path, content] of commit.files) {
    if (content === null) {
      chunks.push(Buffer.from(`D ${path}\n`));
      continue;
    }
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    chunks.push(Buffer.from(`M 100644 inline ${path}\ndata ${bytes.length}\n`), bytes, Buffer.from('\n'));
  }
  chunks.push(Buffer.from('done\n'));
  return Buffer.concat(chunks);
}

/**
 * Runs `git fast-import` reading `streamFile`; returns its wall time in seconds (process start to exit).
 * The stream is a file so that building it is never part of the time.
 */
export async function runFastImport(gitDir: string, streamFile: string): Promise<number> {
  const fd = openSync(streamFile, 'r');
  try {
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const child = spawn('git', ['--git-dir', gitDir, 'fast-import', '--quiet', '--done'], {
        env: ENV,
        stdio: [fd, 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`git fast-import exited ${code}: ${err}`)),
      );
    });
    return (performance.now() - started) / 1000;
  } finally {
    closeSync(fd);
  }
}

/** Writes a commit with fast-import (setup, not timed) and returns the new commit id. */
export async function importCommit(gitDir: string, commit: ImportCommit, scratchFile: string): Promise<string> {
  writeFileSync(scratchFile, buildImportStream(commit));
  await runFastImport(gitDir, scratchFile);
  return git(gitDir, ['rev-parse', commit.ref]);
}

/** Every blob under `rev`'s tree, in tree order, read with native git. */
export function readTreeFiles(gitDir: string, rev: string): Map<string, Buffer> {
  const listing = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '-z', rev], { env: ENV, maxBuffer: BIG });
  const entries: { path: string; oid: string }[] = [];
  for (const line of listing.toString('utf8').split('\0')) {
    if (!line) continue;
    const tab = line.indexOf('\t');
    const [, type, oid] = line.slice(0, tab).split(' ');
    if (type === 'blob') entries.push({ path: line.slice(tab + 1), oid: oid! });
  }
  const raw = execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], {
    env: ENV,
    maxBuffer: 2 ** 32 - 1,
    input: entries.map((e) => e.oid).join('\n') + '\n',
  });
  const out = new Map<string, Buffer>();
  let at = 0;
  for (const e of entries) {
    const eol = raw.indexOf(10, at);
    const header = raw.toString('latin1', at, eol); // "<oid> blob <size>"
    const size = Number(header.slice(header.lastIndexOf(' ') + 1));
    out.set(e.path, raw.subarray(eol + 1, eol + 1 + size));
    at = eol + 1 + size + 1;
  }
  return out;
}

/**
 * `rev` as a fast-import stream in `streamFile`, written by `git fast-export` (blobs with marks, then the commit
 * naming them) straight to the file: for an output too large to hold as one buffer here (XL's some GB). Importing it
 * writes the returned ref (a ref of its own, made and removed here for the export) with the same tree.
 */
export function exportCommitStream(gitDir: string, rev: string, streamFile: string): string {
  const ref = 'refs/bench/exported';
  git(gitDir, ['update-ref', ref, rev]);
  const fd = openSync(streamFile, 'w');
  try {
    execFileSync('git', ['--git-dir', gitDir, 'fast-export', '--use-done-feature', ref], {
      env: ENV,
      stdio: ['ignore', fd, 'pipe'],
    });
  } finally {
    closeSync(fd);
  }
  git(gitDir, ['update-ref', '-d', ref]);
  return ref;
}

/** Files in `rev`'s tree, counted by native git without holding the listing. */
export function countTreeFiles(gitDir: string, rev: string): number {
  const out = execFileSync('sh', ['-c', 'git --git-dir "$1" ls-tree -r --name-only "$2" | wc -l', 'sh', gitDir, rev], {
    env: ENV,
    encoding: 'utf8',
  });
  return Number(out.trim());
}

export function countCommits(gitDir: string, ref: string): number {
  return Number(git(gitDir, ['rev-list', '--count', ref]));
}
