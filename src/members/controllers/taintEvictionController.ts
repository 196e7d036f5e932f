import type { KubeObject, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
import { tolerates } from './nodeFit.ts';
import { isTerminal, PODS } from './workloadPods.ts';

const NODES = '/nodes';

/**
 * Kubernetes' taint-eviction controller: a pod on a node with a NoExecute taint it does not tolerate is deleted at
 * once; one it tolerates for tolerationSeconds is deleted that long after the taint was added (the shortest of its
 * matching tolerations), unless the taint goes first. A toleration without tolerationSeconds keeps the pod there.
 */
export function taintEvictionController(deps: ControllerDeps): Controller {
  const { store, registry } = deps;
  const timers = new Map<string, NodeJS.Timeout>();

  /** When a taint without timeAdded was first seen on its node: its tolerations count from then, not from each look. */
  const seen = new Map<string, number>();
  function firstSeen(nodeName: string, taint: any): number {
    const id = `${nodeName}\u0000${taint.key}\u0000${taint.value ?? ''}`;
    let at = seen.get(id);
    if (at === undefined) seen.set(id, (at = Date.now()));
    return at;
  }

  function cancel(uid: string): void {
    const timer = timers.get(uid);
    if (timer) clearTimeout(timer);
    timers.delete(uid);
  }

  function evict(pod: KubeObject): void {
    cancel(pod.metadata.uid!);
    store.delete(registry.byResourceKey(PODS)!, pod.metadata.namespace, pod.metadata.name!);
  }

  function reconcile(key: string): void {
    const [namespace, name] = splitKey(key);
    const pod = store.get(PODS, namespace, name);
    if (!pod) return;
    const uid = pod.metadata.uid!;
    const node = pod.spec?.nodeName ? store.get(NODES, undefined, pod.spec.nodeName) : undefined;
    if (!node || pod.metadata.deletionTimestamp || isTerminal(pod)) return cancel(uid);
    const tolerations: any[] = pod.spec?.tolerations ?? [];
    const taints: any[] = (node.spec?.taints ?? []).filter((t: any) => t?.effect === 'NoExecute');
    if (taints.some((taint) => !tolerates(tolerations, taint))) return evict(pod);
    // Each taint's deadline: its timeAdded plus the shortest tolerationSeconds among the tolerations matching it.
    let deadline = Number.POSITIVE_INFINITY;
    for (const taint of taints) {
      const seconds = tolerations
        .filter((t) => tolerates([t], taint) && typeof t.tolerationSeconds === 'number')
        .map((t) => t.tolerationSeconds as number);
      if (seconds.length === 0) continue;
      const added = Date.parse(taint.timeAdded ?? '') || firstSeen(node.metadata.name!, taint);
      deadline = Math.min(deadline, added + Math.max(0, Math.min(...seconds)) * 1000);
    }
    cancel(uid);
    if (deadline === Number.POSITIVE_INFINITY) return;
    if (deadline <= Date.now()) return evict(pod);
    const timer = setTimeout(() => {
      timers.delete(uid);
      reconcile(key);
    }, deadline - Date.now());
    timer.unref();
    timers.set(uid, timer);
  }

  const podsOn = (nodeName: string) =>
    store
      .list(PODS)
      .filter((p) => p.spec?.nodeName === nodeName)
      .map((p) => keyOf(p.metadata.namespace, p.metadata.name!));

  return {
    name: 'taint-eviction',
    keysFor(event: StoreEvent): string[] {
      const o = event.object;
      if (event.resource === NODES && event.type !== 'DELETED') return podsOn(o.metadata.name!);
      if (event.resource === PODS) {
        if (event.type === 'DELETED') {
          cancel(o.metadata.uid!);
          return [];
        }
        // A pod bound to a node, or changed there: its tolerations against the node's taints.
        return o.spec?.nodeName ? [keyOf(o.metadata.namespace, o.metadata.name!)] : [];
      }
      return [];
    },
    reconcile,
    initialKeys: () => store.list(NODES).flatMap((n) => podsOn(n.metadata.name!)),
    stop(): void {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
