import type { ResourceRegistry } from '../resources/ResourceRegistry.ts';
import type { ObjectStore } from '../store/ObjectStore.ts';
import type { KubeObject, ResourceType, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

/**
 * The finalizers a DELETE leaves an object with (generic registry's deletionFinalizersForGarbageCollection): the
 * garbage collector's two are dropped, then `orphan` is added when the policy orphans and `foregroundDeletion` when
 * it deletes dependents first. A policy the request names decides; without one, the GC finalizer the object already
 * carries does (an object being deleted keeps its course), else nothing is added, the default being Background.
 * So a Background delete of an object held for a foreground deletion releases it.
 */
export function finalizersOnDelete(
  finalizers: readonly string[],
  requested: 'Orphan' | 'Foreground' | 'Background' | undefined,
): string[] {
  const held = finalizers.find((f) => f === ORPHAN_FINALIZER || f === FOREGROUND_FINALIZER);
  const policy =
    requested ?? (held === ORPHAN_FINALIZER ? 'Orphan' : held === FOREGROUND_FINALIZER ? 'Foreground' : 'Background');
  const kept = finalizers.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (policy === 'Orphan') kept.push(ORPHAN_FINALIZER);
  if (policy === 'Foreground') kept.push(FOREGROUND_FINALIZER);
  return kept;
}

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
      store.update(rt, {
        ...structuredClone(object),
        metadata: { ...structuredClone(object.metadata), ownerReferences: alive },
      });
    }
  };

  const gcFinalizers = (object: KubeObject) =>
    (object.metadata.finalizers ?? []).filter((f) => f === ORPHAN_FINALIZER || f === FOREGROUND_FINALIZER);

  /**
   * An owner deleted with Orphan or Foreground: orphan its dependents, or delete them and wait until they are
   * gone, then drop the finalizer (which deletes the owner once no other finalizer holds it).
   */
  const finalize = (uid: string) => {
    const found = store.getByUid(uid);
    if (!found || !found.object.metadata.deletionTimestamp || gcFinalizers(found.object).length === 0) return;
    const rt = typeOf(registry, found.resource);
    if (!rt) return;
    let finalizers = found.object.metadata.finalizers ?? [];
    if (finalizers.includes(ORPHAN_FINALIZER)) {
      orphanDependents(store, registry, uid);
      finalizers = finalizers.filter((f) => f !== ORPHAN_FINALIZER);
    }
    if (finalizers.includes(FOREGROUND_FINALIZER)) {
      deleteDependents(store, registry, uid);
      const remaining = store.dependentsOf(uid).some((d) => store.get(d.resource, d.namespace, d.name));
      if (!remaining) finalizers = finalizers.filter((f) => f !== FOREGROUND_FINALIZER);
    }
    const current = store.getByUid(uid)?.object;
    if (!current || finalizers.length === (current.metadata.finalizers ?? []).length) return;
    store.update(rt, { ...structuredClone(current), metadata: { ...structuredClone(current.metadata), finalizers } });
  };

  return {
    name: 'garbage-collector',
    keysFor(event: StoreEvent): string[] {
      const o = event.object;
      if (event.type !== 'DELETED' && o.metadata.deletionTimestamp && gcFinalizers(o).length > 0)
        return [`finalize:${o.metadata.uid}`];
      // A dependent going away may be what a foreground deletion of its owners waits for.
      if (event.type === 'DELETED')
        return [`owner:${o.metadata.uid}`, ...(o.metadata.ownerReferences ?? []).map((r) => `finalize:${r.uid}`)];
      if (event.type === 'ADDED' && event.object.metadata.ownerReferences?.length) {
        return [`dependent:${event.resource}|${event.object.metadata.namespace ?? ''}|${event.object.metadata.name}`];
      }
      return [];
    },
    reconcile(key: string): void {
      if (key.startsWith('finalize:')) return finalize(key.slice('finalize:'.length));
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
        if (object.metadata.ownerReferences?.length)
          keys.push(`dependent:${resource}|${object.metadata.namespace ?? ''}|${object.metadata.name}`);
        if (object.metadata.deletionTimestamp && gcFinalizers(object).length > 0)
          keys.push(`finalize:${object.metadata.uid}`);
      }
      return keys;
    },
  };
}
