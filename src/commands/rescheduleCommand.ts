import { pushHint } from './pushHint.ts';
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { GO_YAML_STRINGIFY_OPTIONS } from '../yaml/goYamlSchema.ts';
import { APPS_API_VERSION, describeRef, parseRefKey } from '../api/kinds.ts';
import { takesKind } from '../views/resolveResourceType.ts';
import type { WorkloadRebalancer } from '../api/rebalancer.ts';
import { buildCommit } from '../commits/buildCommit.ts';
import { openRepo } from '../commits/openRepo.ts';
import { PackWriter } from '../commits/PackWriter.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readRef } from '../commits/readRef.ts';
import { updateRef } from '../commits/updateRef.ts';
import { writeTreeEdits } from '../commits/writeTreeEdits.ts';
import { flotillaIdentity, type GitRepo } from '../commits/types.ts';
import { loadTemplatesOfKinds, readFleet } from '../views/readFleet.ts';
import { STATUS_BRANCH } from '../branches/status/branch.ts';
import { parseResourceWords } from './getCommand.ts';
import { missingTemplateHint } from './missingTemplateHint.ts';
import { UsageError } from '../errors/UsageError.ts';
import type { CommonOptions } from './options.ts';

export const REBALANCER_FOLDER = 'rebalancers';
export const REASON_ANNOTATION = 'flotilla.io/reason';
const USAGE = 'flotilla reschedule <kind>/<name> [-n NS] [--reason TEXT], e.g. flotilla reschedule deploy/web';

/**
 * `flotilla reschedule <kind>/<name>`: commits an apps.karmada.io/v1alpha1 WorkloadRebalancer naming the
 * workload to rebalancers/ on the config branch, as `kubectl create` would for Karmada. The next sync
 * schedules it in fresh mode once and records the request as observed in its binding.
 */
export async function rescheduleCommand(
  opts: CommonOptions & {
    words: readonly string[];
    namespace: string | undefined;
    reason: string | undefined;
    branch: string;
    /** The rendered branch whose index says which file holds the workload. */
    renderedRef: string;
    now: Date;
  },
): Promise<number> {
  if (opts.words.length === 0) throw new UsageError(`reschedule needs a workload: ${USAGE}`);
  const repo = await openRepo(opts.repo);
  const ref = `refs/heads/${opts.branch}`;
  const head = await readRef(repo, ref);
  if (!head)
    throw Object.assign(
      new Error(`branch ${opts.branch} does not exist in ${opts.repo}; fix: pass the config branch with --branch`),
      { code: 'SOURCE_BRANCH_MISSING' },
    );
  const fleet = await readFleet(repo, {
    rev: ref,
    renderedRef: opts.renderedRef,
    statusRef: `refs/heads/${STATUS_BRANCH}`,
    reader: 'flotilla reschedule',
  });
  // The words name a kind the rendered index knows, or one the branch added since its render: that much is read first,
  // then the templates of that kind and name alone (a fleet's whole source is tens of thousands of files).
  const since = await loadTemplatesOfKinds(fleet, () => false);
  const {
    type,
    word: typedWord,
    name,
  } = parseResourceWords(opts.words, USAGE, [
    ...((await fleet.rendered?.index.kinds()) ?? []),
    ...[...since.model.templates.values()].map((t) => t.ref),
  ]);
  if (type.type !== 'templates' || !name)
    throw new UsageError(`reschedule names one workload by <kind>/<name>: ${USAGE}`);
  const ofType = (ref: { apiVersion: string; kind: string }) => takesKind(type, ref);
  const { model } = since.full ? since : await loadTemplatesOfKinds(fleet, ofType, name);
  const matches = [...model.templates.values()].filter(
    (t) =>
      ofType(t.ref) &&
      t.ref.name === name &&
      (opts.namespace === undefined
        ? t.ref.namespace === 'default' || t.ref.namespace === ''
        : t.ref.namespace === opts.namespace),
  );
  const template = matches[0];
  if (!template) {
    // Every template's name is in the index; those of the files the branch changed since are in the model.
    const known = since.full ? [] : ((await fleet.rendered?.index.templateKeys()) ?? []);
    const hint = missingTemplateHint(
      [
        ...since.model.templates.values(),
        ...model.templates.values(),
        ...known.filter((key) => !since.stale.has(key)).map((key) => ({ ref: parseRefKey(key) })),
      ],
      {
        ...type,
        name,
        namespace: opts.namespace ?? 'default',
      },
    );
    const guess = hint.nearest ? `; did you mean ${typedWord}/${hint.nearest}?` : '';
    opts.err(
      `flotilla: no template ${opts.words.join(' ')}${opts.namespace ? ` in namespace ${opts.namespace}` : ''} on ${opts.branch}${hint.sameName.length ? `; did you mean: ${hint.sameName.join(', ')} (use -n)` : `${guess}; nothing was committed`}\n`,
    );
    return 1;
  }
  // Unique per request: a later reschedule of the same workload is a new request, as in Karmada.
  const stamp = Math.floor(opts.now.getTime() / 1000).toString(36);
  const rebalancerName = `${template.ref.kind}-${template.ref.name}-${stamp}`
    .toLowerCase()
    .replace(/[^a-z0-9.-]/g, '-')
    .slice(0, 253);
  const rebalancer: WorkloadRebalancer = {
    apiVersion: APPS_API_VERSION,
    kind: 'WorkloadRebalancer',
    metadata: { name: rebalancerName, ...(opts.reason ? { annotations: { [REASON_ANNOTATION]: opts.reason } } : {}) },
    spec: {
      workloads: [
        {
          apiVersion: template.ref.apiVersion,
          kind: template.ref.kind,
          name: template.ref.name,
          ...(template.ref.namespace ? { namespace: template.ref.namespace } : {}),
        },
      ],
    },
  };
  const file = `${REBALANCER_FOLDER}/${rebalancerName}.yaml`;
  const text = stringify(rebalancer, { ...GO_YAML_STRINGIFY_OPTIONS, lineWidth: 0 });
  const message = `Reschedule ${describeRef(template.ref)} in fresh mode\n\n${opts.reason ?? 'Requested with flotilla reschedule.'}\n\nWorkloadRebalancer: ${rebalancerName}\n`;
  const commit = await commitFile(repo, opts.branch, head, file, text, message, opts.now);
  opts.out(
    `workloadrebalancer/${rebalancerName} created in ${file} (${opts.branch} ${commit.slice(0, 12)}); the next sync schedules ${describeRef(template.ref)} afresh\n`,
  );
  const unpushed = await pushHint(repo, opts.branch);
  if (unpushed) opts.out(unpushed);
  return 0;
}

/**
 * One new file in one commit on the branch. A work tree with that branch checked out commits through git
 * itself, so the user's index and files stay in step; otherwise (bare repo, another branch) the commit is
 * written directly, with a compare-and-swap of the branch.
 */
async function commitFile(
  repo: GitRepo,
  branch: string,
  head: string,
  file: string,
  text: string,
  message: string,
  now: Date,
): Promise<string> {
  const checkedOut =
    !repo.bare && (await readFile(path.join(repo.gitdir, 'HEAD'), 'utf8')).trim() === `ref: refs/heads/${branch}`;
  if (checkedOut) {
    const git = (...args: string[]) => promisify(execFile)('git', ['-C', repo.dir, ...args]);
    await mkdir(path.join(repo.dir, path.dirname(file)), { recursive: true });
    await writeFile(path.join(repo.dir, file), text);
    await git('add', '--', file);
    await git('commit', '-q', '-m', message, '--', file);
    return (await git('rev-parse', 'HEAD')).stdout.trim();
  }
  const pack = new PackWriter(repo);
  const base = await readCommitInfo(repo, head);
  const tree = await writeTreeEdits(repo, pack, base.tree, new Map([[file, new TextEncoder().encode(text)]]));
  const identity = flotillaIdentity(now);
  const commit = buildCommit(pack, { tree, parents: [head], message, author: identity, committer: identity });
  await pack.flush();
  await updateRef(repo, `refs/heads/${branch}`, commit, head);
  return commit;
}
