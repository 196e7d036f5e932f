import { stringify } from 'yaml';
import { GO_YAML_STRINGIFY_OPTIONS } from '../yaml/goYamlSchema.ts';
import type { ResourceBinding } from '../api/binding.ts';
import type { ObjectRef } from '../api/kinds.ts';
import { historySubject, type HistoryEntry } from '../audits/readObjectHistory.ts';
import { isAwaitingApply, type TemplateStatusFile } from '../branches/status/statusFiles.ts';
import type { IndexEntry } from '../branches/rendered/outputIndex.ts';
import { printable, printTable } from './printTable.ts';

export interface TemplateDescription {
  ref: ObjectRef;
  /** The ResourceBinding on the rendered branch; absent for an object no policy placed. */
  binding?: ResourceBinding;
  bindingPath?: string;
  index?: IndexEntry;
  /** The Helm or Kustomize unit that output it (describeUnit), absent for a template of a plain file. */
  unit?: string;
  status?: TemplateStatusFile;
  /** Output commits that changed it, newest first (flotilla history). */
  history: HistoryEntry[];
  /** The FederatedHPA or CronFederatedHPA decision on the status branch that sets its replicas, and Git's count. */
  autoscaled?: { replicas: number; by: string; inGit?: number };
  /** A Secret's type and the byte size of each key; its values are never read into a description. */
  secret?: { type: string; keys: [string, number][] };
}

/** kubectl describe for a template and its binding: placement, per-cluster replicas and status, and the commits as events. Pure. */
export function describeTemplate(d: TemplateDescription): string {
  const field = (label: string, value: string) => `${`${label}:`.padEnd(16)}${value}`;
  const b = d.binding;
  const lines = [
    field('Name', d.ref.name),
    ...(d.ref.namespace ? [field('Namespace', d.ref.namespace)] : []),
    field('Kind', `${d.ref.kind} (${d.ref.apiVersion})`),
    field('Source File', d.index?.file ?? '<unknown>'),
    ...(d.unit ? [field('Unit', d.unit)] : []),
    field(
      'Binding',
      b
        ? `${b.kind} ${b.metadata.namespace ? `${b.metadata.namespace}/` : ''}${b.metadata.name} (${d.bindingPath})`
        : '<none>: no policy places it',
    ),
    field('Policy', policyName(b?.metadata.annotations?.['flotilla.io/policy'] ?? d.index?.policy)),
  ];
  if (d.secret) {
    lines.push(field('Type', d.secret.type), 'Data', '====');
    if (d.secret.keys.length)
      lines.push(...d.secret.keys.map(([k, size]) => `${`${printable(k)}:`.padEnd(16)}${size} bytes`));
    else lines.push('  <none>');
  }
  const scaledBy = d.index?.scaledBy ?? [];
  const members = d.status?.status?.replicas;
  if (scaledBy.length) {
    // The members' HPAs own the count (retain-replicas): what they run, with Git's count as what a create sends.
    const governed = `governed by ${scaledBy.map(hpaName).join(', ')} on each member`;
    const git = b?.spec.replicas !== undefined ? `; ${b.spec.replicas} in Git` : '';
    lines.push(
      field(
        'Replicas',
        typeof members === 'number'
          ? `${members} on the members (${governed}${git})`
          : `${b?.spec.replicas ?? '-'} (${governed})`,
      ),
    );
  } else if (d.autoscaled) {
    // Karmada's autoscaler writes its count into the template; Flotilla's stays on the status branch.
    const git = d.autoscaled.inGit !== undefined ? `; ${d.autoscaled.inGit} in Git` : '';
    lines.push(field('Replicas', `${d.autoscaled.replicas} (governed by ${d.autoscaled.by}${git})`));
  } else if (b?.spec.replicas !== undefined) lines.push(field('Replicas', String(b.spec.replicas)));
  if (b?.spec.placement) {
    lines.push('Placement:');
    lines.push(
      stringify(b.spec.placement, { ...GO_YAML_STRINGIFY_OPTIONS, lineWidth: 0 })
        .trimEnd()
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n'),
    );
  }
  const byCluster = new Map((d.status?.aggregatedStatus ?? []).map((a) => [a.clusterName, a]));
  const targets = new Map<string, string>();
  for (const c of b?.spec.clusters ?? []) {
    const live = byCluster.get(c.name)?.status?.replicas;
    targets.set(c.name, scaledBy.length && typeof live === 'number' ? String(live) : String(c.replicas));
  }
  for (const c of d.index?.clusters ?? []) if (!targets.has(c)) targets.set(c, '-');
  for (const c of byCluster.keys()) if (!targets.has(c)) targets.set(c, '(leaving)');
  lines.push('Clusters:');
  if (targets.size) {
    lines.push(
      indent(
        printTable(
          ['Cluster', 'Replicas', 'Applied', 'Health', 'Message'],
          [...targets]
            .sort(([a], [z]) => (a < z ? -1 : 1))
            .map(([name, replicas]) => {
              const s = byCluster.get(name);
              return [
                name,
                replicas,
                // A target that has reported nothing yet: Karmada's Work there has no Applied condition at all.
                s && !isAwaitingApply(s) ? String(s.applied) : 'Unknown',
                s?.health === 'Unhealthy' && s.unhealthySince
                  ? `Unhealthy since ${s.unhealthySince}`
                  : (s?.health ?? 'Unknown'),
                printable(s?.message ?? ''),
              ];
            }),
        ),
      ),
    );
  } else lines.push('  <none>');
  const tasks = b?.spec.gracefulEvictionTasks ?? [];
  if (tasks.length) {
    // Why a cluster is leaving the result while it keeps its copy: the binding's tasks, which kubectl describe of a
    // ResourceBinding would list with its spec.
    lines.push('Graceful Eviction Tasks:');
    lines.push(
      indent(
        printTable(
          ['From', 'Reason', 'Producer', 'Purge Mode', 'Created', 'Message'],
          tasks.map((t) => [
            t.fromCluster,
            t.reason,
            t.producer,
            t.purgeMode,
            t.creationTimestamp,
            printable(t.message ?? ''),
          ]),
        ),
      ),
    );
  }
  const conditions = [...(b?.status?.conditions ?? []), ...(d.status?.conditions ?? [])];
  lines.push('Conditions:');
  if (conditions.length)
    lines.push(
      indent(
        printTable(
          ['Type', 'Status', 'Reason', 'Message'],
          conditions.map((c) => [c.type, c.status, c.reason ?? '', printable(c.message ?? '')]),
        ),
      ),
    );
  else lines.push('  <none>');
  if (d.status?.status && Object.keys(d.status.status).length) {
    lines.push('Aggregated Status:');
    lines.push(
      Object.entries(d.status.status)
        .map(([k, v]) => `  ${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
        .join('\n'),
    );
  }
  lines.push('Events:');
  if (d.history.length) {
    lines.push(
      indent(
        printTable(
          ['Date', 'Source', 'PR', 'Author', 'Clusters', 'Message'],
          d.history
            .slice(0, 10)
            .map((h) => [
              h.date,
              h.sourceCommit?.slice(0, 12) ?? `(hand ${h.outputCommit.slice(0, 7)})`,
              h.pullRequest !== undefined ? `#${h.pullRequest}` : '-',
              printable(h.author),
              h.changes.map((c) => `${c.cluster ?? 'binding'} ${c.change}`).join(', '),
              printable(historySubject(h)),
            ]),
        ),
      ),
    );
  } else lines.push('  <none>');
  return `${lines.join('\n')}\n`;
}

/** `autoscaling/v2/HorizontalPodAutoscaler/default/web` → `HorizontalPodAutoscaler default/web`. */
function hpaName(key: string): string {
  const [kind, namespace, name] = key.split('/').slice(-3);
  return `${kind} ${namespace ? `${namespace}/` : ''}${name}`;
}

/** `policy.karmada.io/v1alpha1/PropagationPolicy/default/web` → `PropagationPolicy default/web`. */
function policyName(key: string | undefined): string {
  if (!key) return '<none>';
  const [kind, namespace, name] = key.split('/').slice(-3);
  return `${kind} ${namespace ? `${namespace}/` : ''}${name}`;
}

function indent(table: string): string {
  return table
    .trimEnd()
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
