import type { ReconcileResult, StatusPassResult } from '../reconcile.ts';
import type { ReconcilerMetrics } from './createReconcilerMetrics.ts';

export interface PassSummary {
  reasons: readonly string[];
  ok: boolean;
  error?: string;
  result?: ReconcileResult;
  ms: number;
}

export interface StatusPassSummary {
  reasons: readonly string[];
  ok: boolean;
  error?: string;
  result?: StatusPassResult;
  ms: number;
}

/** What a pass produced, as the reconciler records it. */
export type PassOutcome =
  | {
      kind: 'full';
      summary: PassSummary /** Commit time (seconds) of the source commit the members now run. */;
      sourceCommitTime?: number;
    }
  | { kind: 'status'; summary: StatusPassSummary };

/** What the reconciler shows of its passes: the handle's lastPass and lastStatusPass, readiness, webhook replay. */
export interface PassRecord {
  lastPass: PassSummary | undefined;
  lastStatusPass: StatusPassSummary | undefined;
  /** The source commit the last successful full pass rendered: a webhook naming it again starts nothing. */
  processedSource: string | undefined;
}

/**
 * The one place a pass's outcome is recorded, as Flux's deferred finalizeStatus is for a reconcile: the record the
 * handle and the endpoints read, the metrics, and the pass's log line (with what comes next, when known).
 */
export function recordPassOutcome(
  into: PassRecord,
  sinks: { metrics: ReconcilerMetrics; log: (entry: Record<string, unknown>) => void },
  outcome: PassOutcome,
  next?: string,
): void {
  const { metrics, log } = sinks;
  if (outcome.kind === 'full') {
    const { summary: pass, sourceCommitTime } = outcome;
    into.lastPass = pass;
    if (!pass.ok || !pass.result) {
      metrics.recordPass({ ok: false, durationMs: pass.ms });
      log({ step: 'pass', reasons: pass.reasons, error: pass.error, ms: pass.ms });
      return;
    }
    const result = pass.result;
    const sourceCommit = result.delivery?.sourceCommit;
    into.processedSource = result.rendered.at(-1)?.sourceCommit ?? sourceCommit ?? into.processedSource;
    metrics.recordPass({
      ok: true,
      durationMs: pass.ms,
      result,
      ...(sourceCommitTime !== undefined ? { sourceCommitTime } : {}),
    });
    log({
      step: 'pass',
      reasons: pass.reasons,
      sourceCommit,
      rendered: result.rendered.filter((r) => r.outputCommit).length,
      writes: result.writes,
      statusCommit: result.statusCommit,
      ms: pass.ms,
    });
    return;
  }
  const pass = outcome.summary;
  into.lastStatusPass = pass;
  if (!pass.ok || !pass.result) {
    metrics.recordStatusPass({ ok: false, durationMs: pass.ms });
    log({ step: 'status-pass', reasons: pass.reasons, error: pass.error, ms: pass.ms });
    return;
  }
  const status = pass.result;
  metrics.recordStatusPass({ ok: true, durationMs: pass.ms, result: status });
  const objects = status.reports.reduce((n, r) => n + (r.observed?.length ?? 0), 0);
  log({
    step: 'status-pass',
    reasons: pass.reasons,
    clusters: status.reports.length,
    objects,
    unhealthy: status.unhealthy.length,
    missing: status.missing.length,
    statusCommit: status.statusCommit,
    ...(status.statusCommit ? { paths: status.changedPaths.length } : {}),
    ...(next ? { next } : {}),
    ms: pass.ms,
  });
}
