import { describeTemplateUnit } from '../units/describeUnit.ts';
import { stringify } from 'yaml';
import { GO_YAML_DOCUMENT_OPTIONS } from '../yaml/goYamlSchema.ts';
import { describeRef, groupOf, parseRefKey, refKey } from '../api/kinds.ts';
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
  const clusterStatus = opts.clusterStatusFile ? await observedClusters(repo, opts.clusterStatusFile) : undefined;
  const { model, output } = await readExplanations(repo, {
    rev: opts.rev,
    outputRef: opts.outputRef,
    ...(opts.outDir ? { previous: await readOutputFolder(opts.outDir) } : {}),
    ...(clusterStatus ? { clusterStatus } : {}),
    ...(opts.limits ? { limits: opts.limits } : {}),
    now: new Date(),
  }).catch((err: unknown) => {
    // Explain renders in memory and writes nothing: it says that it cannot read the commit, not what a render keeps.
    throw err instanceof SourceTooLargeError ? err.readBy('flotilla explain') : err;
  });
  const {
    type,
    word: typedWord,
    name,
  } = parseResourceWords(
    opts.words,
    USAGE,
    [...model.templates.values()].map((t) => t.ref),
  );
  if (type.type !== 'templates' || !name) throw new UsageError(`explain names one template by <kind>/<name>: ${USAGE}`);
  const matches = [...output.explanations.values()].filter(
    (e) =>
      e.ref.kind === type.kind &&
      (type.group === undefined || groupOf(e.ref.apiVersion) === type.group) &&
      e.ref.name === name &&
      (opts.namespace === undefined ? true : e.ref.namespace === opts.namespace),
  );
  // As kubectl, the default namespace first; a name found only elsewhere is taken when it is in one namespace alone.
  const explanation =
    matches.find((e) => e.ref.namespace === 'default' || e.ref.namespace === '') ??
    (matches.length === 1 ? matches[0] : undefined);
  if (!explanation && matches.length > 1) {
    const namespaces = [...new Set(matches.map((e) => e.ref.namespace))].sort();
    opts.err(
      `flotilla: ${opts.words.join(' ')} is a template in ${namespaces.length} namespaces (${namespaces.join(', ')}) at ${opts.rev}; fix: pass -n with one of them\n`,
    );
    return 1;
  }
  if (!explanation) {
    const hint = missingTemplateHint(model.templates.values(), { ...type, name, namespace: opts.namespace });
    const guess = hint.nearest ? `; did you mean ${typedWord}/${hint.nearest}?` : '';
    opts.err(
      `flotilla: no template ${opts.words.join(' ')}${opts.namespace ? ` in namespace ${opts.namespace}` : ''} at ${opts.rev}${hint.sameName.length ? `; did you mean: ${hint.sameName.join(', ')}` : guess}\n`,
    );
    return 1;
  }
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
