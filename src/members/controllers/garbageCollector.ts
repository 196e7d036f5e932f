import type { ResourceRegistry } from '../resources/ResourceRegistry.ts';
import type { ObjectStore } from '../store/ObjectStore.ts';
import type { KubeObject, ResourceType, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';

function typeOf(registry: ResourceRegistry, resource: string): ResourceType | undefined {
  return registry.byResourceKey(resource);
}

/** Foreground deletion: dependents first, depth-first, synchronously. */
export function deleteDependents(store: ObjectStore, registry: ResourceRegistry, uid: string): void {
  for (const dep of store.dependentsOf(uid)) {
    const rt = typeOf(registry, dep.resource);
    const object = store.get(dep.resource, dep.namespace, dep.name);
    if (!rt || !object) continue;
    deleteDependents(store, registry, object.metadata.uid!);
    if (store.get(dep.resource, dep.namespace, dep.name)) store.delete(rt, dep.namespace, dep.name);
  }
}

/** Orphan deletion: dependents lose their ownerReference to `uid` and stay. */
export function orphanDependents(store: ObjectStore, registry: ResourceRegistry, uid: string): void {
  for (const dep of store.dependentsOf(uid)) {
    const rt = typeOf(registry, dep.resource);
    const object = store.get(dep.resource, dep.namespace, dep.name);
    if (!rt || !object) continue;
    const next = structuredClone(object);
    next.metadata.ownerReferences = (next.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
    if (next.metadata.ownerReferences.length === 0) delete next.metadata.ownerReferences;
    store.update(rt, next);
  }
}

/**
 * Background garbage collection: when an owner goes, each dependent that has no other live owner is
 * deleted (which cascades); one that does keeps living without the stale reference. Objects created with
 * only dangling owners are collected too, as the real collector does.
 */
export function garbageCollector(store: ObjectStore, registry: ResourceRegistry): Controller {
  const ownerAlive = (uid: string) => store.getByUid(uid) !== undefined;

  const collect = (resource: string, object: KubeObject, goneUid?: string) => {
    const rt = typeOf(registry, resource);
    if (!rt) return;
    const refs = object.metadata.ownerReferences ?? [];
    const alive = refs.filter((r) => r.uid !== goneUid && ownerAlive(r.uid));
    if (alive.length === 0) {
      if (!object.metadata.deletionTimestamp) store.delete(rt, object.metadata.namespace, object.metadata.name!);
    } else if (alive.length !== refs.length) {
      store.update(rt, { ...structuredClone(object), metadata: { ...structuredClone(object.metadata), ownerReferences: alive } });
    }
  };

  return {
    name: 'garbage-collector',
    keysFor(event: StoreEvent): string[] {
      if (event.type === 'DELETED') return [`owner:${event.object.metadata.uid}`];
      if (event.type === 'ADDED' && event.object.metadata.ownerReferences?.length) {
        return [`dependent:${event.resource}|${event.object.metadata.namespace ?? ''}|${event.object.metadata.name}`];
      }
      return [];
    },
    reconcile(key: string): void {
      if (key.startsWith('owner:')) {
        const uid = key.slice('owner:'.length);
        for (const dep of store.dependentsOf(uid)) {
          const object = store.get(dep.resource, dep.namespace, dep.name);
          if (object) collect(dep.resource, object, uid);
        }
        return;
      }
      const [resource, namespace, name] = key.slice('dependent:'.length).split('|') as [string, string, string];
      const object = store.get(resource, namespace || undefined, name);
      if (object) collect(resource, object);
    },
    initialKeys(): string[] {
      const keys: string[] = [];
      for (const { resource, object } of store.snapshot()) {
        if (object.metadata.ownerReferences?.length) keys.push(`dependent:${resource}|${object.metadata.namespace ?? ''}|${object.metadata.name}`);
      }
      return keys;
    },
  };
}
