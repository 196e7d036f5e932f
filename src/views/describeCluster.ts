import type { Cluster } from '../api/cluster.ts';
import type { CommitInfo } from '../commits/types.ts';
import { formatTaint } from '../registrations/editClusterFile.ts';
import type { AppliedRecord } from '../branches/status/statusFiles.ts';
import { alignTabs } from '../text/alignTabs.ts';
import { commitEvents } from './commitEvents.ts';
import { printable, printTable } from './printTable.ts';

export interface ClusterDescription {
  cluster: Cluster;
  file: string;
  applied?: AppliedRecord;
  /** The cluster's folder at the rendered head equals the one it applied. */
  upToDate?: boolean;
  /** Objects rendered for it: namespace, kind, name. */
  placed: { namespace: string; kind: string; name: string }[];
  /** Commits of the source branch that changed its registration, newest first. */
  history: CommitInfo[];
  now: Date;
}

/** kubectl describe for a Cluster: registration, taints, status, what is placed there, and its commits as events. Pure. */
export function describeCluster(d: ClusterDescription): string {
  const c = d.cluster;
  const s = c.status;
  const field = (label: string, value: string) => `${`${label}:`.padEnd(22)}${value}`;
  const list = (label: string, values: string[]) =>
    values.length
      ? values.map((v, i) => (i === 0 ? field(label, v) : `${' '.repeat(22)}${v}`))
      : [field(label, '<none>')];
  const lines = [
    field('Name', c.metadata.name ?? ''),
    ...list(
      'Labels',
      Object.entries(c.metadata.labels ?? {}).map(([k, v]) => `${k}=${v}`),
    ),
    ...list(
      'Annotations',
      Object.entries(c.metadata.annotations ?? {}).map(([k, v]) => `${k}: ${v}`),
    ),
    field('Registered In', d.file),
    field('Sync Mode', c.spec?.syncMode ?? 'Push'),
    field('Provider', c.spec?.provider ?? '<none>'),
    field('Region', c.spec?.region ?? '<none>'),
    field('Zones', (c.spec?.zones ?? (c.spec?.zone ? [c.spec.zone] : [])).join(', ') || '<none>'),
    field(
      'Kubeconfig',
      c.spec?.kubeconfigRef
        ? `${c.spec.kubeconfigRef.path ?? '<default>'} (context ${c.spec.kubeconfigRef.context ?? '<current>'})`
        : (c.spec?.apiEndpoint ?? '<none>'),
    ),
    ...list(
      'Taints',
      (c.spec?.taints ?? []).map((t) => `${formatTaint(t)}${t.timeAdded ? ` (since ${t.timeAdded})` : ''}`),
    ),
    field(
      'Unschedulable',
      String(
        (c.spec?.taints ?? []).some((t) => t.key === 'cluster.karmada.io/unschedulable' && t.effect === 'NoSchedule'),
      ),
    ),
    field('Kubernetes Version', s?.kubernetesVersion ?? '<unknown>'),
  ];
  lines.push('Conditions:');
  if (s?.conditions?.length) {
    lines.push(
      indent(
        printTable(
          ['Type', 'Status', 'LastTransitionTime', 'Reason', 'Message'],
          s.conditions.map((x) => [
            x.type,
            x.status,
            x.lastTransitionTime ?? '',
            x.reason ?? '',
            printable(x.message ?? ''),
          ]),
        ),
      ),
    );
  } else lines.push('  <none>: no status collected yet (flotilla/status has no file for it)');
  if (s?.nodeSummary)
    lines.push(field('Nodes', `${s.nodeSummary.readyNum ?? 0} ready of ${s.nodeSummary.totalNum ?? 0}`));
  const r = s?.resourceSummary;
  if (r?.allocatable) {
    lines.push('Resource Summary:');
    const names = Object.keys(r.allocatable).sort();
    lines.push(
      indent(
        printTable(
          ['Resource', 'Allocatable', 'Allocated', 'Allocating'],
          names.map((n) => [
            n,
            String(r.allocatable?.[n] ?? '0'),
            String(r.allocated?.[n] ?? '0'),
            String(r.allocating?.[n] ?? '0'),
          ]),
        ),
      ),
    );
  }
  if (d.applied) {
    lines.push(
      field(
        'Applied',
        `rendered ${d.applied.renderedCommit.slice(0, 12)}${d.applied.sourceCommit ? ` (source ${d.applied.sourceCommit.slice(0, 12)})` : ''}${d.applied.failed ? `, ${d.applied.failed} object(s) failed` : ''}; ${d.upToDate ? 'up to date' : 'a newer render is waiting'}`,
      ),
    );
  } else lines.push(field('Applied', '<nothing recorded yet>'));
  lines.push(`Placed Here (${d.placed.length}):`);
  if (d.placed.length)
    lines.push(
      indent(
        printTable(
          ['Namespace', 'Kind', 'Name'],
          d.placed.map((p) => [p.namespace || '<none>', p.kind, p.name]),
        ),
      ),
    );
  lines.push(alignTabs(commitEvents(d.history, d.now).join('\n')));
  return `${lines.join('\n')}\n`;
}

function indent(table: string): string {
  return table
    .trimEnd()
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
