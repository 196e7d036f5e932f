import type { Problem, SourceSpan } from '../errors/problem.ts';
import { resolveRelative } from './detectUnits.ts';
import { remoteReason } from './parseKustomization.ts';
import { isValueFileGlob, matchValueFileGlob, valueFileGlobRefusal } from './valueFileGlobs.ts';

// A HelmUnit's value files as Argo CD resolves them (util/io/path ResolveValueFilePathOrUrl): relative to the chart's
// folder, or to the repository's root when written with a leading '/'; anywhere in the repository, never outside it,
// and no URL (Argo CD fetches one only from schemes an operator allows; a render reads only the commit).

/** A value file as written in flotilla-unit.yaml, with where it is written. */
export interface ValueFileRef extends SourceSpan {
  path: string;
}

/** What the commit holds at a path: a file (and whether it holds Kubernetes objects), a symbolic link, or nothing. */
export type CommitEntry = { type: 'file'; kinds?: string[] } | { type: 'symlink'; target: string } | undefined;

/** The value file's path in the repository (pure); undefined when it is remote or resolves outside the repository. */
export function resolveValueFile(chartDir: string, written: string): string | undefined {
  if (written.startsWith('/')) return resolveRelative('', written) || undefined;
  if (remoteReason(written)) return undefined;
  return resolveRelative(chartDir, written) || undefined;
}

/** Why a value file as written cannot be read from the commit (pure): a URL, a path climbing out of the repository. */
export function valueFileRefusal(chartDir: string, written: string): { message: string; fix: string } | undefined {
  // Helm reads --values as a comma-separated list (a CSV field, quotes included): `values.yaml,/etc/flotilla/kubeconfig`
  // names a file of the commit (a folder `values.yaml,` holding the rest) and makes helm read a file of the host too.
  if (written.includes(',') || written.includes('"'))
    return {
      message: `${written} holds ${written.includes(',') ? 'a comma' : 'a double quote'}, which helm reads as a separator of several value files: a render reads only the named file of the commit`,
      fix: 'rename the value file (and its folders) without commas or double quotes, or list each file as its own entry of spec.valueFiles',
    };
  if (!written.startsWith('/')) {
    const remote = remoteReason(written);
    if (remote)
      return {
        message: `${written} is ${remote}: a render reads only the commit`,
        fix: 'commit the value file into the repository and name it relative to the chart, or from the root with a leading /',
      };
  }
  if (isValueFileGlob(written)) {
    const refused = valueFileGlobRefusal(written);
    if (refused) return refused;
  }
  if (resolveValueFile(chartDir, written) === undefined)
    return {
      message: `${written} resolves outside the repository (Argo CD refuses it too): a render reads only the commit`,
      fix: `commit the value file into the repository and name it relative to ${chartDir} (../values/prod.yaml) or from the root (/values/prod.yaml)`,
    };
  return undefined;
}

/**
 * The files a chart's value files add to its inputs, those outside the chart's folder (pure), and the problems that
 * keep the chart from running: a value file the commit lacks (unless `ignoreMissing`), a pattern that matches no file
 * (valueFileGlobs.ts; unless `ignoreMissing`), a symbolic link (the tool sees no links: a render copies files out of
 * Git's objects; the link is an input all the same, never read as a manifest), or a file of Kubernetes objects outside
 * the chart (it stays a manifest: an input is none, so naming a policy file as values would take that policy out of
 * the commit, and delete what it placed). `paths` are the commit's files, which patterns match. `watched`: the paths
 * outside the chart it looked at, and `watchedGlobs` the patterns reaching outside it, whose change (a file added or
 * removed) can change this answer.
 */
export function valueFileInputs(
  chartDir: string,
  optionsFile: string,
  refs: readonly ValueFileRef[],
  at: (path: string) => CommitEntry,
  ignoreMissing = false,
  paths: readonly string[] = [],
): { files: string[]; problems: Problem[]; watched: string[]; watchedGlobs: string[] } {
  const files: string[] = [];
  const watched: string[] = [];
  const watchedGlobs: string[] = [];
  const problems: Problem[] = [];
  const problem = (ref: ValueFileRef, message: string, fix: string) =>
    problems.push({
      file: optionsFile,
      line: ref.line,
      column: ref.column,
      code: 'INVALID_VALUE',
      severity: 'error',
      message,
      fix,
    });
  const check = (ref: ValueFileRef, resolved: string, named: string) => {
    const entry = at(resolved);
    const inside = resolved.startsWith(`${chartDir}/`);
    if (!inside) watched.push(resolved);
    if (!entry) {
      if (!ignoreMissing)
        problem(
          ref,
          `value file ${ref.path} is not in this commit (${resolved})`,
          `commit ${resolved} or correct spec.valueFiles (or set spec.ignoreMissingValueFiles)`,
        );
    } else if (entry.type === 'symlink') {
      problem(
        ref,
        `value file ${named} is a symbolic link (to ${entry.target}): a render copies files out of the commit, not links`,
        'name the file the link points to',
      );
      // Still the chart's input: a link holds a path, never a manifest, so it is not read as one.
      if (!inside) files.push(resolved);
    } else if (!inside && entry.kinds?.length)
      problem(
        ref,
        `value file ${named} holds Kubernetes objects (${entry.kinds.join(', ')}): as a chart's input it would no longer be read as a manifest of the commit`,
        'name a file that holds values only',
      );
    else if (!inside) files.push(resolved);
  };
  for (const ref of refs) {
    const resolved = resolveValueFile(chartDir, ref.path);
    // Refused where the options are read (parseUnitOptions), at this line.
    if (resolved === undefined || valueFileRefusal(chartDir, ref.path)) continue;
    if (!isValueFileGlob(resolved)) {
      check(ref, resolved, ref.path);
      continue;
    }
    if (!resolved.startsWith(`${chartDir}/`)) watchedGlobs.push(resolved);
    const matches = matchValueFileGlob(resolved, paths);
    if (matches.length === 0 && !ignoreMissing)
      problem(
        ref,
        `values file glob "${ref.path}" matched no files (${resolved})`,
        'commit a file it matches, correct the pattern, or set spec.ignoreMissingValueFiles',
      );
    for (const m of matches) check(ref, m, `${m} (matched by ${ref.path})`);
  }
  return {
    files: [...new Set(files)],
    problems,
    watched: [...new Set(watched)],
    watchedGlobs: [...new Set(watchedGlobs)],
  };
}
