import { classifyDocuments } from '../documents/classifyDocuments.ts';
import type { FileObjects } from '../api/model.ts';
import type { TreeTooLargeError } from '../commits/TreeTooLargeError.ts';
import type { Problem } from '../errors/problem.ts';
import { DEFAULT_MAX_OUTPUT_BYTES } from '../works/renderTemplates.ts';

/**
 * How much of a commit one read of its files takes in, whatever the commit holds: a pull request decides how many
 * files there are, how large (each at most the 16 MiB parse limit) and how many objects they hold. Past a limit the
 * remaining files, in path order, are not read: the first gets COMMIT_TOO_LARGE, and all of them are unreadable, so
 * whatever they rendered before is kept. Each is some fifty times what a fleet of 1,000 templates needs.
 */
export interface SourceLimits {
  /** Files parsed. Default 50,000. */
  maxFiles: number;
  /** Bytes of those files. Default 256 MiB. */
  maxBytes: number;
  /** Objects (documents with apiVersion, kind and name) in them. Default 100,000. */
  maxObjects: number;
}

export const DEFAULT_SOURCE_LIMITS: SourceLimits = {
  maxFiles: 50_000,
  maxBytes: 256 * 1024 * 1024,
  maxObjects: 100_000,
};

/**
 * The two per-commit limits a fleet outgrows first, which the operator may raise (--max-source-files,
 * --max-output-bytes): 50,000 templates on 500 clusters have more source files than the default reads and render to
 * some GB. Absent fields keep the defaults. Flags, not a file in the repository: the limits bound what a pull request
 * can make the leader read and write, so the repository must not be able to raise them for itself.
 */
export interface RenderLimits {
  /** SourceLimits.maxFiles; default 50,000. */
  maxSourceFiles?: number;
  /** Bytes of manifests and bindings one render may write; default DEFAULT_MAX_OUTPUT_BYTES (512 MiB). */
  maxOutputBytes?: number;
}

/**
 * Whether `given` lets a render read or write more than the limits a render recorded did (Render-Limits; absent ones
 * the defaults): what those held for its size (a source too large to read, a template past the bytes one render may
 * write) may render now, and the operator raised them for that.
 */
export function limitsRaised(recorded: RenderLimits | undefined, given: RenderLimits | undefined): boolean {
  const files = (l: RenderLimits | undefined) => l?.maxSourceFiles ?? DEFAULT_SOURCE_LIMITS.maxFiles;
  const bytes = (l: RenderLimits | undefined) => l?.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  return files(given) > files(recorded) || bytes(given) > bytes(recorded);
}

/** The source limits with the operator's file count, when given. */
export function sourceLimitsOf(limits: RenderLimits | undefined): SourceLimits {
  return limits?.maxSourceFiles === undefined
    ? DEFAULT_SOURCE_LIMITS
    : { ...DEFAULT_SOURCE_LIMITS, maxFiles: limits.maxSourceFiles };
}

/**
 * How many tree entries one walk of a source tree may visit (listTreeFiles, diffTrees): twenty per file the read may
 * parse, 1,000,000 by default, so raising --max-source-files raises it too. Counted with each folder as often as a tree
 * names it: a few objects can spell a billion paths (a tree of 1,000 entries naming one subtree 1,000 times, a few
 * levels deep), and listing them took minutes and gigabytes. A real repository has a few entries per file: its folders,
 * and the files no render parses (docs, scripts); the bench's XL fleet (50,000 templates, --max-source-files 200000)
 * lists under 100,000. Past it, the commit is held whole (renderRevision).
 */
export function sourceTreeEntries(limits: SourceLimits): number {
  return TREE_ENTRIES_PER_FILE * limits.maxFiles;
}

const TREE_ENTRIES_PER_FILE = 20;

/**
 * A source commit whose tree is past sourceTreeEntries, or names a path over MAX_PATH_BYTES, at '.': nothing of it is read, the render holds it whole
 * (`lastGood`: the source commit the clusters keep, when known; null: none, no commit was rendered before it).
 */
export function sourceTooLarge(source: string, err: TreeTooLargeError, lastGood?: string | null): Problem {
  const kept =
    lastGood === null
      ? 'nothing of it was rendered, and no commit was rendered before it: the clusters get nothing until a commit within the bound is pushed'
      : `nothing of it was rendered, every cluster keeps what ${lastGood ? lastGood.slice(0, 12) : 'the last good commit'} rendered`;
  return tooLarge(source, err, kept, raiseFlag(err));
}

/**
 * The same commit for a command that only reads it (plan, get, describe, the cluster verbs): it changes nothing, so it
 * says that this read stopped, not what the clusters keep. `flag`: whether the command takes --max-source-files;
 * one that does not reads within the default's bound, and says so.
 */
export function sourceTooLargeToRead(
  source: string,
  err: TreeTooLargeError,
  command: string,
  flag: boolean,
  after?: string,
): Problem {
  const raise = flag
    ? raiseFlag(err)
    : `know that ${command} reads at most ${err.data.limit} of them, as a render with the default --max-source-files (${DEFAULT_SOURCE_LIMITS.maxFiles}) does: run, render and sync read more with a larger one`;
  return tooLarge(source, err, `${command} cannot read it${after ? `, ${after}` : ''}`, raise);
}

function raiseFlag(err: TreeTooLargeError): string {
  return `raise --max-source-files (now ${err.data.limit / TREE_ENTRIES_PER_FILE}, ${TREE_ENTRIES_PER_FILE} files and folders each)`;
}

function tooLarge(source: string, err: TreeTooLargeError, consequence: string, raise: string): Problem {
  const { kind, entries, limit, path } = err.data;
  if (kind === 'path')
    return {
      file: '.',
      line: 1,
      column: 1,
      code: 'COMMIT_TOO_LARGE',
      severity: 'error',
      message: `source commit ${source.slice(0, 12)} names a path of ${entries} bytes or more, over the ${limit} a checkout can write ('${path}'): ${consequence}`,
      fix: 'remove the folders nested that deep (git revert the commit that added them)',
    };
  return {
    file: '.',
    line: 1,
    column: 1,
    code: 'COMMIT_TOO_LARGE',
    severity: 'error',
    message: `source commit ${source.slice(0, 12)} names over ${limit} files and folders, each folder counted as often as a tree names it (${entries} at '${path || '.'}'): ${consequence}`,
    fix: `remove the folders named many times over (git revert the commit that added them); if the repository is this large, ${raise}`,
  };
}

/** A file this read refused: unreadable, with the problem when it is the first one refused. */
export function refusedFile(file: string, why?: { message: string; fix: string }): FileObjects {
  const problems = why
    ? [{ file, line: 1, column: 1, code: 'COMMIT_TOO_LARGE' as const, severity: 'error' as const, ...why }]
    : [];
  return { ...classifyDocuments(file, [], problems), unreadable: true };
}

/** Objects a parsed file holds, broken ones included. */
export function objectCount(f: FileObjects): number {
  return (
    f.templates.length +
    f.propagationPolicies.length +
    f.overridePolicies.length +
    f.clusterTaintPolicies.length +
    f.clusters.length +
    f.rebalancers.length +
    f.interpreterCustomizations.length +
    f.broken.length
  );
}
