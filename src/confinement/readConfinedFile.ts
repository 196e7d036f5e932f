// Every file Flotilla opens because Git content named it goes through here. Git content is written by whoever opened
// the pull request, so a name from it may point anywhere: `../`, an absolute path, a symlink planted beside the file,
// a FIFO that blocks the reader, /proc/self/environ. The answer is one rule in one place: the name is relative, and
// the file it resolves to (after every symlink) is a regular file inside the root the operator chose.
import nodeFs from 'node:fs';
import path from 'node:path';

/** Why a name was refused; describeConfinementProblem turns one into words. */
export type ConfinementProblem =
  | 'empty'
  | 'absolute'
  | 'escapes'
  | 'symlink-out'
  | 'missing'
  | 'not-regular'
  | 'too-large'
  | 'unreadable'
  | 'root-missing';

export interface ConfinedFile {
  /** The real path read (no symlink left in it). */
  path: string;
  bytes: Buffer;
}

export interface ConfineOptions {
  /** Relative names resolve against this folder (inside root); default root itself. */
  base?: string;
  /** Accept an absolute name when its real path lies inside root (names an operator wrote, never Git's). Default false. */
  allowAbsolute?: boolean;
  /** Larger files are refused. Default 1 MiB: credentials and value files are small. */
  maxBytes?: number;
  fs?: typeof nodeFs;
}

const DEFAULT_MAX_BYTES = 1024 * 1024;

/**
 * Where `name` leads inside `root`, or why it may not be read: checked on the real paths of both, so a symlink
 * (in the name, in a parent folder, or the root's own) is judged by where it ends, not where it starts.
 */
export function resolveConfinedPath(
  root: string,
  name: string,
  opts: ConfineOptions = {},
): { path: string } | { problem: ConfinementProblem } {
  const fs = opts.fs ?? nodeFs;
  const shape = relativeNameProblem(name);
  if (shape === 'empty' || (shape === 'absolute' && !opts.allowAbsolute)) return { problem: shape };
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(root);
  } catch {
    return { problem: 'root-missing' };
  }
  const base = opts.base ? path.resolve(realRoot, opts.base) : realRoot;
  const lexical = path.resolve(base, name);
  // Judged before touching the file system, so a `..` that climbs out is named as such even when its target is missing.
  if (!path.isAbsolute(name) && !isInside(realRoot, lexical)) return { problem: 'escapes' };
  let real: string;
  try {
    real = fs.realpathSync(lexical);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { problem: code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unreadable' };
  }
  if (!isInside(realRoot, real))
    return { problem: path.isAbsolute(name) && real === path.resolve(name) ? 'escapes' : 'symlink-out' };
  return { path: real };
}

/**
 * Reads the regular file `name` leads to inside `root` (see resolveConfinedPath). Opened without following a
 * final symlink and without blocking, then checked on the open descriptor, so a file swapped between the check
 * and the read is refused rather than read.
 */
export function readConfinedFile(
  root: string,
  name: string,
  opts: ConfineOptions = {},
): ConfinedFile | { problem: ConfinementProblem } {
  const fs = opts.fs ?? nodeFs;
  const where = resolveConfinedPath(root, name, opts);
  if ('problem' in where) return where;
  let fd: number;
  try {
    fd = fs.openSync(where.path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { problem: code === 'ENOENT' ? 'missing' : code === 'ELOOP' ? 'symlink-out' : 'unreadable' };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { problem: 'not-regular' };
    if (stat.size > (opts.maxBytes ?? DEFAULT_MAX_BYTES)) return { problem: 'too-large' };
    return { path: where.path, bytes: fs.readFileSync(fd) };
  } catch {
    return { problem: 'unreadable' };
  } finally {
    fs.closeSync(fd);
  }
}

/** The problem in words, naming the root but never anything read from the file. Pure. */
export function describeConfinementProblem(problem: ConfinementProblem, root: string): string {
  switch (problem) {
    case 'empty':
      return 'is empty';
    case 'absolute':
      return `is absolute; only paths relative to ${root} are read`;
    case 'escapes':
      return `leads outside ${root}`;
    case 'symlink-out':
      return `is (or passes through) a symlink to somewhere outside ${root}`;
    case 'missing':
      return `does not exist under ${root}`;
    case 'not-regular':
      return 'is not a regular file (a folder, device, FIFO or socket)';
    case 'too-large':
      return 'is larger than 1 MiB';
    case 'unreadable':
      return 'cannot be read (permissions, or a symlink loop)';
    case 'root-missing':
      return `cannot be read: the folder ${root} does not exist`;
  }
}

/**
 * What is wrong with `name` as a path relative to some root, judged from the text alone (no file system), so
 * validation can tell a reviewer before any reconciler reads it. Pure.
 */
export function relativeNameProblem(name: string): 'empty' | 'absolute' | 'escapes' | undefined {
  if (!name || name.includes('\0')) return 'empty';
  if (path.isAbsolute(name)) return 'absolute';
  const normal = path.normalize(name);
  if (normal === '..' || normal.startsWith(`..${path.sep}`)) return 'escapes';
  return undefined;
}

function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' ? false : !rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel);
}
