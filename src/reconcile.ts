// One reconcile pass, top to bottom: commits -> rendered output -> members -> status committed back.
import type { GitRepo } from './commits/types.ts';
import { applyRendered, type RenderedDelivery } from './deliveries/applyRendered.ts';
import type { KubeTarget } from './deliveries/KubeTarget.ts';
import { syncRepo } from './outputs/syncRepo.ts';
import type { RenderReport } from './outputs/renderRevision.ts';
import { collectClusterStatus } from './statuses/collectClusterStatus.ts';
import { writeStatus } from './statuses/writeStatus.ts';
import type { ClusterReport } from './statuses/buildStatusFiles.ts';

export interface ReconcileTarget {
  repo: GitRepo;
  sourceRef: string;
  outputRef: string;
  statusRef?: string;
  /** The members this process delivers to (Push mode, or one cluster for a Pull agent). */
  clusters: ReadonlyMap<string, KubeTarget>;
  /** Render source commits first. A Pull agent only applies what the reconciler rendered. */
  render: boolean;
  /** One structured line per step, naming the source commit. */
  log: (entry: Record<string, unknown>) => void;
}

export interface ReconcileResult {
  rendered: RenderReport[];
  delivery: RenderedDelivery | null;
  statusCommit: string | null;
  writes: number;
}

export async function reconcileOnce(t: ReconcileTarget): Promise<ReconcileResult> {
  const rendered: RenderReport[] = [];
  if (t.render) {
    const started = performance.now();
    const sync = await syncRepo(t.repo, { sourceRef: t.sourceRef, outputRef: t.outputRef });
    rendered.push(...sync.reports);
    for (const r of sync.reports) {
      t.log({ step: 'render', sourceCommit: r.sourceCommit, outputCommit: r.outputCommit, files: r.filesWritten,
        errors: r.problems.filter((p) => p.severity === 'error').length, ms: Math.round(performance.now() - started) });
    }
    if (sync.forcePushed) t.log({ step: 'render', warning: `${t.sourceRef} was force-pushed; rendered its new head` });
  }
  let delivery: RenderedDelivery | null = null;
  try {
    const started = performance.now();
    delivery = await applyRendered({ repo: t.repo, outputRef: t.outputRef, clusters: t.clusters, ...(t.statusRef ? { statusRef: t.statusRef } : {}) });
    for (const [name, d] of delivery.clusters) {
      const counts: Record<string, number> = {};
      for (const r of d.results) counts[r.action] = (counts[r.action] ?? 0) + 1;
      t.log({ step: 'apply', cluster: name, sourceCommit: delivery.sourceCommit, writes: d.writes, ...counts, ms: Math.round(performance.now() - started) });
    }
  } catch (err) {
    // No rendered branch yet: nothing to deliver, and nothing to prune.
    t.log({ step: 'apply', skipped: (err as Error).message });
  }
  const reports: ClusterReport[] = await Promise.all([...t.clusters].map(async ([cluster, kube]) => {
    const status = await collectClusterStatus(kube).catch(() => undefined);
    const d = delivery?.clusters.get(cluster);
    return { cluster, ...(status ? { status } : {}), ...(d ? { delivery: d } : {}) };
  }));
  const written = await writeStatus({
    repo: t.repo, reports, ...(t.statusRef ? { statusRef: t.statusRef } : {}),
    ...(delivery ? { renderedCommit: delivery.renderedCommit } : {}),
    ...(delivery?.sourceCommit ? { sourceCommit: delivery.sourceCommit } : {}),
  });
  if (written.commit) t.log({ step: 'status', sourceCommit: delivery?.sourceCommit, statusCommit: written.commit, paths: written.changedPaths.length });
  const writes = [...(delivery?.clusters.values() ?? [])].reduce((s, d) => s + d.writes, 0);
  return { rendered, delivery, statusCommit: written.commit, writes };
}
