import type { KubeObject, ResourceType, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
import {
  controlledBy,
  ownerReferenceTo,
  setCondition,
  statusChanged,
  templateHash,
  withoutZeroCounts,
} from './workloadPods.ts';

const DEPLOYMENTS = 'apps/deployments';
const REPLICASETS = 'apps/replicasets';
const REVISION = 'deployment.kubernetes.io/revision';

/**
 * Deployment → ReplicaSets, as the deployment controller does it: one ReplicaSet per pod-template hash,
 * the newest scaled to spec.replicas, older ones scaled down as the new one's pods become available
 * (a rolling update), or at once with the Recreate strategy. Status sums the ReplicaSets.
 */
export function deploymentController(deps: ControllerDeps): Controller {
  const { store, registry } = deps;
  const rsType = () => registry.byResourceKey(REPLICASETS)!;
  const deployType = () => registry.byResourceKey(DEPLOYMENTS)!;
  /** Rollouts waiting for their progress deadline, by key. */
  const deadlines = new Map<string, NodeJS.Timeout>();

  function reconcile(key: string): void {
    const [namespace, name] = splitKey(key);
    const deploy = store.get(DEPLOYMENTS, namespace, name);
    if (!deploy || deploy.metadata.deletionTimestamp) return;
    const desired: number = deploy.spec?.replicas ?? 1;
    const hash = templateHash(deploy.spec?.template);
    const owned = controlledBy(store, deploy, REPLICASETS);
    let current = owned.find((rs) => rs.metadata.labels?.['pod-template-hash'] === hash);
    const old = owned
      .filter((rs) => rs !== current)
      .sort(
        (a, b) => Number(b.metadata.annotations?.[REVISION] ?? 0) - Number(a.metadata.annotations?.[REVISION] ?? 0),
      );
    const maxRevision = Math.max(0, ...owned.map((rs) => Number(rs.metadata.annotations?.[REVISION] ?? 0)));
    const recreate = deploy.spec?.strategy?.type === 'Recreate';
    const oldPodsRemain = old.some((rs) => (rs.status?.replicas ?? 0) > 0 || (rs.spec?.replicas ?? 0) > 0);

    // Paused: no new ReplicaSet and no rollout, as syncDeployment hands a paused Deployment to sync(): only the scale
    // of its one active ReplicaSet follows spec.replicas.
    if (deploy.spec?.paused === true && !current) {
      const active = old.filter((rs) => (rs.spec?.replicas ?? 0) > 0);
      if (active.length === 1 && active[0]!.spec.replicas !== desired)
        store.update(rsType(), {
          ...structuredClone(active[0]!),
          spec: { ...structuredClone(active[0]!.spec), replicas: desired },
        });
      writeStatus(deploy, undefined, old, desired);
      return;
    }
    const { surge, unavailable } = recreate ? { surge: 0, unavailable: 0 } : fenceposts(deploy, desired);
    const replicasAnnotations = {
      'deployment.kubernetes.io/desired-replicas': String(desired),
      'deployment.kubernetes.io/max-replicas': String(desired + surge),
    };
    const specReplicas = (rs: KubeObject): number => rs.spec?.replicas ?? 0;
    const oldTotal = old.reduce((n, rs) => n + specReplicas(rs), 0);
    // NewRSNewReplicas: what the surge leaves room for beside the old pods (none yet under Recreate while they remain).
    const target = recreate
      ? oldPodsRemain
        ? 0
        : desired
      : newReplicas(current ? specReplicas(current) : 0, desired, surge, oldTotal);
    if (!current) {
      current = store.create(rsType(), newReplicaSet(deploy, hash, maxRevision + 1, target, replicasAnnotations));
    } else {
      const revision = current.metadata.annotations?.[REVISION] ?? String(maxRevision + 1);
      const wantRevision = Number(revision) < maxRevision && old.length > 0 ? String(maxRevision + 1) : revision;
      const wanted = { ...copiedAnnotations(deploy), [REVISION]: wantRevision, ...replicasAnnotations };
      if (
        current.spec?.replicas !== target ||
        Object.entries(wanted).some(([k, v]) => current!.metadata.annotations?.[k] !== v)
      ) {
        const next = structuredClone(current);
        next.spec.replicas = target;
        next.metadata.annotations = { ...(next.metadata.annotations ?? {}), ...wanted };
        current = store.update(rsType(), next);
      }
    }

    // Old ReplicaSets: all at once under Recreate; in a rolling update, only as far as the available pods stay at
    // desired - maxUnavailable (reconcileOldReplicaSets: their unhealthy pods first, then the oldest ReplicaSets').
    const scaleOld = (rs: KubeObject, replicas: number) => {
      if (specReplicas(rs) === replicas) return;
      const next = structuredClone(rs);
      next.spec = { ...next.spec, replicas };
      next.metadata.annotations = { ...(next.metadata.annotations ?? {}), ...replicasAnnotations };
      Object.assign(rs, store.update(rsType(), next));
    };
    if (recreate) for (const rs of old) scaleOld(rs, 0);
    else scaleDownOld(current, old, desired - unavailable, scaleOld);
    pruneHistory(deploy, old);
    writeStatus(deploy, current, old, desired);
  }

  function pruneHistory(deploy: KubeObject, old: KubeObject[]): void {
    const limit: number = deploy.spec?.revisionHistoryLimit ?? 10;
    const idle = old.filter((rs) => (rs.spec?.replicas ?? 0) === 0 && (rs.status?.replicas ?? 0) === 0);
    for (const rs of idle.slice(limit)) store.delete(rsType(), rs.metadata.namespace, rs.metadata.name!);
  }

  /**
   * syncRolloutStatus's Progressing condition: NewReplicaSetAvailable once the rollout completes (kept through later
   * resyncs), ReplicaSetUpdated with a fresh lastUpdateTime whenever the rollout makes progress, and
   * ProgressDeadlineExceeded once progressDeadlineSeconds pass without any, at which `kubectl rollout status` gives up.
   * A rollout still in time is looked at again when its deadline passes (requeueStuckDeployment).
   */
  function rolloutProgress(
    deploy: KubeObject,
    conditions: any[],
    rsName: string | undefined,
    counts: { replicas: number; updated: number; ready: number; available: number },
    complete: boolean,
    now: string,
  ): any[] {
    const key = keyOf(deploy.metadata.namespace, deploy.metadata.name!);
    const previous = conditions.find((c) => c.type === 'Progressing');
    const deadline: unknown = deploy.spec?.progressDeadlineSeconds;
    const hasDeadline = typeof deadline === 'number' && deadline !== MAX_INT32;
    if (counts.replicas === counts.updated && previous?.reason === 'NewReplicaSetAvailable') return conditions;
    if (complete)
      return setCondition(
        conditions,
        'Progressing',
        'True',
        'NewReplicaSetAvailable',
        `ReplicaSet "${rsName}" has successfully progressed.`,
        now,
        { lastUpdateTime: '' },
      );
    const moving = `ReplicaSet "${rsName}" is progressing.`;
    // A condition about another ReplicaSet is an earlier rollout's: this one has just started.
    const thisRollout = typeof previous?.message === 'string' && previous.message.startsWith(`ReplicaSet "${rsName}" `);
    if (!thisRollout || madeProgress(deploy.status ?? {}, counts)) {
      // Progress moves lastUpdateTime even when the reason and message stay: the deadline counts from it.
      const condition = {
        type: 'Progressing',
        status: 'True',
        reason: 'ReplicaSetUpdated',
        message: moving,
        lastTransitionTime: previous?.status === 'True' ? previous.lastTransitionTime : now,
        lastUpdateTime: now,
      };
      if (hasDeadline) requeueAt(key, Date.parse(now) + deadline * 1000);
      return [...conditions.filter((c) => c !== previous), condition];
    }
    if (!hasDeadline || previous.reason === 'ProgressDeadlineExceeded') return conditions;
    const due = Date.parse(previous.lastUpdateTime ?? previous.lastTransitionTime) + deadline * 1000;
    if (due < Date.parse(now))
      return setCondition(
        conditions,
        'Progressing',
        'False',
        'ProgressDeadlineExceeded',
        `ReplicaSet "${rsName}" has timed out progressing.`,
        now,
        { lastUpdateTime: '' },
      );
    requeueAt(key, due);
    return conditions;
  }

  /** Reconciles the Deployment a second after `dueMs`, when its progress deadline has passed (the clock has seconds). */
  function requeueAt(key: string, dueMs: number): void {
    clearTimeout(deadlines.get(key));
    const timer = setTimeout(
      () => {
        deadlines.delete(key);
        reconcile(key);
      },
      Math.max(0, dueMs + 1000 - Date.parse(deps.now())),
    );
    timer.unref();
    deadlines.set(key, timer);
  }

  function writeStatus(deploy: KubeObject, current: KubeObject | undefined, old: KubeObject[], desired: number): void {
    const all = current ? [current, ...old] : old;
    const sum = (field: string) => all.reduce((n, rs) => n + (rs.status?.[field] ?? 0), 0);
    const replicas = sum('replicas');
    const ready = sum('readyReplicas');
    const available = sum('availableReplicas');
    const updated: number = current?.status?.replicas ?? 0;
    const now = deps.now();
    const extra = { lastUpdateTime: '' };
    let conditions = setCondition(
      deploy.status?.conditions,
      'Available',
      available >= desired ? 'True' : 'False',
      available >= desired ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
      available >= desired ? 'Deployment has minimum availability.' : 'Deployment does not have minimum availability.',
      now,
      extra,
    );
    const complete = updated === desired && available >= desired && replicas === desired;
    // checkPausedConditions: a paused Deployment's progress is Unknown until it is resumed.
    conditions =
      deploy.spec?.paused === true
        ? setCondition(conditions, 'Progressing', 'Unknown', 'DeploymentPaused', 'Deployment is paused', now, extra)
        : rolloutProgress(
            deploy,
            conditions,
            current?.metadata.name,
            { replicas, updated, ready, available },
            complete,
            now,
          );
    conditions = withReplicaFailure(conditions, current, old);
    // DeploymentStatus tags every counter omitempty.
    const counted = withoutZeroCounts(
      { replicas, updatedReplicas: updated, readyReplicas: ready, availableReplicas: available },
      ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas'],
    );
    const status = {
      observedGeneration: deploy.metadata.generation,
      ...counted,
      ...(Math.max(0, replicas - available) > 0 || desired > available
        ? { unavailableReplicas: Math.max(0, Math.max(replicas, desired) - available) }
        : {}),
      conditions,
    };
    const revision = current?.metadata.annotations?.[REVISION];
    const needsRevision = revision !== undefined && deploy.metadata.annotations?.[REVISION] !== revision;
    if (!statusChanged(deploy, status) && !needsRevision) return;
    const next = structuredClone(deploy);
    next.status = status;
    if (needsRevision) next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [REVISION]: revision };
    store.update(deployType() as ResourceType, next);
  }

  return {
    name: 'deployment',
    keysFor(event: StoreEvent): string[] {
      const o = event.object;
      if (event.resource === DEPLOYMENTS && event.type !== 'DELETED')
        return [keyOf(o.metadata.namespace, o.metadata.name!)];
      if (event.resource === REPLICASETS) {
        return (o.metadata.ownerReferences ?? [])
          .filter((r) => r.kind === 'Deployment' && r.controller)
          .map((r) => keyOf(o.metadata.namespace, r.name));
      }
      return [];
    },
    reconcile,
    initialKeys: () => store.list(DEPLOYMENTS).map((d) => keyOf(d.metadata.namespace, d.metadata.name!)),
    stop: () => {
      for (const timer of deadlines.values()) clearTimeout(timer);
      deadlines.clear();
    },
  };
}

/** progressDeadlineSeconds at this value means no deadline (deploymentutil.HasProgressDeadline). */
const MAX_INT32 = 2_147_483_647;

/** deploymentutil.DeploymentProgressing: more pods updated, ready or available, or fewer old ones, than the status says. */
function madeProgress(
  before: { replicas?: number; updatedReplicas?: number; readyReplicas?: number; availableReplicas?: number },
  now: { replicas: number; updated: number; ready: number; available: number },
): boolean {
  const oldBefore = (before.replicas ?? 0) - (before.updatedReplicas ?? 0);
  return (
    now.updated > (before.updatedReplicas ?? 0) ||
    now.replicas - now.updated < oldBefore ||
    now.ready > (before.readyReplicas ?? 0) ||
    now.available > (before.availableReplicas ?? 0)
  );
}

/** Annotations the deployment controller never copies onto its ReplicaSets (deployment/util SkipCopyAnnotation). */
const NOT_COPIED = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION,
  'deployment.kubernetes.io/revision-history',
  'deployment.kubernetes.io/desired-replicas',
  'deployment.kubernetes.io/max-replicas',
  'deprecated.deployment.rollback.to',
]);

/** The Deployment's annotations its new ReplicaSet carries (kubernetes.io/change-cause: `rollout history`'s column). */
function copiedAnnotations(deploy: KubeObject): Record<string, string> {
  return Object.fromEntries(Object.entries(deploy.metadata.annotations ?? {}).filter(([k]) => !NOT_COPIED.has(k)));
}

function newReplicaSet(
  deploy: KubeObject,
  hash: string,
  revision: number,
  replicas: number,
  replicasAnnotations: Record<string, string>,
): KubeObject {
  const template = structuredClone(deploy.spec?.template ?? {});
  template.metadata = {
    ...(template.metadata ?? {}),
    labels: { ...(template.metadata?.labels ?? {}), 'pod-template-hash': hash },
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${deploy.metadata.name}-${hash}`,
      namespace: deploy.metadata.namespace!,
      labels: { ...(deploy.spec?.template?.metadata?.labels ?? {}), 'pod-template-hash': hash },
      annotations: {
        ...copiedAnnotations(deploy),
        [REVISION]: String(revision),
        ...replicasAnnotations,
      },
      ownerReferences: [ownerReferenceTo(deploy)],
    },
    spec: {
      replicas,
      selector: {
        ...(deploy.spec?.selector ?? {}),
        matchLabels: { ...(deploy.spec?.selector?.matchLabels ?? {}), 'pod-template-hash': hash },
      },
      template,
      ...(deploy.spec?.minReadySeconds ? { minReadySeconds: deploy.spec.minReadySeconds } : {}),
    },
  };
}

/**
 * syncRolloutStatus's getReplicaFailures: the new ReplicaSet's ReplicaFailure condition (else an old one's) becomes the
 * Deployment's, set as SetDeploymentCondition sets it (kept while its status and reason stay); none removes it.
 */
function withReplicaFailure(conditions: any[], current: KubeObject | undefined, old: KubeObject[]): any[] {
  const failureOf = (rs: KubeObject | undefined) =>
    (rs?.status?.conditions ?? []).find((c: { type: string }) => c.type === 'ReplicaFailure');
  const failure = failureOf(current) ?? old.map(failureOf).find(Boolean);
  const others = conditions.filter((c) => c.type !== 'ReplicaFailure');
  if (!failure) return others;
  const existing = conditions.find((c) => c.type === 'ReplicaFailure');
  if (existing && existing.status === failure.status && existing.reason === failure.reason) return conditions;
  return [
    ...others,
    {
      type: 'ReplicaFailure',
      status: failure.status,
      lastUpdateTime: failure.lastTransitionTime,
      lastTransitionTime:
        existing?.status === failure.status ? existing.lastTransitionTime : failure.lastTransitionTime,
      reason: failure.reason,
      message: failure.message,
    },
  ];
}

/**
 * ResolveFenceposts: maxSurge (rounded up) and maxUnavailable (rounded down) of the desired count, defaulted 25% each;
 * both 0 would never progress, so maxUnavailable is then 1.
 */
function fenceposts(deploy: KubeObject, desired: number): { surge: number; unavailable: number } {
  const rolling = deploy.spec?.strategy?.rollingUpdate ?? {};
  const surge = scaledValue(rolling.maxSurge ?? '25%', desired, true);
  const unavailable = scaledValue(rolling.maxUnavailable ?? '25%', desired, false);
  return { surge, unavailable: surge === 0 && unavailable === 0 ? 1 : unavailable };
}

/** intstr.GetScaledValueFromIntOrPercent: a count as it is, a percentage of total rounded as asked. */
function scaledValue(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const percent = /^(\d+)%$/.exec(String(value));
  if (!percent) return 0;
  const scaled = (Number(percent[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/**
 * reconcileNewReplicaSet / NewRSNewReplicas: the new ReplicaSet grows while all ReplicaSets together stay within
 * desired + maxSurge, and never past desired; above desired it shrinks to it.
 */
function newReplicas(current: number, desired: number, surge: number, oldTotal: number): number {
  if (current >= desired) return desired;
  const room = desired + surge - (current + oldTotal);
  return room <= 0 ? current : current + Math.min(room, desired - current);
}

/**
 * reconcileOldReplicaSets: old ReplicaSets shrink only by what keeps minAvailable pods available, counting the new
 * ReplicaSet's pods that are not yet available as unavailable; their unhealthy pods go first
 * (cleanupUnhealthyReplicas), then available ones from the oldest ReplicaSet on
 * (scaleDownOldReplicaSetsForRollingUpdate).
 */
function scaleDownOld(
  current: KubeObject,
  old: KubeObject[],
  minAvailable: number,
  scale: (rs: KubeObject, replicas: number) => void,
): void {
  const spec = (rs: KubeObject): number => rs.spec?.replicas ?? 0;
  const available = (rs: KubeObject): number => rs.status?.availableReplicas ?? 0;
  const active = old.filter((rs) => spec(rs) > 0);
  if (active.length === 0) return;
  const all = [current, ...old];
  const newUnavailable = spec(current) - available(current);
  let budget = all.reduce((n, rs) => n + spec(rs), 0) - minAvailable - newUnavailable;
  if (budget <= 0) return;
  const oldestFirst = [...active].sort((a, b) =>
    (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''),
  );
  for (const rs of oldestFirst) {
    if (budget <= 0) break;
    const unhealthy = Math.max(0, spec(rs) - available(rs));
    const cut = Math.min(unhealthy, budget);
    if (cut > 0) {
      scale(rs, spec(rs) - cut);
      budget -= cut;
    }
  }
  let surplus = all.reduce((n, rs) => n + available(rs), 0) - minAvailable;
  for (const rs of oldestFirst) {
    if (surplus <= 0) break;
    const cut = Math.min(spec(rs), surplus);
    if (cut > 0) {
      scale(rs, spec(rs) - cut);
      surplus -= cut;
    }
  }
}
