import { syncControllerRevision } from './controllerRevisions.ts';
import type { KubeObject, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
import { nodeRejects } from './nodeFit.ts';
import {
  controlledBy,
  controllerKeys,
  createPod,
  PodCreateRefused,
  RefusedCreates,
  isActive,
  isReady,
  PODS,
  podFromTemplate,
  statusChanged,
  templateHash,
  withoutZeroCounts,
} from './workloadPods.ts';

const DAEMONSETS = 'apps/daemonsets';
const NODES = '/nodes';

/** DaemonSet → one pod per eligible node (selector, affinity and taints; cordoned nodes still count). */
export function daemonSetController(deps: ControllerDeps): Controller {
  const { store, registry } = deps;
  const refusals = new RefusedCreates();

  function reconcile(key: string): void {
    const [namespace, name] = splitKey(key);
    refusals.cleared(namespace!, key);
    const ds = store.get(DAEMONSETS, namespace, name);
    if (!ds || ds.metadata.deletionTimestamp) return;
    const podType = registry.byResourceKey(PODS)!;
    const hash = templateHash(ds.spec?.template);
    const inUse = new Set(
      controlledBy(store, ds, PODS).map(
        (p) => `${ds.metadata.name}-${p.metadata.labels?.['controller-revision-hash']}`,
      ),
    );
    syncControllerRevision(deps, ds, hash, inUse);
    const probe = withDaemonTolerations(podFromTemplate(ds, 'probe', {}));
    const eligible = store
      .list(NODES)
      .filter((node) => !nodeRejects(probe, node, { ignoreUnschedulable: true }))
      .map((n) => n.metadata.name!);
    let pods = controlledBy(store, ds, PODS).filter(isActive);
    for (const pod of pods) {
      const stale = pod.metadata.labels?.['controller-revision-hash'] !== hash;
      const misplaced = !eligible.includes(pod.spec?.nodeName);
      const duplicate = pods.filter((p) => p.spec?.nodeName === pod.spec?.nodeName)[0] !== pod;
      if (stale || misplaced || duplicate) store.delete(podType, pod.metadata.namespace, pod.metadata.name!);
    }
    pods = controlledBy(store, ds, PODS).filter(isActive);
    for (const nodeName of eligible) {
      if (pods.some((p) => p.spec?.nodeName === nodeName)) continue;
      const pod = withDaemonTolerations(
        podFromTemplate(
          ds,
          undefined,
          { 'controller-revision-hash': hash, 'pod-template-generation': String(ds.metadata.generation ?? 1) },
          { nodeName },
        ),
      );
      const created = refusals.attempt(namespace!, key, () => createPod(store, podType, pod, Date.parse(deps.now())));
      if (created instanceof PodCreateRefused) break;
      pods.push(created);
    }
    const ready = pods.filter(isReady).length;
    // DaemonSetStatus always writes the four scheduling counters; the others are omitempty.
    const status = withoutZeroCounts(
      {
        observedGeneration: ds.metadata.generation,
        desiredNumberScheduled: eligible.length,
        currentNumberScheduled: pods.length,
        numberMisscheduled: 0,
        numberReady: ready,
        numberAvailable: ready,
        numberUnavailable: Math.max(0, eligible.length - ready),
        updatedNumberScheduled: pods.filter((p) => p.metadata.labels?.['controller-revision-hash'] === hash).length,
      },
      ['numberAvailable', 'numberUnavailable', 'updatedNumberScheduled'],
    );
    if (statusChanged(ds, status))
      store.update(registry.byResourceKey(DAEMONSETS)!, { ...structuredClone(ds), status });
  }

  return {
    name: 'daemonset',
    keysFor(event: StoreEvent): string[] {
      const o = event.object;
      if (event.resource === DAEMONSETS && event.type !== 'DELETED')
        return [keyOf(o.metadata.namespace, o.metadata.name!)];
      if (event.resource === NODES)
        return store.list(DAEMONSETS).map((d) => keyOf(d.metadata.namespace, d.metadata.name!));
      if (event.resource === PODS) {
        return [...refusals.keysFor(event), ...controllerKeys(o, 'DaemonSet')];
      }
      return refusals.keysFor(event);
    },
    reconcile,
    initialKeys: () => store.list(DAEMONSETS).map((o) => keyOf(o.metadata.namespace, o.metadata.name!)),
  };
}

/**
 * The tolerations the DaemonSet controller adds to each pod (AddOrUpdateDaemonPodTolerations): node problems and a
 * cordon never take a daemon off its node; the network one only for a pod on the host's network.
 */
function withDaemonTolerations(pod: KubeObject): KubeObject {
  const added: { key: string; effect: string }[] = [
    { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/disk-pressure', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
    ...(pod.spec?.hostNetwork === true
      ? [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }]
      : []),
  ];
  const own: { key?: string; effect?: string }[] = pod.spec?.tolerations ?? [];
  const kept = own.filter((t) => !added.some((a) => a.key === t.key && a.effect === t.effect));
  pod.spec = {
    ...pod.spec,
    tolerations: [...kept, ...added.map((a) => ({ key: a.key, operator: 'Exists', effect: a.effect }))],
  };
  return pod;
}
