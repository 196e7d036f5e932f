import { describeTemplateUnit } from '../units/describeUnit.ts';
import { stringify } from 'yaml';
import { GO_YAML_DOCUMENT_OPTIONS } from '../yaml/goYamlSchema.ts';
import { describeRef, parseRefKey, refKey, type ObjectRef } from '../api/kinds.ts';
import { takesKind } from '../views/resolveResourceType.ts';
import type { ConfigModel } from '../api/model.ts';
import type { GitRepo } from '../commits/types.ts';
import { DEFAULT_STATUS_REF } from '../branches/status/branch.ts';
import { explainTemplateIn } from '../dashboard/explainTemplate.ts';
import { sourceLimitsOf } from '../outputs/sourceLimits.ts';
import { loadTemplatesOfKinds, readFleet } from '../views/readFleet.ts';
import { openRepo } from '../commits/openRepo.ts';
import { readOutputFolder } from '../outputs/previousOutputs.ts';
import { readExplanations } from '../views/readExplanations.ts';
import { SourceTooLargeError } from '../outputs/SourceTooLargeError.ts';
import type { TemplateExplanation } from '../works/renderTemplates.ts';
import { terminalSafe } from '../text/terminalSafe.ts';
import { parseResourceWords } from './getCommand.ts';
import { missingTemplateHint } from './missingTemplateHint.ts';
import { UsageError } from '../errors/UsageError.ts';
import { observedClusters, type CommonOptions } from './options.ts';

const USAGE =
  'flotilla explain <kind>/<name> [-n NS], e.g. flotilla explain deploy/nginx (or: explain deployment nginx)';

/** `flotilla explain`: why a template went where it went. Takes the resource words get, describe and blame take. */
export async function explainCommand(
  opts: CommonOptions & { words: readonly string[]; namespace: string | undefined; outDir?: string | undefined },
): Promise<number> {
  if (opts.words.length === 0) throw new UsageError(`explain needs a template: ${USAGE}`);
  const repo = await openRepo(opts.repo);
  // As the dashboard's object view: one template scheduled from the rendered branch's index costs the policies and
  // clusters, where the whole commit rendered in memory does not fit in memory at 50,000 templates. A cluster state
  // from a file, or a previous result from a folder, is the whole-commit render's to start from.
  const answer =
    (opts.clusterStatusFile || opts.outDir ? null : await explainFromIndex(repo, opts)) ??
    (await explainWholeCommit(repo, opts));
  if ('error' in answer) {
    opts.err(answer.error);
    return 1;
  }
  const { model, explanation } = answer;
  const source = describeTemplateUnit(model, model.templates.get(refKey(explanation.ref)));
  const shown = source ? { ...explanation, source } : explanation;
  if (opts.output === 'json') opts.out(`${JSON.stringify(shown, null, 2)}\n`);
  else if (opts.output === 'yaml') opts.out(stringify(shown, GO_YAML_DOCUMENT_OPTIONS));
  else
    opts.out(
      terminalSafe(formatExplanation(explanation, [...model.clusters.keys()].sort(), source), { multiline: true }),
    );
  return 0;
}

type ExplainOptions = CommonOptions & { words: readonly string[]; namespace: string | undefined; outDir?: string };
type Answer = { model: ConfigModel; explanation: TemplateExplanation } | { error: string };

/** The words as one template kind and name, against the kinds the fleet's templates have. */
function readWords(opts: ExplainOptions, kinds: ReadonlyArray<{ apiVersion: string; kind: string }>) {
  const { type, word, name } = parseResourceWords(opts.words, USAGE, kinds);
  if (type.type !== 'templates' || !name) throw new UsageError(`explain names one template by <kind>/<name>: ${USAGE}`);
  const ofType = (ref: { apiVersion: string; kind: string }) => takesKind(type, ref);
  return { type, word, name, ofType };
}

/**
 * Of the templates the words name (any namespace), the one explained: with -n, that namespace's; else, as kubectl, the
 * default namespace's first, and a name found only elsewhere when it is in one namespace alone.
 */
function pickNamed<T extends { ref: ObjectRef }>(
  opts: ExplainOptions,
  named: readonly T[],
): T | { error: string } | undefined {
  const matches = named.filter((t) => opts.namespace === undefined || t.ref.namespace === opts.namespace);
  const picked =
    matches.find((t) => t.ref.namespace === 'default' || t.ref.namespace === '') ??
    (matches.length === 1 ? matches[0] : undefined);
  if (picked || matches.length <= 1) return picked;
  const namespaces = [...new Set(matches.map((t) => t.ref.namespace))].sort();
  return {
    error: `flotilla: ${opts.words.join(' ')} is a template in ${namespaces.length} namespaces (${namespaces.join(', ')}) at ${opts.rev}; fix: pass -n with one of them\n`,
  };
}

/** No template of that name: those of the name in other kinds or namespaces, else the nearest name. */
function noTemplate(
  opts: ExplainOptions,
  words: ReturnType<typeof readWords>,
  templates: Iterable<{ ref: ObjectRef }>,
): { error: string } {
  const hint = missingTemplateHint(templates, { ...words.type, name: words.name, namespace: opts.namespace });
  const guess = hint.nearest ? `; did you mean ${words.word}/${hint.nearest}?` : '';
  return {
    error: `flotilla: no template ${opts.words.join(' ')}${opts.namespace ? ` in namespace ${opts.namespace}` : ''} at ${opts.rev}${hint.sameName.length ? `; did you mean: ${hint.sameName.join(', ')}` : guess}\n`,
  };
}

/**
 * The template found through the rendered branch's index (or among the files changed since its render), explained
 * from there (dashboard/explainTemplate.ts). null when there is no render to start from: the whole commit is rendered.
 */
async function explainFromIndex(repo: GitRepo, opts: ExplainOptions): Promise<Answer | null> {
  const fleet = await readFleet(repo, {
    rev: opts.rev,
    renderedRef: opts.outputRef,
    statusRef: DEFAULT_STATUS_REF,
    reader: 'flotilla explain',
    ...(opts.limits ? { limits: sourceLimitsOf(opts.limits) } : {}),
  });
  if (!fleet.rendered) return null;
  const since = await loadTemplatesOfKinds(fleet, () => false).catch(readBy);
  if (since.full) return null;
  const changed = [...since.model.templates.values()];
  const words = readWords(opts, [...(await fleet.rendered.index.kinds()), ...changed.map((t) => t.ref)]);
  // The index's templates, but those of the files the commit changed since: the model has what those define now.
  const current = (keys: readonly string[]) => keys.filter((key) => !since.stale.has(key)).map(parseRefKey);
  const named = new Map<string, ObjectRef>();
  for (const ref of current(await fleet.rendered.index.templateKeysOfKinds(words.ofType)))
    if (ref.name === words.name) named.set(refKey(ref), ref);
  for (const t of changed) if (words.ofType(t.ref) && t.ref.name === words.name) named.set(refKey(t.ref), t.ref);
  const picked = pickNamed(
    opts,
    [...named.values()].map((ref) => ({ ref })),
  );
  if (picked && 'error' in picked) return picked;
  const hint = async () => [
    ...changed,
    ...current((await fleet.rendered?.index.templateKeys()) ?? []).map((ref) => ({ ref })),
  ];
  if (!picked) return noTemplate(opts, words, await hint());
  const refs = { source: opts.rev, rendered: opts.outputRef, status: DEFAULT_STATUS_REF };
  const one = await explainTemplateIn(repo, refKey(picked.ref), refs, new Date(), fleet.limits).catch(readBy);
  if (!one) return null;
  return one.explanation ? { model: one.model, explanation: one.explanation } : noTemplate(opts, words, await hint());
}

/** Every template of the commit rendered in memory, and the one the words name picked from them. */
async function explainWholeCommit(repo: GitRepo, opts: ExplainOptions): Promise<Answer> {
  const clusterStatus = opts.clusterStatusFile ? await observedClusters(repo, opts.clusterStatusFile) : undefined;
  const { model, output } = await readExplanations(repo, {
    rev: opts.rev,
    outputRef: opts.outputRef,
    ...(opts.outDir ? { previous: await readOutputFolder(opts.outDir) } : {}),
    ...(clusterStatus ? { clusterStatus } : {}),
    ...(opts.limits ? { limits: opts.limits } : {}),
    now: new Date(),
  }).catch(readBy);
  const words = readWords(
    opts,
    [...model.templates.values()].map((t) => t.ref),
  );
  const picked = pickNamed(
    opts,
    [...output.explanations.values()].filter((e) => words.ofType(e.ref) && e.ref.name === words.name),
  );
  if (picked && 'error' in picked) return picked;
  return picked ? { model, explanation: picked } : noTemplate(opts, words, model.templates.values());
}

/** Explain renders in memory and writes nothing: it says that it cannot read the commit, not what a render keeps. */
function readBy(err: unknown): never {
  throw err instanceof SourceTooLargeError ? err.readBy('flotilla explain') : err;
}

export function formatExplanation(e: TemplateExplanation, clusters: readonly string[], source?: string): string {
  const lines = [`${describeRef(e.ref)} (${e.ref.apiVersion})`];
  // A Helm chart's or Kustomize folder's object: which unit, release and value files produced it.
  if (source) lines.push(`  source: ${source}`);
  if (e.held) lines.push(`  held: ${e.held}`);
  lines.push(`  policy: ${e.policy ?? '(none)'}`, `  why: ${e.policyReason}`);
  if (e.schedule)
    lines.push(
      `  scheduling: ${e.schedule.status}${e.schedule.message ? ` — ${e.schedule.message}` : ''}${e.schedule.detail ? ` (${e.schedule.detail})` : ''}`,
    );
  if (e.schedule?.affinityName) lines.push(`  affinity term: ${e.schedule.affinityName}`);
  if (e.rescheduledBy)
    lines.push(`  rescheduled: fresh mode, requested by WorkloadRebalancer ${e.rescheduledBy.join(', ')}`);
  if (e.requiredBy?.length) lines.push(`  required by: ${e.requiredBy.join(', ')}`);
  // The REPLICAS column is what a create sends: after that each member's HPA owns the count (retain-replicas).
  if (e.scaledBy?.length)
    lines.push(
      `  replicas: governed by ${e.scaledBy.map((k) => describeRef(parseRefKey(k))).join(', ')} on each member (resourcetemplate.karmada.io/retain-replicas); the count below is what a create sends`,
    );
  if (e.autoscaledBy) lines.push(`  replicas: governed by ${e.autoscaledBy} (status branch), divided below`);
  const rows: string[][] = [['CLUSTER', 'RESULT', 'REPLICAS', 'WHY']];
  const byCluster = new Map((e.schedule?.explanation ?? []).map((x) => [x.cluster, x]));
  for (const c of clusters) {
    const target = e.clusters.find((t) => t.name === c);
    const x = byCluster.get(c);
    if (x?.outcome === 'filtered') rows.push([c, 'filtered', '-', `${x.plugin}: ${x.detail ?? x.reason}`]);
    else if (target)
      rows.push([
        c,
        'selected',
        String(target.replicas),
        x ? x.why : e.requiredBy?.length ? 'dependency of a workload placed here' : e.policyReason,
      ]);
    else rows.push([c, 'not selected', '-', x ? x.why : '']);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows)
    lines.push(`  ${r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('   ')}`);
  return `${lines.join('\n')}\n`;
}
