import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isControlPlaneApi } from '../bindings/matchPolicy.ts';
import { listTreeFiles } from '../commits/listTreeFiles.ts';
import { openRepo } from '../commits/openRepo.ts';
import { readBlobsWithin } from '../commits/readBlobs.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { GitRepo } from '../commits/types.ts';
import type { ConfigModel } from '../api/model.ts';
import { findAmbiguousScalars } from '../documents/findAmbiguousScalars.ts';
import { DEFAULT_PARSE_LIMITS } from '../documents/parseDocuments.ts';
import { GO_YAML_DOCUMENT_OPTIONS } from '../yaml/goYamlSchema.ts';
import { IGNORE_FILE, isConfigFile, parseIgnoreFile } from '../documents/selectConfigFiles.ts';
import { utf8FromUtf16 } from '../text/utf16Text.ts';
import { compareProblems, formatProblem, type Problem } from '../errors/problem.ts';
import { DEFAULT_SOURCE_LIMITS, sourceLimitsOf, sourceTreeEntries } from '../outputs/sourceLimits.ts';
import { SourceTooLargeError } from '../outputs/SourceTooLargeError.ts';
import type { TreeWalkLimit } from '../commits/treeWalkBudget.ts';
import { resolveRev } from '../commits/resolveRev.ts';
import { checkSnapshot } from '../outputs/renderSnapshot.ts';
import { terminalSafe } from '../text/terminalSafe.ts';
import { lookTwiceProblems } from '../plans/lookTwice.ts';
import { readUnitTakeovers } from '../units/unitTakeovers.ts';
import { describeToolReport, findToolReport } from '../units/unitTools.ts';
import { readClusterStatus, type CommonOptions } from './options.ts';
import { workingLine } from './workingLine.ts';

/**
 * Exit 0 when nothing is wrong (warnings allowed), 1 when any error was found. With `checkedOut` (no revision named),
 * a work tree's checked-out commit is validated, a bare repository's --source-branch; the summary names which.
 */
export async function validateCommand(opts: CommonOptions & { checkedOut?: boolean }): Promise<number> {
  const repo = await openRepo(opts.repo);
  const rev = opts.checkedOut && !repo.bare ? 'HEAD' : opts.rev;
  const revision = rev === 'HEAD' ? checkedOutBranch(repo) : rev;
  const limits = sourceLimitsOf(opts.limits);
  const walk = { maxEntries: sourceTreeEntries(limits) };
  const working = workingLine(opts.err, opts.errIsTerminal === true);
  working.phase(`flotilla validate: rendering ${revision} to check it`);
  const snapshot = await checkSnapshot(repo, rev, await readClusterStatus(opts.clusterStatusFile), opts.limits)
    .catch((err: unknown) => {
      if (err instanceof SourceTooLargeError) return err.readBy('flotilla validate');
      throw err;
    })
    .finally(() => working.done());
  // A tree too large to walk is all there is to say: validate reads nothing of it, as a render holds it whole.
  if (snapshot instanceof SourceTooLargeError)
    return report(opts, await resolveRev(repo, rev), revision, [snapshot.problem], () => 'a tree too large to read');
  const { sha, model } = snapshot;
  const problems = [
    ...model.problems,
    ...snapshot.problems,
    ...lookTwiceProblems(model),
    ...(await ambiguousScalars(repo, sha, limits.maxFiles, walk)),
    ...(await takeoversSinceParent(repo, sha, walk)),
  ]
    .sort(compareProblems)
    // Overlays sharing a base each report the base's problem (a remote resource): said once.
    .filter((p, i, all) => i === 0 || !sameProblem(all[i - 1]!, p));
  // Which binaries render the commit's units, and from where (pinned, or PATH on other platforms).
  const tools = await Promise.all(
    [...new Set([...(model.units?.values() ?? [])].map((u) => u.tool))]
      .sort()
      .map(async (t) => describeToolReport(await findToolReport(t))),
  );
  return report(opts, sha, revision, problems, () => countsOf(model), tools);
}

/** Prints the problems and the summary (`counts`: what the commit holds); exit 1 when any problem is an error. */
async function report(
  opts: CommonOptions,
  sha: string,
  revision: string,
  problems: readonly Problem[],
  counts: () => string,
  tools: readonly string[] = [],
): Promise<number> {
  const errors = problems.filter((p) => p.severity === 'error').length;
  if (opts.output === 'json' || opts.output === 'yaml') {
    const body = {
      commit: sha,
      revision,
      errors,
      warnings: problems.length - errors,
      problems,
      ...(tools.length > 0 ? { tools } : {}),
    };
    opts.out(
      opts.output === 'json'
        ? `${JSON.stringify(body, null, 2)}\n`
        : (await import('yaml')).stringify(body, GO_YAML_DOCUMENT_OPTIONS),
    );
  } else {
    // Problems quote file names, object names and values from the change under review.
    for (const p of problems) opts.out(`${terminalSafe(formatProblem(p), { multiline: true })}\n`);
    opts.out(
      `${problems.length ? '\n' : ''}${sha.slice(0, 12)} (${terminalSafe(revision)}): ${counts()}; ${errors} errors, ${problems.length - errors} warnings\n`,
    );
    if (tools.length > 0) opts.out(`${terminalSafe(`units render with ${tools.join(', ')}`)}\n`);
  }
  return errors > 0 ? 1 : 0;
}

/** What a commit's model holds, for validate's summary. */
function countsOf(model: ConfigModel): string {
  // FederatedHPAs, MultiClusterServices and the like are read from the repo but never propagated (Karmada's
  // detector skips its own API groups): counted apart, so "templates" are what the policies can place.
  const controlPlane = new Map<string, number>();
  for (const t of model.templates.values())
    if (isControlPlaneApi(t.ref.apiVersion)) controlPlane.set(t.ref.kind, (controlPlane.get(t.ref.kind) ?? 0) + 1);
  const controlPlaneCount = [...controlPlane.values()].reduce((a, b) => a + b, 0);
  const controlPlaneText =
    controlPlaneCount > 0
      ? `, ${controlPlaneCount} control-plane objects (${[...controlPlane]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([kind, n]) => `${n} ${kind}`)
          .join(', ')})`
      : '';
  const units = model.units?.size ?? 0;
  const fromUnits = [...model.templates.values()].filter((t) => model.units?.has(t.source.file)).length;
  const templates = `${model.templates.size - controlPlaneCount} templates${units > 0 ? ` (${fromUnits} from ${units} Helm and Kustomize units)` : ''}`;
  const others = [
    [model.clusterTaintPolicies.length, 'cluster taint policies'],
    [model.rebalancers.length, 'workload rebalancers'],
    [model.interpreterCustomizations.length, 'interpreter customizations'],
  ]
    .filter(([n]) => (n as number) > 0)
    .map(([n, what]) => `, ${n} ${what}`)
    .join('');
  return `${templates}${controlPlaneText}, ${model.propagationPolicies.length} propagation policies, ${model.overridePolicies.length} override policies${others}, ${model.clusters.size} clusters`;
}

/** The branch a work tree has checked out, or `HEAD` when it is detached (a CI checkout of a pull request). */
function checkedOutBranch(repo: GitRepo): string {
  const head = readFileSync(path.join(repo.gitdir, 'HEAD'), 'utf8').trim();
  return head.startsWith('ref: refs/heads/') ? head.slice('ref: refs/heads/'.length) : 'HEAD';
}

/** The folders this commit turned from units into an overlay's bases, against its first parent (none for a root commit). */
async function takeoversSinceParent(repo: GitRepo, sha: string, walk: TreeWalkLimit): Promise<Problem[]> {
  const commit = await readCommitInfo(repo, sha);
  const parent = commit.parents[0];
  if (!parent) return [];
  // A shallow clone (CI's depth-1 checkout) has no parent to compare with: nothing to say.
  const before = await readCommitInfo(repo, parent).catch(() => undefined);
  return before ? readUnitTakeovers(repo, before.tree, commit.tree, walk) : [];
}

/**
 * Warnings for plain scalars YAML 1.1 reads differently from what most people expect (validate only: a render skips
 * this). The files are the pull request's: read within the same per-file and per-commit bounds as a render, so an
 * oversized file is the render's FILE_TOO_LARGE, never inflated here.
 */
async function ambiguousScalars(repo: GitRepo, sha: string, maxFiles: number, walk: TreeWalkLimit): Promise<Problem[]> {
  const { tree } = await readCommitInfo(repo, sha);
  const files = await listTreeFiles(repo, tree, walk);
  const within = (oids: string[]) =>
    readBlobsWithin(repo, oids, DEFAULT_PARSE_LIMITS.maxFileBytes, 16, DEFAULT_SOURCE_LIMITS.maxBytes);
  const decoder = new TextDecoder();
  const ignoreOid = files.get(IGNORE_FILE)?.oid;
  const ignoreBlob = ignoreOid ? (await within([ignoreOid])).blobs.get(ignoreOid) : undefined;
  const ignore = ignoreBlob === undefined ? undefined : parseIgnoreFile(decoder.decode(ignoreBlob));
  const paths = [...files.keys()].filter((p) => isConfigFile(p, ignore)).slice(0, maxFiles);
  const { blobs } = await within(paths.map((p) => files.get(p)!.oid));
  const problems: Problem[] = [];
  for (const path of paths) {
    const blob = blobs.get(files.get(path)!.oid);
    const utf16 = blob && utf8FromUtf16(blob);
    if (blob)
      problems.push(...findAmbiguousScalars(path, decoder.decode(utf16 && 'bytes' in utf16 ? utf16.bytes : blob)));
  }
  return problems;
}

function sameProblem(a: Problem, b: Problem): boolean {
  return (
    a.file === b.file &&
    a.line === b.line &&
    a.column === b.column &&
    a.code === b.code &&
    a.severity === b.severity &&
    a.message === b.message
  );
}
