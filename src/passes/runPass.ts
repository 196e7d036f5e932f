import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { AutoscalerOptions } from '../statuses/decideFederatedHpas.ts';
import type { GitRepo } from '../commits/types.ts';
import type { RenderedDelivery } from '../deliveries/applyRendered.ts';
import type { KubeTarget } from '../deliveries/KubeTarget.ts';
import { clusterStateKey } from '../outputs/clusterState.ts';
import { reconcileOnce, reconcileStatusOnce } from '../reconcile.ts';
import type { ReadyThresholds } from '../statuses/dampReadyCondition.ts';
import { readObservedClusters } from '../branches/status/readStatusBranch.ts';
import type { RepoLock } from './acquireRepoLock.ts';
import { buildPassFacts, type PassRun } from './buildPassFacts.ts';
import type { PassOutcome } from './recordPassOutcome.ts';
import type { PassFacts, PassRequest } from './reconcilerStates.ts';
import type { RenderLimits } from '../outputs/sourceLimits.ts';
import type { RemoteMirror } from './remoteMirror.ts';
import type { ReplicaCoordination } from './replicaCoordination.ts';
import { fenceTarget } from '../shards/fenceTarget.ts';

/** What every pass works with, fixed for the reconciler's life. */
export interface PassContext {
  repo: GitRepo;
  lock: RepoLock;
  mirror: RemoteMirror | undefined;
  sourceRef: string;
  outputRef: string;
  statusRef: string;
  /** A fixed set of members, or the registered ones resolved afresh each pass. */
  clusters: ReadonlyMap<string, KubeTarget> | (() => Promise<Map<string, KubeTarget>>);
  log: (entry: Record<string, unknown>) => void;
  afterApply?: (delivery: RenderedDelivery) => Promise<void>;
  readyThresholds?: ReadyThresholds;
  gracefulEvictionTimeoutSeconds?: number;
  renderLimits?: RenderLimits;
  autoscalerOptions?: AutoscalerOptions;
  /** --leader-elect: render only while leading, apply and probe only the clusters of this replica's shard. */
  coordination?: ReplicaCoordination;
}

/**
 * Runs one pass: full (fetch? → render → apply → status → push?) or status (probe and read back, write status,
 * push?). It never throws: a failure is its outcome. Nothing is recorded here; the outcome goes back to the machine.
 */
export async function runPass(
  ctx: PassContext,
  pass: PassRequest,
): Promise<{ outcome: PassOutcome; facts: PassFacts }> {
  const run: PassRun = { startedAt: Date.now() };
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const coordination = ctx.coordination;
  let release: (() => void) | undefined;
  // A replica applies and probes only its shard, each member fenced: a write is sent only while it still owns it.
  const shard = (all: ReadonlyMap<string, KubeTarget>): Map<string, KubeTarget> => {
    if (!coordination) return new Map(all);
    const owned = coordination.owned();
    const mine = new Map<string, KubeTarget>();
    for (const [name, kube] of all)
      if (owned.has(name))
        mine.set(
          name,
          fenceTarget(kube, () => coordination.owned().has(name)),
        );
    release?.();
    release = coordination.hold(mine.keys());
    return mine;
  };
  const fixed = typeof ctx.clusters === 'function' ? undefined : ctx.clusters;
  const resolve = ctx.clusters as () => Promise<Map<string, KubeTarget>>;
  // The members this pass probes: the registered ones are resolved afresh each pass.
  const clusters =
    fixed && !coordination
      ? fixed
      : async () => {
          const resolved = shard(fixed ?? (await resolve()));
          run.probed = new Set(resolved.keys());
          return resolved;
        };
  const { repo, lock, mirror, log, outputRef, statusRef } = ctx;
  const thresholds = {
    ...(ctx.readyThresholds ? { readyThresholds: ctx.readyThresholds } : {}),
    ...(ctx.autoscalerOptions ? { autoscalerOptions: ctx.autoscalerOptions } : {}),
    ...(coordination ? { replica: coordination.identity } : {}),
    // Replicas: one decision per FederatedHPA, the leader's, from every member's metrics (reads only, unfenced).
    ...(coordination
      ? {
          autoscaling: async () => {
            if (!coordination.leading()) return null;
            const observed = await readObservedClusters(ctx.repo, ctx.statusRef);
            const ready = new Set(
              [...observed]
                .filter(([, o]) => o.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
                .map(([name]) => name),
            );
            return { clusters: fixed ?? (await resolve()), ready };
          },
        }
      : {}),
  };
  const reasons = pass.reasons;
  try {
    if (!lock.held())
      throw new Error(
        `the lock ${lock.file} no longer names this process; refusing to write (fix: restart this reconciler)`,
      );
    // Replicas on one remote: the source (whose commits the rendered branch names) and the output branches as the
    // remote has them now, before reading or writing anything.
    if (mirror && coordination) await syncReplicaMirror(mirror, log, pass.kind === 'status');
    if (pass.kind === 'status') {
      const result = await reconcileStatusOnce({
        repo,
        outputRef,
        statusRef,
        clusters,
        log,
        ...thresholds,
        ...(ctx.renderLimits ? { renderLimits: ctx.renderLimits } : {}),
      });
      if (mirror && result.statusCommit) {
        const pushed = await mirror.pushOutputs();
        if (pushed.pushed.length + pushed.rejected.length > 0) log({ step: 'push', ...pushed });
      }
      return {
        outcome: { kind: 'status', summary: { reasons, ok: true, result, ms: ms() } },
        facts: buildPassFacts('status', run, result),
      };
    }
    // Only the leader renders; the others apply what it rendered.
    const render = coordination ? coordination.leading() : true;
    if (mirror && !coordination) {
      const fetched = await mirror.fetchSource();
      log({ step: 'fetch', sourceCommit: fetched.head, moved: fetched.moved, ms: ms() });
    }
    run.renderedKey = clusterStateKey(await readObservedClusters(repo, statusRef));
    const result = await reconcileOnce({
      repo,
      sourceRef: ctx.sourceRef,
      outputRef,
      statusRef,
      clusters,
      render,
      log,
      ...(ctx.afterApply ? { afterApply: ctx.afterApply } : {}),
      ...thresholds,
      ...(ctx.gracefulEvictionTimeoutSeconds !== undefined
        ? { gracefulEvictionTimeoutSeconds: ctx.gracefulEvictionTimeoutSeconds }
        : {}),
      ...(ctx.renderLimits ? { renderLimits: ctx.renderLimits } : {}),
    });
    if (mirror) {
      const pushed = await mirror.pushOutputs();
      if (pushed.pushed.length + pushed.rejected.length > 0)
        log({ step: 'push', sourceCommit: result.delivery?.sourceCommit, ...pushed });
    }
    const sourceCommit = result.delivery?.sourceCommit;
    const sourceCommitTime = sourceCommit
      ? await readCommitInfo(repo, sourceCommit).then(
          (c) => c.committer.timestamp,
          () => undefined,
        )
      : undefined;
    const summary = { reasons, ok: true, result, ms: ms() };
    return {
      outcome: { kind: 'full', summary, ...(sourceCommitTime !== undefined ? { sourceCommitTime } : {}) },
      facts: buildPassFacts('full', run, result),
    };
  } catch (err) {
    const summary = { reasons, ok: false, error: (err as Error).message, ms: ms() };
    return pass.kind === 'full'
      ? { outcome: { kind: 'full', summary }, facts: buildPassFacts('full', run, undefined) }
      : { outcome: { kind: 'status', summary }, facts: buildPassFacts('status', run, undefined) };
  } finally {
    release?.();
  }
}

/** Fetches the source and brings the output branches to the remote's heads (RemoteMirror.syncOutputs), logged. */
async function syncReplicaMirror(
  mirror: RemoteMirror,
  log: (entry: Record<string, unknown>) => void,
  quiet: boolean,
): Promise<void> {
  const fetched = await mirror.fetchSource();
  if (!quiet || fetched.moved) log({ step: 'fetch', sourceCommit: fetched.head, moved: fetched.moved });
  const synced = await mirror.syncOutputs();
  if (synced.moved.length + synced.replayed.length + synced.dropped.length > 0) log({ step: 'fetch', outputs: synced });
}
