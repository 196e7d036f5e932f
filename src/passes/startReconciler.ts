import type { IncomingMessage, ServerResponse } from 'node:http';
import { RENDERED_BRANCH } from '../branches/rendered/branch.ts';
import type { AutoscalerOptions } from '../statuses/decideFederatedHpas.ts';
import { STATUS_BRANCH } from '../branches/status/branch.ts';
import nodeFs, { mkdirSync } from 'node:fs';
import path from 'node:path';
import cron from 'node-cron';
import { openRepo } from '../commits/openRepo.ts';
import type { GitRepo } from '../commits/types.ts';
import type { KubeTarget } from '../deliveries/KubeTarget.ts';
import type { ReadyThresholds } from '../statuses/dampReadyCondition.ts';
import type { RenderedDelivery } from '../deliveries/applyRendered.ts';
import { acquireRepoLock, type RepoLock } from './acquireRepoLock.ts';
import { fenceRefUpdates } from './fenceRefUpdates.ts';
import {
  startReplicaCoordination,
  type LeaderElectionOptions,
  type ReplicaCoordination,
} from './replicaCoordination.ts';
import { ClusterConnections } from './connectClusters.ts';
import type { PassKind } from './createPassQueue.ts';
import { readPassSchedule } from './readPassSchedule.ts';
import { createReconcilerMetrics, type ReconcilerMetrics } from './createReconcilerMetrics.ts';
import { planTransition, type Transition } from './planTransition.ts';
import { readClusterRegistrations, type RegistrationCache } from './readClusterRegistrations.ts';
import { initialReconcilerState, type ReconcilerEffect, type ReconcilerEvent } from './reconcilerStates.ts';
import type { RenderLimits } from '../outputs/sourceLimits.ts';
import {
  recordPassOutcome,
  type PassOutcome,
  type PassRecord,
  type PassSummary,
  type StatusPassSummary,
} from './recordPassOutcome.ts';
import { openRemoteMirror, redactUrl, type RemoteMirror } from './remoteMirror.ts';
import { runPass, type PassContext } from './runPass.ts';
import type { ListenerLimits } from './boundedListener.ts';
import { serveEndpoints, type Endpoints } from './serveEndpoints.ts';
import { watchLocalRefs } from './watchLocalRefs.ts';

/** Where the config comes from: a repo on this machine (watched), or a remote one (fetched into a mirror on a schedule). */
export type ReconcilerSource =
  | { kind: 'local'; path: string }
  | { kind: 'remote'; url: string; mirrorDir: string; fetchSchedule: string; fetchIdleTimeoutMs?: number };

/** Which members get Push-mode delivery: those registered in Git, or a fixed set (the demo's). */
export type ReconcilerClusters =
  | {
      kind: 'registered';
      credentialsDir: string;
      fallbackKubeconfig: string | undefined;
      allowKubeconfigExec?: boolean;
    }
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
  /** More routes on that listener (the dashboard at /ui/), asked before the reconciler's own. */
  routes?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
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
  /** --max-source-files and --max-output-bytes for every render; absent fields keep the defaults. */
  renderLimits?: RenderLimits;
  /** FederatedHPA evaluation period and default scale-down stabilization (Karmada's 15 s and 300 s). */
  autoscalerOptions?: AutoscalerOptions;
  /** The file system the repo is read and written through; node's in production (tests wrap it). */
  fs?: typeof nodeFs;
  /**
   * --leader-elect: Leases replace the repo lock. Several replicas share the repo; the leader renders, each applies
   * the Push clusters of its shard (replicaCoordination.ts).
   */
  leaderElection?: LeaderElectionOptions;
}

export type { PassSummary, StatusPassSummary } from './recordPassOutcome.ts';

export interface Reconciler {
  readonly repo: GitRepo;
  readonly lock: RepoLock;
  /** With leaderElection: this replica's role and shard. */
  readonly coordination: ReplicaCoordination | undefined;
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

/** Karmada's --cluster-status-update-frequency default. */
export const DEFAULT_STATUS_UPDATE_FREQUENCY_MS = 10_000;

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
  const gitdir = opts.source.kind === 'remote' ? opts.source.mirrorDir : (await openRepo(opts.source.path)).gitdir;
  const lock = opts.leaderElection ? leaseLock(opts.leaderElection) : acquireRepoLock(gitdir);
  if (lock.tookOverFrom)
    log({
      step: 'lock',
      tookOver: lock.tookOverFrom,
      reason: `pid ${lock.tookOverFrom.pid} is no longer running`,
      file: lock.file,
    });
  closers.push(() => lock.release());
  try {
    // Replicas write the status branch side by side: a ref lock may be a live writer's, only age tells (updateRef).
    const removed = opts.leaderElection ? [] : removeStaleRefLocks(lock.file, lock.tookOverFrom !== undefined);
    if (removed.length)
      log({
        step: 'lock',
        removedStaleRefLocks: removed,
        reason: 'left by a writer that died between creating the lock and moving the ref',
      });
    const mirror: RemoteMirror | undefined =
      opts.source.kind === 'remote'
        ? await openRemoteMirror({
            url: opts.source.url,
            gitdir: opts.source.mirrorDir,
            sourceBranch: branch,
            outputBranches: [RENDERED_BRANCH, STATUS_BRANCH],
            // Replicas each push the status branch (their own clusters' files): a refused push is replayed.
            ...(opts.leaderElection ? { sharedBranches: [STATUS_BRANCH] } : {}),
            ...(opts.source.fetchIdleTimeoutMs !== undefined ? { idleTimeoutMs: opts.source.fetchIdleTimeoutMs } : {}),
          })
        : undefined;
    // Replicas: the branches move only while the Lease that allows it is held, checked at the ref's rename.
    let fence: { leading(): boolean; member(): boolean } | undefined;
    const fs = opts.leaderElection
      ? fenceRefUpdates(
          {
            [`refs/heads/${RENDERED_BRANCH}`]: () => fence?.leading() ?? false,
            [`refs/heads/${STATUS_BRANCH}`]: () => fence?.member() ?? false,
          },
          opts.fs,
        )
      : opts.fs;
    const repo = await openRepo(mirror ? mirror.gitdir : (opts.source as { path: string }).path, fs);
    const metrics = createReconcilerMetrics(mirror ? redactUrl((opts.source as { url: string }).url) : repo.gitdir);
    const sourceRef = `refs/heads/${branch}`;
    const outputRef = `refs/heads/${RENDERED_BRANCH}`;
    const statusRef = `refs/heads/${STATUS_BRANCH}`;

    let requestPass: (why: string) => void = () => undefined;
    const coordination = opts.leaderElection
      ? startReplicaCoordination({
          ...opts.leaderElection,
          repo,
          outputRef,
          log,
          registry: metrics.registry,
          changed: (why) => requestPass(why),
        })
      : undefined;
    fence = coordination;
    // Pushed early, closed late: the Leases are released once the last pass is over.
    if (coordination) closers.push(() => coordination.stop());

    const registrations: RegistrationCache = new Map();
    const connections =
      opts.clusters.kind === 'registered'
        ? new ClusterConnections({
            credentialsDir: opts.clusters.credentialsDir,
            fallbackKubeconfig: opts.clusters.fallbackKubeconfig,
            allowKubeconfigExec: opts.clusters.allowKubeconfigExec ?? false,
            log,
            onRemoved: (c) => metrics.forgetCluster(c),
          })
        : undefined;
    if (connections) closers.push(() => connections.close());
    const fixed = opts.clusters.kind === 'fixed' ? opts.clusters.targets : undefined;
    const thresholds = opts.readyThresholds;
    const graceSeconds = opts.gracefulEvictionTimeoutSeconds;
    const context: PassContext = {
      repo,
      lock,
      mirror,
      sourceRef,
      outputRef,
      statusRef,
      log,
      clusters:
        fixed ?? (async () => connections!.resolve(await readClusterRegistrations(repo, outputRef, registrations))),
      ...(coordination ? { coordination } : {}),
      ...(opts.afterApply ? { afterApply: opts.afterApply } : {}),
      ...(thresholds ? { readyThresholds: thresholds } : {}),
      ...(graceSeconds !== undefined ? { gracefulEvictionTimeoutSeconds: graceSeconds } : {}),
      ...(opts.renderLimits ? { renderLimits: opts.renderLimits } : {}),
      ...(opts.autoscalerOptions ? { autoscalerOptions: opts.autoscalerOptions } : {}),
    };

    // The I/O shell around the pure machine (planTransition): it feeds events in and runs the effects that come
    // out, in order. Everything the reconciler remembers between passes is in `state`; what it shows of them is in
    // `record`, written only by recordPassOutcome.
    const record: PassRecord = { lastPass: undefined, lastStatusPass: undefined, processedSource: undefined };
    let state = initialReconcilerState<PassOutcome>({
      probed: new Set(fixed?.keys() ?? []),
      catchUpTiming: opts.catchUp ?? { intervalMs: 1_000, forMs: 30_000 },
    });
    const waiting = new Map<number, (() => void)[]>();
    let wake: NodeJS.Timeout | undefined;
    let drained!: () => void;
    const whenDrained = new Promise<void>((resolve) => {
      drained = resolve;
    });

    const step = (event: ReconcilerEvent<PassOutcome>): Transition<PassOutcome> => {
      const transition = planTransition(state, event);
      state = transition.state;
      return transition;
    };
    const send = (event: ReconcilerEvent<PassOutcome>): void => run(step(event).effects);
    // Every effect catches what it expects to fail (a pass, the hook, the schedule read); what is left is a bug.
    const run = (effects: readonly ReconcilerEffect<PassOutcome>[]): void =>
      void perform(effects).catch((err: unknown) => log({ step: 'reconciler', error: (err as Error).message }));
    const perform = async (effects: readonly ReconcilerEffect<PassOutcome>[]): Promise<void> => {
      for (const effect of effects) {
        switch (effect.type) {
          case 'countTrigger':
            metrics.recordTrigger(effect.trigger);
            break;
          case 'startPass':
            void runPass(context, effect.pass).then(({ outcome, facts }) =>
              send({ type: 'passEnded', outcome, facts }),
            );
            break;
          case 'record':
            recordPassOutcome(record, { metrics, log }, effect.outcome, effect.next);
            break;
          case 'afterPass':
            if (opts.afterPass)
              await opts
                .afterPass(repo)
                .catch((err: unknown) => log({ step: 'afterPass', error: (err as Error).message }));
            break;
          case 'readSchedule': {
            const now = Date.now();
            const read = await readPassSchedule(repo, {
              outputRef,
              statusRef,
              probed: effect.probed,
              ...(thresholds ? { thresholds } : {}),
              ...(graceSeconds !== undefined ? { gracePeriodSeconds: graceSeconds } : {}),
              now,
            }).then(
              (schedule) => ({ type: 'scheduleRead', schedule, now }) as const,
              (err: unknown) => ({ type: 'scheduleFailed', error: (err as Error).message, now }) as const,
            );
            send(read);
            break;
          }
          case 'logSchedule':
            log({
              step: 'schedule',
              ...(effect.error !== undefined ? { error: effect.error } : { next: effect.next }),
            });
            break;
          case 'setWake': {
            if (wake) clearTimeout(wake);
            const { reason, kind } = effect.wake;
            wake = setTimeout(() => {
              wake = undefined;
              send({ type: 'deadline', reason, kind });
            }, effect.delayMs);
            break;
          }
          case 'clearWake':
            if (wake) clearTimeout(wake);
            wake = undefined;
            break;
          case 'settle':
            for (const id of effect.passes) {
              for (const resolve of waiting.get(id) ?? []) resolve();
              waiting.delete(id);
            }
            break;
          case 'drained':
            drained();
            break;
        }
      }
    };
    const kick = (reason: string, kind: PassKind = 'full'): Promise<void> => {
      const transition = step({ type: 'kick', reason, kind });
      const covers = transition.covers;
      const done =
        covers === undefined
          ? Promise.resolve()
          : new Promise<void>((resolve) => waiting.set(covers, [...(waiting.get(covers) ?? []), resolve]));
      run(transition.effects);
      return done;
    };
    closers.push(() => {
      send({ type: 'stop' });
      return whenDrained;
    });

    let endpoints: Endpoints | undefined;
    if (opts.listen) {
      endpoints = await serveEndpoints({
        ...opts.listen,
        ...(opts.routes ? { routes: opts.routes } : {}),
        metrics,
        webhookSecret: opts.webhookSecret,
        log,
        readiness: () => {
          if (coordination && !coordination.member())
            return { ready: false, reason: `membership Lease of replica ${coordination.identity} not held` };
          if (!lock.held()) return { ready: false, reason: `lock ${lock.file} not held` };
          const last = record.lastPass;
          if (!last) return { ready: false, reason: 'no pass has finished yet' };
          return last.ok ? { ready: true, reason: '' } : { ready: false, reason: `last pass failed: ${last.error}` };
        },
        onWebhook: () => send({ type: 'webhook' }),
        processedCommit: () => record.processedSource,
      });
      closers.push(() => endpoints!.close());
    }
    if (mirror) {
      const schedule = (opts.source as { fetchSchedule: string }).fetchSchedule;
      const task = cron.schedule(schedule, () => send({ type: 'cronTick' }), {
        name: 'flotilla-fetch',
        noOverlap: true,
      });
      closers.push(() => task.destroy());
    } else {
      const watcher = await watchLocalRefs(repo.gitdir, branch, () => send({ type: 'refChanged' }));
      closers.push(() => watcher.close());
      // A replica that does not lead applies what the leader rendered: the rendered branch moving is its trigger.
      if (coordination) {
        const rendered = await watchLocalRefs(repo.gitdir, RENDERED_BRANCH, () => {
          if (!coordination.leading()) send({ type: 'refChanged' });
        });
        closers.push(() => rendered.close());
      }
    }
    if (opts.resyncMs > 0) {
      const timer = setInterval(() => send({ type: 'resyncTick' }), opts.resyncMs);
      closers.push(() => clearInterval(timer));
    }
    const statusEveryMs = opts.statusUpdateFrequencyMs ?? DEFAULT_STATUS_UPDATE_FREQUENCY_MS;
    if (statusEveryMs > 0) {
      const timer = setInterval(() => send({ type: 'statusPeriod' }), statusEveryMs);
      closers.push(() => clearInterval(timer));
    }
    log({
      step: 'start',
      pid: process.pid,
      repo: mirror ? redactUrl((opts.source as { url: string }).url) : repo.gitdir,
      branch,
      ...(mirror
        ? { mirror: mirror.gitdir, fetchSchedule: (opts.source as { fetchSchedule: string }).fetchSchedule }
        : { watching: 'local refs' }),
      resyncMs: opts.resyncMs,
      statusUpdateFrequencyMs: statusEveryMs,
      ...(graceSeconds !== undefined ? { gracefulEvictionTimeoutSeconds: graceSeconds } : {}),
      ...(opts.readyThresholds ? { readyThresholds: opts.readyThresholds } : {}),
      ...(endpoints ? { listen: endpoints.url } : {}),
      webhooks: Boolean(opts.webhookSecret && endpoints),
    });
    requestPass = (why) => void kick(why);
    let stopping: Promise<void> | undefined;
    return {
      repo,
      lock,
      coordination,
      metrics,
      url: endpoints?.url,
      get lastPass() {
        return record.lastPass;
      },
      get lastStatusPass() {
        return record.lastStatusPass;
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
  for (const [branch, stale] of [
    [RENDERED_BRANCH, true],
    [STATUS_BRANCH, previousHolderDied],
  ] as const) {
    const file = `${path.join(heads, ...branch.split('/'))}.lock`;
    if (!stale || !nodeFs.existsSync(file)) continue;
    nodeFs.rmSync(file, { force: true });
    removed.push(`refs/heads/${branch}.lock`);
  }
  return removed;
}

/**
 * With --leader-elect the Leases replace the lock file: the stand-in is always "held", since what a replica may write
 * is decided per write (leading() for the rendered branch, owned() per cluster).
 */
function leaseLock(election: LeaderElectionOptions): RepoLock {
  const holder = { pid: process.pid, host: election.identity, startedAt: new Date().toISOString() };
  return {
    file: `Lease ${election.namespace}/flotilla-leader${election.describe ? ` (${election.describe})` : ''}`,
    holder,
    tookOverFrom: undefined,
    held: () => true,
    release: () => undefined,
  };
}

/** Last opened, first closed: triggers stop before the queue drains, the lock goes last. */
async function closeAll(closers: (() => Promise<void> | void)[]): Promise<void> {
  for (const close of [...closers].reverse()) await close();
}
