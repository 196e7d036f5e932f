import { crdResourceTypes } from '../resources/crdResourceTypes.ts';
import { resourceKeyOf } from '../resources/ResourceRegistry.ts';
import type { KubeObject, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import type { ControllerDeps } from './ControllerDeps.ts';
import { setCondition, statusChanged } from './workloadPods.ts';

const CRDS = 'apiextensions.k8s.io/customresourcedefinitions';

/**
 * Serves what CustomResourceDefinitions define. Registration happens synchronously on the store event (so
 * a custom resource applied right after its CRD is accepted); this controller then reports the CRD
 * Established and, when a CRD goes, deletes its custom resources.
 */
export function crdController(deps: ControllerDeps): Controller & { register(event: StoreEvent): void } {
  const { store, registry } = deps;
  const removed = new Map<string, KubeObject>();

  function reconcile(key: string): void {
    if (key.startsWith('cleanup:')) {
      const crd = removed.get(key);
      removed.delete(key);
      const rt = crd && crdResourceTypes(crd)[0];
      if (!rt) return;
      for (const object of store.list(resourceKeyOf(rt)))
        store.delete(rt, object.metadata.namespace, object.metadata.name!);
      return;
    }
    const crd = store.get(CRDS, undefined, key);
    if (!crd || crd.metadata.deletionTimestamp) return;
    const now = deps.now();
    let conditions = setCondition(
      crd.status?.conditions,
      'NamesAccepted',
      'True',
      'NoConflicts',
      'no conflicts found',
      now,
    );
    conditions = setCondition(
      conditions,
      'Established',
      'True',
      'InitialNamesAccepted',
      'the initial names have been accepted',
      now,
    );
    const names = crd.spec?.names ?? {};
    const storage = (crd.spec?.versions ?? []).find((v: any) => v.storage)?.name;
    const status = {
      conditions,
      acceptedNames: {
        ...names,
        singular: names.singular ?? String(names.kind ?? '').toLowerCase(),
        listKind: names.listKind ?? `${names.kind}List`,
      },
      storedVersions: [...new Set([...(crd.status?.storedVersions ?? []), ...(storage ? [storage] : [])])],
    };
    if (statusChanged(crd, status)) store.update(registry.byResourceKey(CRDS)!, { ...structuredClone(crd), status });
  }

  return {
    name: 'customresourcedefinition',
    register(event: StoreEvent): void {
      if (event.resource !== CRDS) return;
      const name = event.object.metadata.name!;
      registry.setCrdTypes(name, event.type === 'DELETED' ? [] : crdResourceTypes(event.object));
    },
    keysFor(event: StoreEvent): string[] {
      if (event.resource !== CRDS) return [];
      if (event.type === 'DELETED') {
        const key = `cleanup:${event.object.metadata.uid}`;
        removed.set(key, event.object);
        return [key];
      }
      return [event.object.metadata.name!];
    },
    reconcile,
    initialKeys: () => store.list(CRDS).map((c) => c.metadata.name!),
  };
}
