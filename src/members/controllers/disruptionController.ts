import { matchLabelSelector } from '../../labels/matchLabelSelector.ts';
import type { KubeObject, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
import { isReady, PODS, setCondition, statusChanged } from './workloadPods.ts';

const BUDGETS = 'policy/poddisruptionbudgets';
/** The controllers whose scale a budget given in percent (or by maxUnavailable) counts, by owner kind. */
const SCALED: Record<string, string> = {
  ReplicaSet: 'apps/replicasets',
  StatefulSet: 'apps/statefulsets',
  ReplicationController: '/replicationcontrollers',
  Deployment: 'apps/deployments',
};

/**
 * Kubernetes' disruption controller: each PodDisruptionBudget's status from the pods its selector takes (a nil
 * selector takes none, an empty one all of the namespace). Healthy pods are Ready and not being deleted; the expected
 * count is the pods' number for an integer minAvailable, else the scale of their controllers (a ReplicaSet counted as
 * its Deployment), and a percentage rounds up. Karmada reads currentHealthy >= desiredHealthy as healthy.
 */
export function disruptionController(deps: ControllerDeps): Controller {
  const { store, registry } = deps;

  /** A ReplicaSet a Deployment controls stands for that Deployment, as the controller's finders resolve it. */
  function scaleOwner(pod: KubeObject): KubeObject | undefined {
    const ref = pod.metadata.ownerReferences?.find((r) => r.controller);
    const resource = ref && SCALED[ref.kind];
    if (!ref || !resource) return undefined;
    const owner = store.get(resource, pod.metadata.namespace, ref.name);
    if (!owner || owner.metadata.uid !== ref.uid) return undefined;
    const up = ref.kind === 'ReplicaSet' ? owner.metadata.ownerReferences?.find((r) => r.controller) : undefined;
    const deployment =
      up?.kind === 'Deployment' ? store.get(SCALED.Deployment!, pod.metadata.namespace, up.name) : undefined;
    return deployment?.metadata.uid === up?.uid && deployment ? deployment : owner;
  }

  function reconcile(key: string): void {
    const [namespace, name] = splitKey(key);
    const budget = store.get(BUDGETS, namespace, name);
    if (!budget || budget.metadata.deletionTimestamp) return;
    const selector = budget.spec?.selector;
    const pods = selector
      ? store.list(PODS, namespace).filter((p) => matchLabelSelector(selector, p.metadata.labels))
      : [];
    const currentHealthy = pods.filter((p) => !p.metadata.deletionTimestamp && isReady(p)).length;
    const { minAvailable, maxUnavailable } = budget.spec ?? {};
    let expectedPods: number;
    let desiredHealthy: number;
    if (maxUnavailable === undefined && typeof minAvailable === 'number') {
      expectedPods = pods.length;
      desiredHealthy = minAvailable;
    } else {
      const owners = new Map<string, number>();
      for (const pod of pods) {
        const owner = scaleOwner(pod);
        if (owner) owners.set(owner.metadata.uid!, owner.spec?.replicas ?? 1);
      }
      expectedPods = [...owners.values()].reduce((a, b) => a + b, 0);
      desiredHealthy =
        maxUnavailable !== undefined
          ? Math.max(0, expectedPods - scaled(maxUnavailable, expectedPods))
          : scaled(minAvailable ?? 1, expectedPods);
    }
    const disruptionsAllowed = expectedPods > 0 ? Math.max(0, currentHealthy - desiredHealthy) : 0;
    const allowed = disruptionsAllowed > 0;
    const status = {
      observedGeneration: budget.metadata.generation,
      disruptionsAllowed,
      currentHealthy,
      desiredHealthy,
      expectedPods,
      conditions: setCondition(
        budget.status?.conditions,
        'DisruptionAllowed',
        allowed ? 'True' : 'False',
        allowed ? 'SufficientPods' : 'InsufficientPods',
        '',
        deps.now(),
      ).map((c) => (c.type === 'DisruptionAllowed' ? { ...c, observedGeneration: budget.metadata.generation } : c)),
    };
    if (statusChanged(budget, status))
      store.update(registry.byResourceKey(BUDGETS)!, { ...structuredClone(budget), status });
  }

  const inNamespace = (namespace: string | undefined) =>
    store.list(BUDGETS, namespace).map((b) => keyOf(b.metadata.namespace, b.metadata.name!));

  return {
    name: 'disruption',
    keysFor(event: StoreEvent): string[] {
      const o = event.object;
      if (event.resource === BUDGETS)
        return event.type === 'DELETED' ? [] : [keyOf(o.metadata.namespace, o.metadata.name!)];
      if (event.resource === PODS || Object.values(SCALED).includes(event.resource))
        return inNamespace(o.metadata.namespace);
      return [];
    },
    reconcile,
    initialKeys: () => inNamespace(undefined),
  };
}

/** An IntOrString against a total: a percentage rounds up (GetScaledValueFromIntOrPercent, roundUp true). */
function scaled(value: number | string, total: number): number {
  if (typeof value === 'number') return value;
  const percent = /^(\d+)%$/.exec(value);
  return percent ? Math.ceil((Number(percent[1]) * total) / 100) : 0;
}
