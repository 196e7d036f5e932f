import nodeFs, { mkdirSync } from 'node:fs';
import path from 'node:path';
import cron from 'node-cron';
import { openRepo } from '../commits/openRepo.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { GitRepo } from '../commits/types.ts';
import type { KubeTarget } from '../deliveries/KubeTarget.ts';
import { reconcileOnce, reconcileStatusOnce, type ReconcileResult, type StatusPassResult } from '../reconcile.ts';
import { clusterStateKey } from '../outputs/clusterState.ts';
import { readObservedClusters } from '../branches/status/readStatusBranch.ts';
import { identityKey } from '../branches/status/inventory.ts';
import type { ObjectRef } from '../api/kinds.ts';
import type { ReadyThresholds } from '../statuses/dampReadyCondition.ts';
import type { RenderedDelivery } from '../deliveries/applyRendered.ts';
import { acquireRepoLock, type RepoLock } from './acquireRepoLock.ts';
import { ClusterConnections } from './connectClusters.ts';
import { createPassQueue, type PassKind } from './createPassQueue.ts';
import { nextDeadline, readPassSchedule } from './readPassSchedule.ts';
import { createReconcilerMetrics, type ReconcilerMetrics } from './createReconcilerMetrics.ts';
import { readClusterRegistrations, type RegistrationCache } from './readClusterRegistrations.ts';
import { openRemoteMirror, redactUrl, type RemoteMirror } from './remoteMirror.ts';
import { serveEndpoints, type Endpoints, type ListenerLimits } from './serveEndpoints.ts';
import { watchLocalRefs } from './watchLocalRefs.ts';

/** Where the config comes from: a repo on this machine (watched), or a remote one (fetched into a mirror on a schedule). */
export type ReconcilerSource =
  | { kind: 'local'; path: string }
  | { kind: 'remote'; url: string; mirrorDir: string; fetchSchedule: string; fetchIdleTimeoutMs?: number };

/** Which members get Push-mode delivery: those registered in Git, or a fixed set (the demo's). */
export type ReconcilerClusters =
  | { kind: 'registered'; credentialsDir: string; fallbackKubeconfig: string | undefined; allowKubeconfigExec?: boolean }
  | { kind: 'fixed'; targets: ReadonlyMap<string, KubeTarget> };

export interface ReconcilerOptions {
  source: ReconcilerSource;
  /** Default main. */
  sourceBranch?: string;
  clusters: ReconcilerClusters;
  /** Periodic pass that re-applies drift; 0 = none. */
  resyncMs: number;
  /** /healthz, /readyz, /metrics and webhooks; none when absent. `limits` default to DEFAULT_LISTENER_LIMITS. */
  listen?: { host: string; port: number; limits?: ListenerLimits };
  webhookSecret?: string;
  /** One structured entry per step. */
  log: (entry: Record<string, unknown>) => void;
  /** Runs after every pass, inside the single flight (the demo's in-process Pull agent). */
  afterPass?: (repo: GitRepo) => Promise<void>;
  /** Runs after each apply with what was delivered (forge commit statuses); its failure never fails the pass. */
  afterApply?: (delivery: RenderedDelivery) => Promise<void>;
  /** Ready flap damping (Karmada's --cluster-success-threshold / --cluster-failure-threshold); default 30 s each. */
  readyThresholds?: ReadyThresholds;
  /** Status passes (probe, read back, write status; no apply) every this long: --cluster-status-update-frequency. Default 10 s; 0 = none. */
  statusUpdateFrequencyMs?: number;
  /** After a pass that wrote to members, status passes this often until what it touched is Healthy, for at most `forMs`. Default 1 s for 30 s. */
  catchUp?: { intervalMs: number; forMs: number };
  /** Graceful eviction tasks without their own grace period end after this long (--graceful-eviction-timeout). Default 600 s. */
  gracefulEvictionTimeoutSeconds?: number;
  /** The file system the repo is read and written through; node's in production (tests wrap it). */
  fs?: typeof nodeFs;
}

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

export interface Reconciler {
  readonly repo: GitRepo;
  readonly lock: RepoLock;
  readonly metrics: ReconcilerMetrics;
  /** The HTTP endpoint's base URL, when listening. */
  readonly url: string | undefined;
  /** The outcome of the last finished pass. */
  readonly lastPass: PassSummary | undefined;
  /** Asks for a pass (full unless told); resolves once a pass that started after this call is over. */
  kick(reason: string, kind?: PassKind): Promise<void>;
  /** The outcome of the last finished status pass. */
  readonly lastStatusPass: StatusPassSummary | undefined;
  /** Stops every trigger, waits for the running pass, closes connections, releases the lock. */
  stop(): Promise<void>;
}

export const OUTPUT_BRANCH = 'flotilla/rendered';
/** Karmada's --cluster-status-update-frequency default. */
export const DEFAULT_STATUS_UPDATE_FREQUENCY_MS = 10_000;
export const STATUS_BRANCH = 'flotilla/status';

/**
 * The reconciler: triggers (local ref changes, a fetch schedule, webhooks, a resync interval) feed one
 * single-flight queue of passes, each pass being fetch? → render → apply → status → push?. Status passes (probe and
 * read back, no apply) share the queue: on their own cadence, at the deadlines Git records (a Ready flip, a
 * toleration's end, a graceful eviction's end) and closely after a pass that wrote to members. Everything it
 * resumes from lives in Git (the rendered branch's Source-Commit, the status branch's inventories), so a
 * process killed at any step is restarted with no state to repair. One per repo: the lock is taken first.
 */
export async function startReconciler(opts: ReconcilerOptions): Promise<Reconciler> {
  const branch = opts.sourceBranch ?? 'main';
  const closers: (() => Promise<void> | void)[] = [];
  const log = opts.log;
  // The lock comes before anything writes: for a remote, even before the mirror is created or fetched into.
  if (opts.source.kind === 'remote') mkdirSync(opts.source.mirrorDir, { recursive: true });
  const lock = acquireRepoLock(opts.source.kind === 'remote' ? opts.source.mirrorDir : (await openRepo(opts.source.path)).gitdir);
  if (lock.tookOverFrom) log({ step: 'lock', tookOver: lock.tookOverFrom, reason: `pid ${lock.tookOverFrom.pid} is no longer running`, file: lock.file });
  closers.push(() => lock.release());
  try {
    const removed = removeStaleRefLocks(lock.file, lock.tookOverFrom !== undefined);
    if (removed.length) log({ step: 'lock', removedStaleRefLocks: removed, reason: 'left by a writer that died between creating the lock and moving the ref' });
    const mirror: RemoteMirror | undefined = opts.source.kind === 'remote'
      ? await openRemoteMirror({ url: opts.source.url, gitdir: opts.source.mirrorDir, sourceBranch: branch, outputBranches: [OUTPUT_BRANCH, STATUS_BRANCH],
        ...(opts.source.fetchIdleTimeoutMs !== undefined ? { idleTimeoutMs: opts.source.fetchIdleTimeoutMs } : {}) })
      : undefined;
    const repo = await openRepo(mirror ? mirror.gitdir : (opts.source as { path: string }).path, opts.fs);
    const metrics = createReconcilerMetrics(mirror ? redactUrl((opts.source as { url: string }).url) : repo.gitdir);
    const sourceRef = `refs/heads/${branch}`;
    const outputRef = `refs/heads/${OUTPUT_BRANCH}`;
    const statusRef = `refs/heads/${STATUS_BRANCH}`;

    const registrations: RegistrationCache = new Map();
    const connections = opts.clusters.kind === 'registered'
      ? new ClusterConnections({ credentialsDir: opts.clusters.credentialsDir, fallbackKubeconfig: opts.clusters.fallbackKubeconfig, allowKubeconfigExec: opts.clusters.allowKubeconfigExec ?? false, log, onRemoved: (c) => metrics.forgetCluster(c) })
      : undefined;
    if (connections) closers.push(() => connections.close());
    const fixed = opts.clusters.kind === 'fixed' ? opts.clusters.targets : undefined;
    const clusters = fixed ?? (async () => connections!.resolve(await readClusterRegistrations(repo, outputRef, registrations)));

    // The members probed by the last pass: the clusters function resolves them afresh each pass.
    let probed: ReadonlySet<string> = new Set(fixed?.keys() ?? []);
    const passClusters = fixed ?? (async () => {
      const resolved = await (clusters as () => Promise<Map<string, KubeTarget>>)();
      probed = new Set(resolved.keys());
      return resolved;
    });
    const thresholds = opts.readyThresholds;
    const graceSeconds = opts.gracefulEvictionTimeoutSeconds;
    const catchUpTiming = opts.catchUp ?? { intervalMs: 1_000, forMs: 30_000 };

    // When the next pass is due by time alone. Wall clock: Git's deadlines are wall-clock times.
    const lastStarted = { full: 0, status: 0 };
    /** The managed-taints key the last full pass rendered with: a status write that changes it needs a render. */
    let renderedKey: string | undefined;
    /** Objects the last member-writing pass touched, and until when status passes follow them closely. */
    let catchUp: { touched: Set<string>; until: number } | undefined;
    /** The missing objects that last asked for a full pass: the same drift asks only once (the resync retries). */
    let lastDrift = '';
    /** The pending bindings (with why) that last asked for a full pass: a retry that changed nothing is not asked again. */
    let lastRetry = '';
    let wake: NodeJS.Timeout | undefined;
    let stopped = false;
    const objectKey = (cluster: string, ref: ObjectRef) => `${cluster}\0${identityKey(ref)}`;

    let lastPass: PassSummary | undefined;
    /** The source commit the last successful full pass rendered: a webhook naming it again starts nothing. */
    let processedSource: string | undefined;
    let lastStatusPass: StatusPassSummary | undefined;
    const runFullPass = async (reasons: readonly string[]): Promise<ReconcileResult | undefined> => {
      const started = performance.now();
      lastStarted.full = Date.now();
      const ms = () => Math.round(performance.now() - started);
      try {
        if (!lock.held()) throw new Error(`the lock ${lock.file} no longer names this process; refusing to write (fix: restart this reconciler)`);
        if (mirror) {
          const fetched = await mirror.fetchSource();
          log({ step: 'fetch', sourceCommit: fetched.head, moved: fetched.moved, ms: ms() });
        }
        renderedKey = clusterStateKey(await readObservedClusters(repo, statusRef));
        const result = await reconcileOnce({ repo, sourceRef, outputRef, statusRef, clusters: passClusters, render: true, log,
          ...(opts.afterApply ? { afterApply: opts.afterApply } : {}), ...(thresholds ? { readyThresholds: thresholds } : {}),
          ...(graceSeconds !== undefined ? { gracefulEvictionTimeoutSeconds: graceSeconds } : {}) });
        if (mirror) {
          const pushed = await mirror.pushOutputs();
          if (pushed.pushed.length + pushed.rejected.length > 0) log({ step: 'push', sourceCommit: result.delivery?.sourceCommit, ...pushed });
        }
        const sourceCommit = result.delivery?.sourceCommit;
        const sourceCommitTime = sourceCommit ? await readCommitInfo(repo, sourceCommit).then((c) => c.committer.timestamp, () => undefined) : undefined;
        lastPass = { reasons, ok: true, result, ms: ms() };
        processedSource = result.rendered.at(-1)?.sourceCommit ?? sourceCommit ?? processedSource;
        metrics.recordPass({ ok: true, durationMs: lastPass.ms, result, ...(sourceCommitTime !== undefined ? { sourceCommitTime } : {}) });
        log({ step: 'pass', reasons, sourceCommit, rendered: result.rendered.filter((r) => r.outputCommit).length, writes: result.writes, statusCommit: result.statusCommit, ms: lastPass.ms });
        return result;
      } catch (err) {
        lastPass = { reasons, ok: false, error: (err as Error).message, ms: ms() };
        metrics.recordPass({ ok: false, durationMs: lastPass.ms });
        log({ step: 'pass', reasons, error: lastPass.error, ms: lastPass.ms });
        return undefined;
      } finally {
        if (opts.afterPass) await opts.afterPass(repo).catch((err: unknown) => log({ step: 'afterPass', error: (err as Error).message }));
      }
    };

    const runStatusPass = async (reasons: readonly string[]): Promise<StatusPassResult | undefined> => {
      const started = performance.now();
      lastStarted.status = Date.now();
      const ms = () => Math.round(performance.now() - started);
      try {
        if (!lock.held()) throw new Error(`the lock ${lock.file} no longer names this process; refusing to write (fix: restart this reconciler)`);
        const result = await reconcileStatusOnce({ repo, outputRef, statusRef, clusters: passClusters, log, ...(thresholds ? { readyThresholds: thresholds } : {}) });
        if (mirror && result.statusCommit) {
          const pushed = await mirror.pushOutputs();
          if (pushed.pushed.length + pushed.rejected.length > 0) log({ step: 'push', ...pushed });
        }
        lastStatusPass = { reasons, ok: true, result, ms: ms() };
        metrics.recordStatusPass({ ok: true, durationMs: lastStatusPass.ms, result });
        return result;
      } catch (err) {
        lastStatusPass = { reasons, ok: false, error: (err as Error).message, ms: ms() };
        metrics.recordStatusPass({ ok: false, durationMs: lastStatusPass.ms });
        log({ step: 'status-pass', reasons, error: lastStatusPass.error, ms: lastStatusPass.ms });
        return undefined;
      }
    };

    /**
     * After every pass, inside the single flight: what is due now (a render for a changed cluster state, an apply for
     * drift, a render that may end graceful evictions), else when the next pass is due by time alone.
     */
    const planNext = async (full: ReconcileResult | undefined, status: StatusPassResult | undefined): Promise<string | undefined> => {
      if (stopped) return undefined;
      const now = Date.now();
      if (full && full.writes > 0) {
        const touched = new Set<string>();
        for (const [cluster, d] of full.delivery?.clusters ?? []) {
          for (const r of d.results) if (r.action === 'created' || r.action === 'configured' || r.action === 'drift-repaired') touched.add(objectKey(cluster, r.ref));
        }
        catchUp = touched.size > 0 ? { touched, until: now + catchUpTiming.forMs } : undefined;
      } else if (status && catchUp) {
        const waiting = [...status.unhealthy, ...status.missing].filter((o) => catchUp!.touched.has(objectKey(o.cluster, o.ref)));
        if (waiting.length === 0 || now >= catchUp.until) catchUp = undefined;
      }
      const schedule = await readPassSchedule(repo, { outputRef, statusRef, probed, ...(thresholds ? { thresholds } : {}), ...(graceSeconds !== undefined ? { gracePeriodSeconds: graceSeconds } : {}) });
      const wroteStatus = Boolean(full?.statusCommit ?? status?.statusCommit);
      let due: string | undefined;
      if (wroteStatus && schedule.clusterStateKey !== renderedKey) due = 'cluster-state';
      if (!due && status) {
        const drift = status.missing.map((o) => objectKey(o.cluster, o.ref)).sort().join('\n');
        if (drift && drift !== lastDrift) due = 'drift';
        lastDrift = drift;
      }
      // Replacements reported healthy may end graceful evictions, whichever pass wrote that status: a status pass, or
      // the full pass itself when the pods came up during it.
      const statusPaths = status?.changedPaths ?? full?.statusPaths ?? [];
      if (!due && statusPaths.some((p) => p.startsWith('templates/')) && schedule.gracefulEvictions) due = 'graceful-eviction';
      // What could not be scheduled is tried again as soon as the status branch shows what may let it fit, whoever wrote
      // that status (this reconciler's passes, or a Pull agent); the same retry with the same reasons only once.
      if (!due) {
        const retry = [...schedule.retry.values()].join('\n');
        if (retry && retry !== lastRetry) due = 'pending-binding';
        lastRetry = retry;
      }
      if (due) {
        void kick(due, 'full');
        return `full pass (${due})`;
      }
      const deadline = nextDeadline(schedule.deadlines, lastStarted);
      // A little after the deadline: Git's times have second precision and timers may fire a millisecond early.
      let next: { at: number; reason: string; kind: PassKind } | undefined = deadline ? { at: deadline.at + 50, reason: deadline.reason, kind: deadline.kind } : undefined;
      if (catchUp && (!next || now + catchUpTiming.intervalMs < next.at)) next = { at: now + catchUpTiming.intervalMs, reason: 'catch-up', kind: 'status' };
      if (wake) clearTimeout(wake);
      wake = undefined;
      if (!next) return undefined;
      const chosen = next;
      // setTimeout holds at most ~24.8 days; a later deadline is looked at again by the passes in between.
      const delay = Math.min(Math.max(0, chosen.at - now), 86_400_000);
      wake = setTimeout(() => { wake = undefined; void kick(chosen.reason, chosen.kind); }, delay);
      return `${chosen.kind === 'full' ? 'full' : 'status'} pass (${chosen.reason}) at ${new Date(chosen.at).toISOString()}${deadline?.cluster && chosen.reason === 'ready-flip' ? ` for ${deadline.cluster}` : ''}`;
    };

    const runPass = async (reasons: readonly string[], kind: PassKind): Promise<void> => {
      const full = kind === 'full' ? await runFullPass(reasons) : undefined;
      const status = kind === 'status' ? await runStatusPass(reasons) : undefined;
      const next = await planNext(full, status).catch((err: unknown) => {
        log({ step: 'schedule', error: (err as Error).message });
        return undefined;
      });
      if (status) {
        const objects = status.reports.reduce((n, r) => n + (r.observed?.length ?? 0), 0);
        log({ step: 'status-pass', reasons, clusters: status.reports.length, objects, unhealthy: status.unhealthy.length, missing: status.missing.length,
          statusCommit: status.statusCommit, ...(status.statusCommit ? { paths: status.changedPaths.length } : {}), ...(next ? { next } : {}), ms: lastStatusPass?.ms });
      } else if (next) {
        log({ step: 'schedule', next });
      }
    };
    const queue = createPassQueue(runPass);
    closers.push(() => queue.stop());
    const kick = (reason: string, kind: PassKind = 'full') => {
      metrics.recordTrigger(reason);
      return queue.kick(reason, kind);
    };
    closers.push(() => {
      stopped = true;
      if (wake) clearTimeout(wake);
    });

    let endpoints: Endpoints | undefined;
    if (opts.listen) {
      endpoints = await serveEndpoints({
        ...opts.listen, metrics, webhookSecret: opts.webhookSecret, log,
        readiness: () => {
          if (!lock.held()) return { ready: false, reason: `lock ${lock.file} not held` };
          if (!lastPass) return { ready: false, reason: 'no pass has finished yet' };
          return lastPass.ok ? { ready: true, reason: '' } : { ready: false, reason: `last pass failed: ${lastPass.error}` };
        },
        onWebhook: () => void kick('webhook'),
        processedCommit: () => processedSource,
      });
      closers.push(() => endpoints!.close());
    }
    if (mirror) {
      const schedule = (opts.source as { fetchSchedule: string }).fetchSchedule;
      const task = cron.schedule(schedule, () => void kick('fetch'), { name: 'flotilla-fetch', noOverlap: true });
      closers.push(() => task.destroy());
    } else {
      const watcher = await watchLocalRefs(repo.gitdir, branch, () => void kick('push'));
      closers.push(() => watcher.close());
    }
    if (opts.resyncMs > 0) {
      const timer = setInterval(() => void kick('resync'), opts.resyncMs);
      closers.push(() => clearInterval(timer));
    }
    const statusEveryMs = opts.statusUpdateFrequencyMs ?? DEFAULT_STATUS_UPDATE_FREQUENCY_MS;
    if (statusEveryMs > 0) {
      const timer = setInterval(() => void kick('status-update', 'status'), statusEveryMs);
      closers.push(() => clearInterval(timer));
    }
    log({
      step: 'start', pid: process.pid, repo: mirror ? redactUrl((opts.source as { url: string }).url) : repo.gitdir, branch,
      ...(mirror ? { mirror: mirror.gitdir, fetchSchedule: (opts.source as { fetchSchedule: string }).fetchSchedule } : { watching: 'local refs' }),
      resyncMs: opts.resyncMs, statusUpdateFrequencyMs: statusEveryMs, ...(graceSeconds !== undefined ? { gracefulEvictionTimeoutSeconds: graceSeconds } : {}),
      ...(opts.readyThresholds ? { readyThresholds: opts.readyThresholds } : {}), ...(endpoints ? { listen: endpoints.url } : {}), webhooks: Boolean(opts.webhookSecret && endpoints),
    });
    let stopping: Promise<void> | undefined;
    return {
      repo, lock, metrics,
      url: endpoints?.url,
      get lastPass() {
        return lastPass;
      },
      get lastStatusPass() {
        return lastStatusPass;
      },
      kick,
      stop() {
        stopping ??= closeAll(closers);
        return stopping;
      },
    };
  } catch (err) {
    await closeAll(closers);
    throw err;
  }
}

/**
 * The ref locks a reconciler killed between creating one and moving its ref left behind. updateRef takes over a
 * lock only once it is STALE_REF_LOCK_MS old, since it cannot tell a dead writer's from a live one; here we can:
 * holding the repo lock, this process is the only reconciler, so the output branch's lock is always stale, and
 * the status branch's is when the previous reconciler was found dead (Pull agents also write that branch, but hold
 * its lock for milliseconds). Without this a restart right after the kill would fail its passes for 10 s.
 */
function removeStaleRefLocks(repoLockFile: string, previousHolderDied: boolean): string[] {
  const heads = path.join(path.dirname(repoLockFile), 'refs', 'heads');
  const removed: string[] = [];
  for (const [branch, stale] of [[OUTPUT_BRANCH, true], [STATUS_BRANCH, previousHolderDied]] as const) {
    const file = `${path.join(heads, ...branch.split('/'))}.lock`;
    if (!stale || !nodeFs.existsSync(file)) continue;
    nodeFs.rmSync(file, { force: true });
    removed.push(`refs/heads/${branch}.lock`);
  }
  return removed;
}

/** Last opened, first closed: triggers stop before the queue drains, the lock goes last. */
async function closeAll(closers: (() => Promise<void> | void)[]): Promise<void> {
  for (const close of [...closers].reverse()) await close();
}
