// One reconcile pass, top to bottom: commits -> rendered output -> members -> status committed back.
import { describeFailures } from './deliveries/describeFailures.ts';
import { interpretersOfRendered } from './outputs/interpretersOfRendered.ts';
import type { ResourceModel } from './api/cluster.ts';
import { resourceModelsOf } from './branches/rendered/registeredClusters.ts';
import { readRegisteredClusters } from './outputs/readRegisteredClusters.ts';
import { readRef } from './commits/readRef.ts';
import type { GitRepo } from './commits/types.ts';
import { applyRendered, type RenderedDelivery } from './deliveries/applyRendered.ts';
import { readInventories } from './branches/status/readInventories.ts';
import { DEFAULT_STATUS_REF } from './branches/status/branch.ts';
import type { KubeTarget } from './deliveries/KubeTarget.ts';
import { readClusterConfig } from './outputs/readClusterConfig.ts';
import { readCommitInfo } from './commits/readCommitInfo.ts';
import { commitTrailers, LAST_GOOD_TRAILER } from './branches/rendered/trailers.ts';
import { syncRepo } from './outputs/syncRepo.ts';
import type { ReadyThresholds } from './statuses/dampReadyCondition.ts';
import type { RenderReport } from './outputs/renderRevision.ts';
import type { RenderLimits } from './outputs/sourceLimits.ts';
import type { PruneVerdict } from './deliveries/checkPruneSafety.ts';
import { readPruneVerdict } from './plans/readPruneVerdict.ts';
import { collectClusterStatus, memberAnswered } from './statuses/collectClusterStatus.ts';
import { readMultiClusterServiceStatus } from './statuses/readMultiClusterServiceStatus.ts';
import type { MultiClusterServiceStatusEdits } from './statuses/multiClusterServiceConditions.ts';
import { writeStatus } from './statuses/writeStatus.ts';
import type { ClusterReport } from './statuses/buildStatusFiles.ts';
import { readLiveObjects } from './statuses/readLiveObjects.ts';
import {
  collectExportedEndpoints,
  readMultiClusterServiceContext,
  serviceExportsOf,
} from './statuses/collectExportedEndpoints.ts';
import { interpretHealth } from './statuses/interpretHealth.ts';
import type { ObjectRef } from './api/kinds.ts';
import { customHealth, customizationFor, BUILT_IN_INTERPRETERS } from './interpreters/customizations.ts';
import { readLastRenderAt } from './branches/rendered/readLastRender.ts';
import {
  readAutoscalerDecisions,
  readCronAutoscalers,
  listSyncedReplicas,
} from './branches/status/autoscalerDecisions.ts';
import { planReplicasSyncs, type ReplicasSyncPlan } from './statuses/syncDeploymentReplicas.ts';
import {
  decideFederatedHpas,
  newAutoscalerMemory,
  type AutoscalerEdits,
  type AutoscalerMemory,
  type AutoscalerOptions,
} from './statuses/decideFederatedHpas.ts';

export interface ReconcileTarget {
  repo: GitRepo;
  sourceRef: string;
  outputRef: string;
  statusRef?: string;
  /**
   * The members this process delivers to (Push mode, or one cluster for a Pull agent). A function is asked after
   * the render step, so clusters registered or removed by the commit just rendered are delivered in the same pass.
   */
  clusters: ReadonlyMap<string, KubeTarget> | (() => Promise<ReadonlyMap<string, KubeTarget>>);
  /** Render source commits first. A Pull agent only applies what the reconciler rendered. */
  render: boolean;
  /** One structured line per step, naming the source commit. */
  log: (entry: Record<string, unknown>) => void;
  /**
   * Runs after the status commit with what was delivered (e.g. forge commit statuses: commitStatuses/). Its failure
   * is logged and never fails the pass.
   */
  afterApply?: (delivery: RenderedDelivery) => Promise<void>;
  /** Injected clock (Ready damping, taint times, evictions). Default: the wall clock. */
  now?: () => Date;
  /** Ready flap damping; default 30 s each way. */
  readyThresholds?: ReadyThresholds;
  /** A graceful eviction task without its own gracePeriodSeconds ends after this long (--graceful-eviction-timeout); default 600. */
  gracefulEvictionTimeoutSeconds?: number;
  /** --max-source-files and --max-output-bytes; absent fields keep the defaults. */
  renderLimits?: RenderLimits;
  /** FederatedHPA sync period and stabilization (defaults: Karmada's 15 s and 300 s). */
  autoscalerOptions?: AutoscalerOptions;
  /**
   * Whose metrics FederatedHPA decisions come from when not this pass's clusters: with several replicas only the
   * leader decides, from every member (ready as the status branch says). null: this process does not decide.
   */
  autoscaling?: () => Promise<{ clusters: ReadonlyMap<string, KubeTarget>; ready: ReadonlySet<string> } | null>;
  /** With --leader-elect: this replica's name, written as the `Replica` trailer of its status commits. */
  replica?: string;
}

export interface ReconcileResult {
  rendered: RenderReport[];
  /** Prune safety's verdict on what this pass rendered; absent when the render removed nothing. */
  prune?: PruneVerdict;
  delivery: RenderedDelivery | null;
  statusCommit: string | null;
  /** The status branch paths that commit changed (none without a commit). */
  statusPaths: string[];
  writes: number;
  /** What each delivered cluster reported: status probe and delivery. */
  reports: ClusterReport[];
}

export async function reconcileOnce(t: ReconcileTarget): Promise<ReconcileResult> {
  const rendered: RenderReport[] = [];
  let prune: PruneVerdict | undefined;
  if (t.render) {
    const started = performance.now();
    const before = await readRef(t.repo, t.outputRef);
    const sync = await syncRepo(t.repo, {
      sourceRef: t.sourceRef,
      outputRef: t.outputRef,
      ...(t.statusRef ? { statusRef: t.statusRef } : {}),
      ...(t.now ? { now: t.now } : {}),
      ...(t.gracefulEvictionTimeoutSeconds !== undefined
        ? { gracefulEvictionTimeoutSeconds: t.gracefulEvictionTimeoutSeconds }
        : {}),
      ...(t.renderLimits ? { limits: t.renderLimits } : {}),
    });
    rendered.push(...sync.reports);
    for (const r of sync.reports) {
      t.log({
        step: 'render',
        sourceCommit: r.sourceCommit,
        outputCommit: r.outputCommit,
        files: r.filesWritten,
        errors: r.problems.filter((p) => p.severity === 'error').length,
        ms: Math.round(performance.now() - started),
        ...(r.failover.length > 0
          ? { failover: r.failover.map((e) => `${e.type} ${e.ref.kind} ${e.ref.namespace}/${e.ref.name} ${e.cluster}`) }
          : {}),
        ...(r.retried ? { retried: r.retried } : {}),
      });
    }
    if (sync.forcePushed)
      t.log({
        step: 'render',
        sourceCommit: sync.reports.at(-1)?.sourceCommit,
        warning: `${t.sourceRef} was force-pushed; rendered its new head`,
      });
    prune = (await readPruneVerdict(t.repo, { before, after: await readRef(t.repo, t.outputRef) })) ?? undefined;
    if (prune?.held.length) {
      t.log({
        step: 'render',
        sourceCommit: sync.reports.at(-1)?.sourceCommit,
        pruneHeld: prune.held.map((h) => ({ cluster: h.cluster, reason: h.reason, objects: h.refs.length })),
        fix: prune.fix,
      });
    }
  }
  const clusters = typeof t.clusters === 'function' ? await t.clusters() : t.clusters;
  let delivery: RenderedDelivery | null = null;
  // The customizations of what is applied: Lua Retain hooks run before updates, health and status hooks after.
  const renderedHead = await readRef(t.repo, t.outputRef);
  const interpreters = renderedHead
    ? await interpretersOfRendered(t.repo, renderedHead).catch(() => undefined)
    : undefined;
  try {
    const started = performance.now();
    delivery = await applyRendered({
      repo: t.repo,
      outputRef: t.outputRef,
      ...(renderedHead ? { commit: renderedHead } : {}),
      ...(interpreters ? { interpreters } : {}),
      clusters,
      ...(t.statusRef ? { statusRef: t.statusRef } : {}),
      ...(t.replica ? { replica: t.replica } : {}),
    });
    for (const [name, d] of delivery.clusters) {
      const counts: Record<string, number> = {};
      for (const r of d.results) counts[r.action] = (counts[r.action] ?? 0) + 1;
      t.log({
        step: 'apply',
        cluster: name,
        sourceCommit: delivery.sourceCommit,
        writes: d.writes,
        ...counts,
        ...failedObjects(d.results),
        ms: Math.round(performance.now() - started),
        ...(d.prune?.held.length ? { pruneHeld: d.prune.held.map((h) => h.message), fix: d.prune.fix } : {}),
      });
    }
  } catch (err) {
    // No rendered branch yet: nothing to deliver, and nothing to prune.
    t.log({ step: 'apply', skipped: (err as Error).message });
  }
  const mcs = delivery
    ? await readMultiClusterServiceContext(t.repo, delivery.renderedCommit, t.statusRef ?? DEFAULT_STATUS_REF)
    : undefined;
  const modelsOf = await resourceModelsAt(t.repo, delivery?.renderedCommit ?? renderedHead);
  const reports: ClusterReport[] = await Promise.all(
    [...clusters].map(async ([cluster, kube]) => {
      const status = await collectClusterStatus(kube, {
        resourceModels: modelsOf(cluster),
        onUnreachable: (detail) => t.log({ step: 'status', cluster, unreachable: detail }),
      }).catch(() => undefined);
      const d = delivery?.clusters.get(cluster);
      const reachable = memberAnswered(status);
      // After the apply: a ServiceExport just created has its slices collected in the same pass.
      const exports =
        d && reachable ? await collectExportedEndpoints(kube, serviceExportsOf(d.inventory, cluster, mcs)) : undefined;
      return { cluster, ...(status ? { status } : {}), ...(d ? { delivery: d } : {}), ...(exports ? { exports } : {}) };
    }),
  );
  const config = await readClusterConfig(t.repo, t.outputRef, t.renderLimits);
  const decisions = delivery?.sourceCommit
    ? await autoscale(t, clusters, reports, delivery.renderedCommit, delivery.sourceCommit)
    : {};
  const multiClusterServices = delivery ? await multiClusterServiceStatus(t, delivery.renderedCommit) : undefined;
  const written = await writeStatus({
    repo: t.repo,
    reports,
    ...(t.replica ? { replica: t.replica } : {}),
    ...decisions,
    ...(multiClusterServices ? { multiClusterServices } : {}),
    ...(t.statusRef ? { statusRef: t.statusRef } : {}),
    ...(interpreters ? { interpreters } : {}),
    ...(t.now ? { now: t.now } : {}),
    clusterOptions: {
      clusters: config.clusters,
      taintPolicies: config.taintPolicies,
      ...(t.readyThresholds ? { thresholds: t.readyThresholds } : {}),
    },
    ...(delivery ? { renderedCommit: delivery.renderedCommit } : {}),
    ...(delivery?.sourceCommit ? { sourceCommit: delivery.sourceCommit } : {}),
  });
  if (written.commit)
    t.log({
      step: 'status',
      sourceCommit: delivery?.sourceCommit,
      statusCommit: written.commit,
      paths: written.changedPaths.length,
    });
  if (delivery && t.afterApply) {
    await t.afterApply(delivery).catch((err: unknown) =>
      t.log({
        step: 'afterApply',
        sourceCommit: delivery?.sourceCommit,
        error: err instanceof Error ? err.message : String(err),
      }),
    );
  }
  const writes = [...(delivery?.clusters.values() ?? [])].reduce((s, d) => s + d.writes, 0);
  return {
    rendered,
    ...(prune ? { prune } : {}),
    delivery,
    statusCommit: written.commit,
    statusPaths: written.changedPaths,
    writes,
    reports,
  };
}

export type StatusPassTarget = Omit<
  ReconcileTarget,
  'sourceRef' | 'render' | 'afterApply' | 'gracefulEvictionTimeoutSeconds'
>;

/** One object read back in a status pass that is not Healthy yet. */
export interface PendingObject {
  cluster: string;
  ref: ObjectRef;
}

export interface StatusPassResult {
  statusCommit: string | null;
  changedPaths: string[];
  /** What each member reported: its probe, and the objects read back. */
  reports: ClusterReport[];
  /** Inventory objects a member no longer has: drift, which only a full pass (an apply) repairs. */
  missing: PendingObject[];
  /** Objects read back whose health is not Healthy (a rollout still in progress). */
  unhealthy: PendingObject[];
  /** Objects that could not be read (member unreachable, kind not served). */
  unread: number;
}

/**
 * The status pass, Karmada's cluster status controller plus its work status controller, on a cadence of their own:
 * probe each member, read back the objects of its inventory, commit what changed to the status branch. No render
 * and no member write: only GETs are sent, so it can run every few seconds.
 */
export async function reconcileStatusOnce(t: StatusPassTarget): Promise<StatusPassResult> {
  const statusRef = t.statusRef ?? DEFAULT_STATUS_REF;
  const clusters = typeof t.clusters === 'function' ? await t.clusters() : t.clusters;
  const renderedCommit = await readRef(t.repo, t.outputRef);
  const sourceCommit = renderedCommit ? (await readLastRenderAt(t.repo, renderedCommit)).source : undefined;
  const interpreters = renderedCommit
    ? await interpretersOfRendered(t.repo, renderedCommit).catch(() => undefined)
    : undefined;
  const inventories = await readInventories(t.repo, statusRef, [...clusters.keys()]);
  const modelsOf = await resourceModelsAt(t.repo, renderedCommit);
  const mcs = renderedCommit ? await readMultiClusterServiceContext(t.repo, renderedCommit, statusRef) : undefined;
  const missing: PendingObject[] = [];
  const unhealthy: PendingObject[] = [];
  let unread = 0;
  const reports: ClusterReport[] = await Promise.all(
    [...clusters].map(async ([cluster, kube]) => {
      const status = await collectClusterStatus(kube, {
        resourceModels: modelsOf(cluster),
        onUnreachable: (detail) => t.log({ step: 'status', cluster, unreachable: detail }),
      }).catch(() => undefined);
      const reachable = memberAnswered(status);
      const objects = inventories.get(cluster)?.objects ?? [];
      // An unreachable member answers no GET either: do not spend retries on each of its objects.
      const live =
        reachable && objects.length > 0
          ? await readLiveObjects(kube, objects)
          : { found: [], missing: [], unread: objects.length };
      missing.push(...live.missing.map((ref) => ({ cluster, ref })));
      unread += live.unread;
      for (const o of live.found) {
        const custom = customizationFor(interpreters ?? BUILT_IN_INTERPRETERS, o.ref);
        if (((custom ? customHealth(custom, o.live) : undefined) ?? interpretHealth(o.live)) !== 'Healthy')
          unhealthy.push({ cluster, ref: o.ref });
      }
      const exports = reachable
        ? await collectExportedEndpoints(kube, serviceExportsOf(objects, cluster, mcs))
        : undefined;
      return {
        cluster,
        ...(status ? { status } : {}),
        ...(live.found.length > 0 ? { observed: live.found } : {}),
        ...(exports ? { exports } : {}),
      };
    }),
  );
  const config = await readClusterConfig(t.repo, t.outputRef, t.renderLimits);
  const decisions =
    renderedCommit && sourceCommit ? await autoscale(t, clusters, reports, renderedCommit, sourceCommit) : {};
  const multiClusterServices = renderedCommit ? await multiClusterServiceStatus(t, renderedCommit) : undefined;
  const written = await writeStatus({
    repo: t.repo,
    reports,
    ...(t.replica ? { replica: t.replica } : {}),
    ...decisions,
    ...(multiClusterServices ? { multiClusterServices } : {}),
    statusRef,
    ...(interpreters ? { interpreters } : {}),
    ...(t.now ? { now: t.now } : {}),
    clusterOptions: {
      clusters: config.clusters,
      taintPolicies: config.taintPolicies,
      ...(t.readyThresholds ? { thresholds: t.readyThresholds } : {}),
    },
    ...(renderedCommit ? { renderedCommit } : {}),
    ...(sourceCommit ? { sourceCommit } : {}),
  });
  return { statusCommit: written.commit, changedPaths: written.changedPaths, reports, missing, unhealthy, unread };
}

/** Each repository's FederatedHPA memory (last evaluations, recommendations), kept across passes as Karmada keeps it. */
const autoscalerMemories = new WeakMap<GitRepo, AutoscalerMemory>();

/** What this pass decides beside its status: none when this process does not decide (not the leader). */
interface Decisions {
  /** FederatedHPA and CronFederatedHPA decisions, and synced records to delete; absent when none changed. */
  autoscalers?: AutoscalerEdits;
  /** The replicas syncer's Deployments, decided on the status commit's own files (writeStatus). */
  replicasSync?: ReplicasSyncPlan;
}

/**
 * The FederatedHPA decisions of this pass, from the members just probed, and the replicas syncer's plan; nothing
 * when there is nothing to decide or it failed (logged: a metrics read never fails the pass, the last decision stays).
 */
async function autoscale(
  t: Pick<ReconcileTarget, 'repo' | 'statusRef' | 'log' | 'now' | 'autoscalerOptions' | 'autoscaling' | 'renderLimits'>,
  passClusters: ReadonlyMap<string, KubeTarget>,
  reports: readonly ClusterReport[],
  renderedCommit: string,
  sourceCommit: string,
): Promise<Decisions> {
  let memory = autoscalerMemories.get(t.repo);
  if (!memory) autoscalerMemories.set(t.repo, (memory = newAutoscalerMemory()));
  try {
    const chosen = t.autoscaling ? await t.autoscaling() : undefined;
    if (chosen === null) return {};
    const clusters = chosen?.clusters ?? passClusters;
    const statusHead = await readRef(t.repo, t.statusRef ?? DEFAULT_STATUS_REF);
    const ready =
      chosen?.ready ??
      new Set(
        reports
          .filter((r) => r.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
          .map((r) => r.cluster),
      );
    // A render that held its source commit whole (too large to walk) shows the last good one's FederatedHPAs.
    const shown = commitTrailers(await readCommitInfo(t.repo, renderedCommit))[LAST_GOOD_TRAILER] ?? sourceCommit;
    const edits = await decideFederatedHpas({
      repo: t.repo,
      sourceCommit: shown,
      renderedCommit,
      existing: await readAutoscalerDecisions(t.repo, statusHead ?? null),
      existingCrons: await readCronAutoscalers(t.repo, statusHead ?? null),
      clusters,
      ready,
      now: (t.now ?? (() => new Date()))(),
      memory,
      ...(t.autoscalerOptions ? { options: t.autoscalerOptions } : {}),
      ...(t.renderLimits ? { limits: t.renderLimits } : {}),
    });
    // Karmada's replicas syncer runs beside the FederatedHPA controller: its counts are status commits alike, but
    // decided on the template status this pass commits (Karmada's syncer runs on that status update), not the last.
    const replicasSync = memory.source
      ? await planReplicasSyncs({
          repo: t.repo,
          renderedCommit,
          templates: memory.source.templates,
          existing: await listSyncedReplicas(t.repo, statusHead ?? null),
        })
      : undefined;
    return {
      ...(edits.edits.size > 0 ? { autoscalers: edits } : {}),
      ...(replicasSync ? { replicasSync } : {}),
    };
  } catch (err) {
    t.log({ step: 'autoscale', error: err instanceof Error ? err.message : String(err) });
    return {};
  }
}

/**
 * The status conditions of the rendered commit's CrossCluster MultiClusterServices, to commit with this pass's status;
 * undefined when none changed or the read failed (logged: it never fails the pass, the files stay as they were).
 */
async function multiClusterServiceStatus(
  t: Pick<ReconcileTarget, 'repo' | 'statusRef' | 'log' | 'now'>,
  renderedCommit: string,
): Promise<MultiClusterServiceStatusEdits | undefined> {
  try {
    const now = (t.now ?? (() => new Date()))();
    const edits = await readMultiClusterServiceStatus(t.repo, renderedCommit, t.statusRef ?? DEFAULT_STATUS_REF, now);
    return edits.edits.size > 0 ? edits : undefined;
  } catch (err) {
    t.log({ step: 'multiclusterservice-status', error: err instanceof Error ? err.message : String(err) });
    return undefined;
  }
}

/** Each member's resource models as the rendered commit registers it (Karmada's defaults when it does not say). */
async function resourceModelsAt(
  repo: GitRepo,
  renderedCommit: string | null | undefined,
): Promise<(cluster: string) => readonly ResourceModel[]> {
  const registered = renderedCommit
    ? await readRegisteredClusters(repo, renderedCommit).catch(() => undefined)
    : undefined;
  const byName = new Map((registered ?? []).map((c) => [c.name, c]));
  return (cluster) => resourceModelsOf(byName.get(cluster));
}

/** What an apply failed or conflicted on, for its log line (at most 20). */
function failedObjects(results: Parameters<typeof describeFailures>[0]): { problems?: string[] } {
  const problems = describeFailures(results);
  return problems.length > 0 ? { problems: problems.slice(0, 20) } : {};
}
