import { mkdirSync } from 'node:fs';
import cron from 'node-cron';
import { openRepo } from '../commits/openRepo.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { GitRepo } from '../commits/types.ts';
import type { KubeTarget } from '../deliveries/KubeTarget.ts';
import { reconcileOnce, type ReconcileResult } from '../reconcile.ts';
import type { ReadyThresholds } from '../statuses/dampReadyCondition.ts';
import type { RenderedDelivery } from '../deliveries/applyRendered.ts';
import { acquireRepoLock, type RepoLock } from './acquireRepoLock.ts';
import { ClusterConnections } from './connectClusters.ts';
import { createPassQueue } from './createPassQueue.ts';
import { createReconcilerMetrics, type ReconcilerMetrics } from './createReconcilerMetrics.ts';
import { readClusterRegistrations, type RegistrationCache } from './readClusterRegistrations.ts';
import { openRemoteMirror, redactUrl, type RemoteMirror } from './remoteMirror.ts';
import { serveEndpoints, type Endpoints } from './serveEndpoints.ts';
import { watchLocalRefs } from './watchLocalRefs.ts';

/** Where the config comes from: a repo on this machine (watched), or a remote one (fetched into a mirror on a schedule). */
export type ReconcilerSource =
  | { kind: 'local'; path: string }
  | { kind: 'remote'; url: string; mirrorDir: string; fetchSchedule: string };

/** Which members get Push-mode delivery: those registered in Git, or a fixed set (the demo's). */
export type ReconcilerClusters =
  | { kind: 'registered'; credentialsDir: string; fallbackKubeconfig: string | undefined }
  | { kind: 'fixed'; targets: ReadonlyMap<string, KubeTarget> };

export interface ReconcilerOptions {
  source: ReconcilerSource;
  /** Default main. */
  sourceBranch?: string;
  clusters: ReconcilerClusters;
  /** Periodic pass that re-applies drift; 0 = none. */
  resyncMs: number;
  /** /healthz, /readyz, /metrics and webhooks; none when absent. */
  listen?: { host: string; port: number };
  webhookSecret?: string;
  /** One structured entry per step. */
  log: (entry: Record<string, unknown>) => void;
  /** Runs after every pass, inside the single flight (the demo's in-process Pull agent). */
  afterPass?: (repo: GitRepo) => Promise<void>;
  /** Runs after each apply with what was delivered (forge commit statuses); its failure never fails the pass. */
  afterApply?: (delivery: RenderedDelivery) => Promise<void>;
  /** Ready flap damping (Karmada's --cluster-success-threshold / --cluster-failure-threshold); default 30 s each. */
  readyThresholds?: ReadyThresholds;
}

export interface PassSummary {
  reasons: readonly string[];
  ok: boolean;
  error?: string;
  result?: ReconcileResult;
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
  /** Asks for a pass; resolves once a pass that started after this call is over. */
  kick(reason: string): Promise<void>;
  /** Stops every trigger, waits for the running pass, closes connections, releases the lock. */
  stop(): Promise<void>;
}

export const OUTPUT_BRANCH = 'flotilla/rendered';
export const STATUS_BRANCH = 'flotilla/status';

/**
 * The reconciler: triggers (local ref changes, a fetch schedule, webhooks, a resync interval) feed one
 * single-flight queue of passes, each pass being fetch? → render → apply → status → push? Everything it
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
    const mirror: RemoteMirror | undefined = opts.source.kind === 'remote'
      ? await openRemoteMirror({ url: opts.source.url, gitdir: opts.source.mirrorDir, sourceBranch: branch, outputBranches: [OUTPUT_BRANCH, STATUS_BRANCH] })
      : undefined;
    const repo = mirror ? await openRepo(mirror.gitdir) : await openRepo((opts.source as { path: string }).path);
    const metrics = createReconcilerMetrics(mirror ? redactUrl((opts.source as { url: string }).url) : repo.gitdir);
    const sourceRef = `refs/heads/${branch}`;
    const outputRef = `refs/heads/${OUTPUT_BRANCH}`;
    const statusRef = `refs/heads/${STATUS_BRANCH}`;

    const registrations: RegistrationCache = new Map();
    const connections = opts.clusters.kind === 'registered'
      ? new ClusterConnections({ credentialsDir: opts.clusters.credentialsDir, fallbackKubeconfig: opts.clusters.fallbackKubeconfig, log, onRemoved: (c) => metrics.forgetCluster(c) })
      : undefined;
    if (connections) closers.push(() => connections.close());
    const fixed = opts.clusters.kind === 'fixed' ? opts.clusters.targets : undefined;
    const clusters = fixed ?? (async () => connections!.resolve(await readClusterRegistrations(repo, outputRef, registrations)));

    let lastPass: PassSummary | undefined;
    const runPass = async (reasons: readonly string[]): Promise<void> => {
      const started = performance.now();
      const ms = () => Math.round(performance.now() - started);
      try {
        if (!lock.held()) throw new Error(`the lock ${lock.file} no longer names this process; refusing to write (fix: restart this reconciler)`);
        if (mirror) {
          const fetched = await mirror.fetchSource();
          log({ step: 'fetch', sourceCommit: fetched.head, moved: fetched.moved, ms: ms() });
        }
        const result = await reconcileOnce({ repo, sourceRef, outputRef, statusRef, clusters, render: true, log,
          ...(opts.afterApply ? { afterApply: opts.afterApply } : {}), ...(opts.readyThresholds ? { readyThresholds: opts.readyThresholds } : {}) });
        if (mirror) {
          const pushed = await mirror.pushOutputs();
          if (pushed.pushed.length + pushed.rejected.length > 0) log({ step: 'push', sourceCommit: result.delivery?.sourceCommit, ...pushed });
        }
        const sourceCommit = result.delivery?.sourceCommit;
        const sourceCommitTime = sourceCommit ? await readCommitInfo(repo, sourceCommit).then((c) => c.committer.timestamp, () => undefined) : undefined;
        lastPass = { reasons, ok: true, result, ms: ms() };
        metrics.recordPass({ ok: true, durationMs: lastPass.ms, result, ...(sourceCommitTime !== undefined ? { sourceCommitTime } : {}) });
        log({ step: 'pass', reasons, sourceCommit, rendered: result.rendered.filter((r) => r.outputCommit).length, writes: result.writes, statusCommit: result.statusCommit, ms: lastPass.ms });
      } catch (err) {
        lastPass = { reasons, ok: false, error: (err as Error).message, ms: ms() };
        metrics.recordPass({ ok: false, durationMs: lastPass.ms });
        log({ step: 'pass', reasons, error: lastPass.error, ms: lastPass.ms });
      }
      if (opts.afterPass) await opts.afterPass(repo).catch((err: unknown) => log({ step: 'afterPass', error: (err as Error).message }));
    };
    const queue = createPassQueue(runPass);
    closers.push(() => queue.stop());
    const kick = (reason: string) => {
      metrics.recordTrigger(reason);
      return queue.kick(reason);
    };

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
    log({
      step: 'start', pid: process.pid, repo: mirror ? redactUrl((opts.source as { url: string }).url) : repo.gitdir, branch,
      ...(mirror ? { mirror: mirror.gitdir, fetchSchedule: (opts.source as { fetchSchedule: string }).fetchSchedule } : { watching: 'local refs' }),
      resyncMs: opts.resyncMs, ...(opts.readyThresholds ? { readyThresholds: opts.readyThresholds } : {}), ...(endpoints ? { listen: endpoints.url } : {}), webhooks: Boolean(opts.webhookSecret && endpoints),
    });
    let stopping: Promise<void> | undefined;
    return {
      repo, lock, metrics,
      url: endpoints?.url,
      get lastPass() {
        return lastPass;
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

/** Last opened, first closed: triggers stop before the queue drains, the lock goes last. */
async function closeAll(closers: (() => Promise<void> | void)[]): Promise<void> {
  for (const close of [...closers].reverse()) await close();
}
