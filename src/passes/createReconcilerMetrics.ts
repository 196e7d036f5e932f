import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ReconcileResult, StatusPassResult } from '../reconcile.ts';
import type { ClusterReport } from '../statuses/buildStatusFiles.ts';
import { CLUSTER_READY } from '../api/conditions.ts';

/** Karmada's label for a member cluster (pkg/metrics/cluster.go). */
const MEMBER = 'member_cluster';
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export interface PassRecord {
  ok: boolean;
  durationMs: number;
  result?: ReconcileResult;
  /** Commit time (seconds) of the source commit the members now run. */
  sourceCommitTime?: number;
}

export interface ReconcilerMetrics {
  readonly registry: Registry;
  recordPass(pass: PassRecord): void;
  /** A status pass (probe and read back, no apply). */
  recordStatusPass(pass: { ok: boolean; durationMs: number; result?: StatusPassResult }): void;
  recordTrigger(trigger: string): void;
  recordWebhook(forge: string, result: 'accepted' | 'unauthorized' | 'duplicate' | 'too_large'): void;
  forgetCluster(cluster: string): void;
}

/**
 * The reconciler's /metrics. Names follow Karmada (cluster_ready_state, cluster_node_number,
 * work_sync_workload_duration_seconds, create/update/delete_resource_to_cluster; label member_cluster) and Flux
 * (gotk_reconcile_duration_seconds{kind,name,namespace}) where the meaning is the same; the rest is flotilla_*.
 */
export function createReconcilerMetrics(name: string): ReconcilerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const reg = { registers: [registry] };
  const reconcileDuration = new Histogram({
    ...reg,
    name: 'gotk_reconcile_duration_seconds',
    help: 'The duration in seconds of a reconciliation (one pass: sync, render, apply, status).',
    labelNames: ['kind', 'name', 'namespace'],
    buckets: BUCKETS,
  });
  const passes = new Counter({
    ...reg,
    name: 'flotilla_reconcile_passes_total',
    help: 'Reconcile passes, by result (failure: the pass stopped with an error).',
    labelNames: ['result'],
  });
  const rendered = new Counter({
    ...reg,
    name: 'flotilla_rendered_commits_total',
    help: 'Source commits rendered onto the output branch.',
  });
  const statusCommits = new Counter({
    ...reg,
    name: 'flotilla_status_commits_total',
    help: 'Commits made on the status branch (none when nothing changed).',
  });
  const ready = new Gauge({
    ...reg,
    name: 'cluster_ready_state',
    help: 'State of the cluster (1 if ready, 0 otherwise).',
    labelNames: [MEMBER],
  });
  const nodes = new Gauge({
    ...reg,
    name: 'cluster_node_number',
    help: 'Number of nodes in the cluster.',
    labelNames: [MEMBER],
  });
  const readyNodes = new Gauge({
    ...reg,
    name: 'cluster_ready_node_number',
    help: 'Number of ready nodes in the cluster.',
    labelNames: [MEMBER],
  });
  const workloadSync = new Histogram({
    ...reg,
    name: 'work_sync_workload_duration_seconds',
    help: "Duration in seconds to sync the workload to a target cluster. By the result, 'error' means a work failed to sync workloads. Otherwise 'success'.",
    labelNames: ['result'],
    buckets: BUCKETS,
  });
  const created = new Counter({
    ...reg,
    name: 'create_resource_to_cluster',
    help: 'Number of creation operations against a target member cluster.',
    labelNames: ['result', 'apiversion', 'kind', MEMBER, 'recreate'],
  });
  const updated = new Counter({
    ...reg,
    name: 'update_resource_to_cluster',
    help: 'Number of updating operation of the resource to a target member cluster.',
    labelNames: ['result', 'apiversion', 'kind', MEMBER, 'operationResult'],
  });
  const deleted = new Counter({
    ...reg,
    name: 'delete_resource_from_cluster',
    help: 'Number of deletion operations against a target member cluster.',
    labelNames: ['result', 'apiversion', 'kind', MEMBER],
  });
  const writes = new Counter({
    ...reg,
    name: 'flotilla_apply_writes_total',
    help: 'HTTP writes (create, patch, delete) sent to a member by the applier.',
    labelNames: [MEMBER],
  });
  const failures = new Counter({
    ...reg,
    name: 'flotilla_apply_failures_total',
    help: 'Objects that failed to apply or hit a conflict on a member.',
    labelNames: [MEMBER],
  });
  const appliedTime = new Gauge({
    ...reg,
    name: 'flotilla_last_applied_source_commit_timestamp_seconds',
    help: 'Commit time of the source commit last applied to the members.',
  });
  const appliedInfo = new Gauge({
    ...reg,
    name: 'flotilla_last_applied_info',
    help: 'The source and rendered commit last applied (value always 1).',
    labelNames: ['source_commit', 'rendered_commit'],
  });
  const statusPasses = new Counter({
    ...reg,
    name: 'flotilla_status_passes_total',
    help: 'Status passes (probe members, read back their objects, write the status branch; no apply), by result.',
    labelNames: ['result'],
  });
  const statusPassDuration = new Histogram({
    ...reg,
    name: 'flotilla_status_pass_duration_seconds',
    help: 'The duration in seconds of a status pass.',
    buckets: BUCKETS,
  });
  const triggers = new Counter({
    ...reg,
    name: 'flotilla_triggers_total',
    help: 'What asked for a pass: push (local refs changed), fetch, webhook, resync, start; status-update (the cadence), catch-up, ready-flip, failover-check, graceful-eviction, application-failover, cluster-state, drift, pending-binding, endpoints.',
    labelNames: ['trigger'],
  });
  const webhooks = new Counter({
    ...reg,
    name: 'flotilla_webhook_deliveries_total',
    help: 'Webhook deliveries by forge and outcome.',
    labelNames: ['forge', 'result'],
  });

  const recordClusters = (reports: readonly ClusterReport[]) => {
    for (const report of reports) {
      const cluster = report.cluster;
      const condition = report.status?.conditions?.find((c) => c.type === CLUSTER_READY);
      if (condition) ready.set({ [MEMBER]: cluster }, condition.status === 'True' ? 1 : 0);
      const summary = report.status?.nodeSummary;
      // A count of 0 is not written (omitempty): a summary without it says none.
      if (summary) nodes.set({ [MEMBER]: cluster }, summary.totalNum ?? 0);
      if (summary) readyNodes.set({ [MEMBER]: cluster }, summary.readyNum ?? 0);
    }
  };

  return {
    registry,
    recordStatusPass({ ok, durationMs, result }) {
      statusPassDuration.observe(durationMs / 1000);
      statusPasses.inc({ result: ok ? 'success' : 'failure' });
      if (!result) return;
      if (result.statusCommit) statusCommits.inc();
      recordClusters(result.reports);
    },
    recordPass({ ok, durationMs, result, sourceCommitTime }) {
      reconcileDuration.observe({ kind: 'Flotilla', name, namespace: '' }, durationMs / 1000);
      passes.inc({ result: ok ? 'success' : 'failure' });
      if (!result) return;
      rendered.inc(result.rendered.filter((r) => r.outputCommit).length);
      if (result.statusCommit) statusCommits.inc();
      recordClusters(result.reports);
      for (const report of result.reports) {
        const cluster = report.cluster;
        const d = report.delivery;
        if (!d) continue;
        const bad = d.results.filter((r) => r.action === 'failed' || r.action === 'conflict').length;
        workloadSync.observe(
          { result: bad > 0 || d.notes.some((n) => n.startsWith('apply failed')) ? 'error' : 'success' },
          d.durationMs / 1000,
        );
        if (d.writes > 0) writes.inc({ [MEMBER]: cluster }, d.writes);
        if (bad > 0) failures.inc({ [MEMBER]: cluster }, bad);
        for (const r of d.results) {
          const labels = { apiversion: r.ref.apiVersion, kind: r.ref.kind, [MEMBER]: cluster };
          if (r.action === 'created') created.inc({ ...labels, result: 'success', recreate: 'false' });
          else if (r.action === 'configured' || r.action === 'drift-repaired')
            updated.inc({ ...labels, result: 'success', operationResult: 'updated' });
          else if (r.action === 'pruned') deleted.inc({ ...labels, result: 'success' });
          else if (r.action === 'failed')
            r.prune
              ? deleted.inc({ ...labels, result: 'error' })
              : updated.inc({ ...labels, result: 'error', operationResult: 'error' });
        }
      }
      if (result.delivery?.sourceCommit) {
        appliedInfo.reset();
        appliedInfo.set(
          { source_commit: result.delivery.sourceCommit, rendered_commit: result.delivery.renderedCommit },
          1,
        );
        if (sourceCommitTime !== undefined) appliedTime.set(sourceCommitTime);
      }
    },
    recordTrigger(trigger) {
      triggers.inc({ trigger });
    },
    recordWebhook(forge, result) {
      webhooks.inc({ forge, result });
    },
    forgetCluster(cluster) {
      for (const g of [ready, nodes, readyNodes]) g.remove({ [MEMBER]: cluster });
    },
  };
}
