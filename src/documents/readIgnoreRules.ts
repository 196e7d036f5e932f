import { readBlobsWithin } from '../commits/readBlobs.ts';
import { readPathOids } from '../commits/readPathOids.ts';
import type { GitRepo } from '../commits/types.ts';
import { formatMiB } from '../errors/formatMiB.ts';
import type { Problem } from '../errors/problem.ts';
import { DEFAULT_PARSE_LIMITS } from './parseDocuments.ts';
import { IGNORE_FILE, parseIgnoreFile, type IgnoreRules } from './selectConfigFiles.ts';

/** A commit's ignore rules, and the problem of its `.flotillaignore` when that file is refused. */
export interface CommitIgnoreRules {
  rules: IgnoreRules | undefined;
  problem?: Problem;
}

/**
 * The ignore rules of a tree, read the one way every reader of a commit applies them (the render, the views, the
 * units, the lookup of a Cluster's file): they must agree on which files are config.
 */
export async function readIgnoreRules(repo: GitRepo, tree: string): Promise<CommitIgnoreRules> {
  const oid = (await readPathOids(repo, tree, [IGNORE_FILE])).get(IGNORE_FILE);
  return oid === undefined ? { rules: undefined } : ignoreRulesOf(repo, oid);
}

/**
 * The rules of a `.flotillaignore` blob: none over the parse limit, which is a problem of the commit (the file is
 * refused from its object header, never inflated), as any other oversized file is.
 */
export async function ignoreRulesOf(repo: GitRepo, oid: string): Promise<CommitIgnoreRules> {
  const limit = DEFAULT_PARSE_LIMITS.maxFileBytes;
  const { blobs, tooLarge } = await readBlobsWithin(repo, [oid], limit);
  const size = tooLarge.get(oid);
  if (size === undefined) return { rules: parseIgnoreFile(new TextDecoder().decode(blobs.get(oid)!)) };
  const problem: Problem = {
    file: IGNORE_FILE,
    line: 1,
    column: 1,
    code: 'FILE_TOO_LARGE',
    severity: 'error',
    message: `file is ${formatMiB(size)}, over the ${formatMiB(limit)} limit`,
    // Not the fix every other oversized file gets (list it in this file): that cannot help this one.
    fix: 'shorten it: a line per pattern, and one glob (`dir/**`, `*.txt`) stands for many paths',
  };
  return { rules: undefined, problem };
}
