import type { StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import type { ControllerDeps } from './ControllerDeps.ts';

const NAMESPACES = '/namespaces';

/**
 * Namespace deletion: a deleted namespace is Terminating until everything in it is gone; then its
 * `kubernetes` finalizer is dropped and it disappears. Objects held by their own finalizers hold it too.
 */
export function namespaceController(deps: ControllerDeps): Controller {
  const { store, registry } = deps;

  function reconcile(name: string): void {
    const ns = store.get(NAMESPACES, undefined, name);
    if (!ns?.metadata.deletionTimestamp) return;
    let remaining = 0;
    for (const resource of store.resources()) {
      const rt = registry.byResourceKey(resource);
      if (!rt?.namespaced) continue;
      for (const object of store.list(resource, name)) {
        if (!object.metadata.deletionTimestamp) store.delete(rt, name, object.metadata.name!);
        if (store.get(resource, name, object.metadata.name!)) remaining++;
      }
    }
    if (remaining === 0) {
      const next = structuredClone(ns);
      next.spec = { ...(next.spec ?? {}), finalizers: [] };
      store.update(registry.byResourceKey(NAMESPACES)!, next);
    }
  }

  return {
    name: 'namespace',
    keysFor(event: StoreEvent): string[] {
      const o = event.object;
      if (event.resource === NAMESPACES && o.metadata.deletionTimestamp && event.type !== 'DELETED')
        return [o.metadata.name!];
      if (
        event.type === 'DELETED' &&
        o.metadata.namespace &&
        store.get(NAMESPACES, undefined, o.metadata.namespace)?.metadata.deletionTimestamp
      ) {
        return [o.metadata.namespace];
      }
      return [];
    },
    reconcile,
    initialKeys: () =>
      store
        .list(NAMESPACES)
        .filter((n) => n.metadata.deletionTimestamp)
        .map((n) => n.metadata.name!),
  };
}
