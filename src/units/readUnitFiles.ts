import { ObjectTooLargeError } from '../commits/ObjectTooLargeError.ts';
import { listTreeFiles } from '../commits/listTreeFiles.ts';
import { readBlob } from '../commits/readBlob.ts';
import { TreeTooLargeError } from '../commits/TreeTooLargeError.ts';
import type { GitRepo, TreeFile } from '../commits/types.ts';
import { DEFAULT_PARSE_LIMITS } from '../documents/parseDocuments.ts';
import type { Problem } from '../errors/problem.ts';

/**
 * How much of the commit one unit's render reads: a pull request decides how large a chart's or a kustomization's
 * files are, and a blob of gigabytes compresses to a few kilobytes. Each file at most the parse limit of a manifest,
 * refused from its object header before it is inflated (helm itself refuses a chart file over 5 MiB); all of a unit's
 * files together at most what one read of a commit's manifests takes, which also bounds what is written to disk.
 * Each listing of a unit's folder visits at most as many tree entries as a source tree's walk by default, each
 * folder counted as often as a tree names it (a few objects can spell a billion paths).
 */
export const UNIT_READ_LIMITS = {
  maxFileBytes: DEFAULT_PARSE_LIMITS.maxFileBytes,
  maxBytes: 256 * 1024 * 1024,
  maxTreeEntries: 1_000_000,
} as const;

/** A unit's file past UNIT_READ_LIMITS: the unit is held with this problem, the rest of the commit renders. */
export class UnitFileTooLarge extends Error {
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(problem.message);
    this.name = 'UnitFileTooLarge';
    this.problem = problem;
  }
}

/**
 * The blobs of a unit's files by oid, each refused before it is inflated when over the per-file limit, and the whole
 * refused past `budget.left` bytes (spent as they are read): either throws UnitFileTooLarge at the file.
 */
export async function readUnitFiles(
  repo: GitRepo,
  files: Iterable<readonly [file: string, oid: string]>,
  budget: { left: number } = { left: Infinity },
): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for (const [file, oid] of files) {
    if (out.has(oid)) continue;
    let bytes: Uint8Array;
    try {
      bytes = await readBlob(repo, oid, { maxBytes: UNIT_READ_LIMITS.maxFileBytes });
    } catch (err) {
      if (!(err instanceof ObjectTooLargeError)) throw err;
      throw new UnitFileTooLarge(oversizedUnitFile(file, err.data.size));
    }
    budget.left -= bytes.length;
    if (budget.left < 0)
      throw new UnitFileTooLarge(
        tooLarge(
          file,
          `with this file the unit's files hold over ${mib(UNIT_READ_LIMITS.maxBytes)}, all a render reads of one unit`,
          'move what the tool does not need out of the unit folder, or split the unit',
        ),
      );
    out.set(oid, bytes);
  }
  return out;
}

/**
 * The files under one of a unit's folders (`dir`, ending in '/', or '' for the root), keyed by their path in it; a
 * listing past UNIT_READ_LIMITS.maxTreeEntries throws UnitFileTooLarge at the folder where it stopped.
 */
export async function listUnitFolder(repo: GitRepo, tree: string, dir: string): Promise<Map<string, TreeFile>> {
  try {
    return await listTreeFiles(repo, tree, { maxEntries: UNIT_READ_LIMITS.maxTreeEntries });
  } catch (err) {
    if (!(err instanceof TreeTooLargeError)) throw err;
    throw new UnitFileTooLarge(
      tooLarge(
        `${dir}${err.data.path}`.replace(/\/$/, '') || '.',
        err.data.kind === 'path'
          ? `the unit's folder ${dir || '.'} names a path of ${err.data.entries} bytes or more, over the ${err.data.limit} a checkout can write`
          : `the unit's folder ${dir || '.'} holds over ${err.data.limit} files and folders, each folder counted as often as a tree names it`,
        err.data.kind === 'path'
          ? 'remove the folders nested that deep (git revert)'
          : 'remove the folders named many times over (git revert), or move what the tool does not need out of the unit',
      ),
    );
  }
}

/** A unit's file over the per-file limit, at the file (pure). */
export function oversizedUnitFile(file: string, size: number): Problem {
  return tooLarge(
    file,
    `file is ${mib(size)}, over the ${mib(UNIT_READ_LIMITS.maxFileBytes)} a file of a Helm or Kustomize unit may hold`,
    'commit a smaller file, or move what the tool does not need out of the unit',
  );
}

function tooLarge(file: string, why: string, fix: string): Problem {
  return {
    file,
    line: 1,
    column: 1,
    code: 'FILE_TOO_LARGE',
    severity: 'error',
    message: `${why}: the unit is not rendered, and its last good output is kept`,
    fix,
  };
}

function mib(n: number): string {
  return `${(n / 1024 / 1024).toFixed(n % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
}
