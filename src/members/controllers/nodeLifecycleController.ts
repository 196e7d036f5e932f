import type { StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import type { ControllerDeps } from './ControllerDeps.ts';

const NODES = '/nodes';
const UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/**
 * The part of Kubernetes' node-lifecycle controller a cordon shows: a node whose spec.unschedulable is true carries
 * the taint node.kubernetes.io/unschedulable:NoSchedule (doNoScheduleTaintingPass), taken off when it is uncordoned.
 */
export function nodeLifecycleController(deps: ControllerDeps): Controller {
  const { store, registry } = deps;

  function reconcile(name: string): void {
    const node = store.get(NODES, undefined, name);
    if (!node || node.metadata.deletionTimestamp) return;
    const taints: { key?: string; effect?: string }[] = node.spec?.taints ?? [];
    const has = taints.some((t) => t.key === UNSCHEDULABLE && t.effect === 'NoSchedule');
    const wants = node.spec?.unschedulable === true;
    if (has === wants) return;
    const next = wants
      ? [...taints, { key: UNSCHEDULABLE, effect: 'NoSchedule' }]
      : taints.filter((t) => !(t.key === UNSCHEDULABLE && t.effect === 'NoSchedule'));
    const spec = { ...structuredClone(node.spec ?? {}) };
    if (next.length > 0) spec.taints = next;
    else delete spec.taints;
    store.update(registry.byResourceKey(NODES)!, { ...structuredClone(node), spec });
  }

  return {
    name: 'node-lifecycle',
    keysFor: (event: StoreEvent) =>
      event.resource === NODES && event.type !== 'DELETED' ? [event.object.metadata.name!] : [],
    reconcile,
    initialKeys: () => store.list(NODES).map((n) => n.metadata.name!),
  };
}
