import type { KubeObject, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
import {
  controlledBy,
  controllerKeys,
  createPod,
  isActive,
  isReady,
  PODS,
  PodCreateRefused,
  podFromTemplate,
  RefusedCreates,
  statusChanged,
  withoutZeroCounts,
} from './workloadPods.ts';

/** The kind a controller of this code keeps pods for, and the store's resource key of that kind. */
interface ReplicatedKind {
  kind: 'ReplicaSet' | 'ReplicationController';
  resource: string;
  name: string;
}

/** Deletion order when scaling down: unscheduled, then pending, then not ready, then newest first. */
function deletionRank(pod: KubeObject): number {
  if (!pod.spec?.nodeName) return 0;
  if (pod.status?.phase !== 'Running') return 1;
  if (!isReady(pod)) return 2;
  return 3;
}

/** ReplicaSet → Pods: create or delete pods until spec.replicas are active, then count them into status. */
export const replicaSetController = (deps: ControllerDeps): Controller =>
  replicatedPodsController(deps, { kind: 'ReplicaSet', resource: 'apps/replicasets', name: 'replicaset' });

/**
 * ReplicationController → Pods, as Kubernetes' ReplicationManager does: the ReplicaSet controller's code over the
 * older kind, with the same status counters.
 */
export const replicationControllerController = (deps: ControllerDeps): Controller =>
  replicatedPodsController(deps, {
    kind: 'ReplicationController',
    resource: '/replicationcontrollers',
    name: 'replicationmanager',
  });

function replicatedPodsController(
  deps: ControllerDeps,
  { kind, resource, name: controllerName }: ReplicatedKind,
): Controller {
  const { store, registry } = deps;
  const refusals = new RefusedCreates();

  function reconcile(key: string): void {
    const [namespace, name] = splitKey(key);
    const rs = store.get(resource, namespace, name);
    if (!rs || rs.metadata.deletionTimestamp) return;
    const podType = registry.byResourceKey(PODS)!;
    const desired: number = rs.spec?.replicas ?? 1;
    let pods = controlledBy(store, rs, PODS).filter(isActive);
    refusals.cleared(namespace!, key);
    let refused: string | undefined;
    for (let i = pods.length; i < desired; i++) {
      const created = refusals.attempt(namespace!, key, () =>
        createPod(store, podType, podFromTemplate(rs, undefined, {}), Date.parse(deps.now())),
      );
      if (created instanceof PodCreateRefused) {
        refused = created.message;
        break;
      }
      pods.push(created);
    }
    if (pods.length > desired) {
      const doomed = [...pods]
        .sort(
          (a, b) =>
            deletionRank(a) - deletionRank(b) ||
            (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? ''),
        )
        .slice(0, pods.length - desired);
      for (const pod of doomed) store.delete(podType, pod.metadata.namespace, pod.metadata.name!);
      pods = pods.filter((p) => !doomed.includes(p));
    }
    const ready = pods.filter(isReady).length;
    // ReplicaSetStatus: replicas is always written, the other counters are omitempty.
    const status = withoutZeroCounts(
      {
        replicas: pods.length,
        fullyLabeledReplicas: pods.length,
        readyReplicas: ready,
        availableReplicas: ready,
        observedGeneration: rs.metadata.generation,
        ...replicaFailure(rs.status?.conditions, refused, deps.now()),
      },
      ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'],
    );
    if (statusChanged(rs, status)) store.update(registry.byResourceKey(resource)!, { ...structuredClone(rs), status });
  }

  return {
    name: controllerName,
    keysFor(event: StoreEvent): string[] {
      const o = event.object;
      if (event.resource === resource && event.type !== 'DELETED')
        return [keyOf(o.metadata.namespace, o.metadata.name!)];
      const retried = refusals.keysFor(event);
      if (event.resource === PODS) {
        return [...retried, ...controllerKeys(o, kind)];
      }
      return retried;
    },
    reconcile,
    initialKeys: () => store.list(resource).map((o) => keyOf(o.metadata.namespace, o.metadata.name!)),
  };
}

/**
 * calculateStatus's conditions: a failed pod create sets ReplicaFailure (FailedCreate, the create's error) once, and a
 * sync that creates what it must removes it.
 */
function replicaFailure(
  conditions: any[] | undefined,
  refused: string | undefined,
  now: string,
): { conditions?: any[] } {
  const others = (conditions ?? []).filter((c) => c.type !== 'ReplicaFailure');
  const failure = (conditions ?? []).find((c) => c.type === 'ReplicaFailure');
  if (refused)
    return {
      conditions: [
        ...others,
        failure ?? {
          type: 'ReplicaFailure',
          status: 'True',
          lastTransitionTime: now,
          reason: 'FailedCreate',
          message: refused,
        },
      ],
    };
  return others.length > 0 ? { conditions: others } : {};
}
