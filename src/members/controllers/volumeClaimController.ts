import type { KubeObject, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
import { isTerminal, PODS } from './workloadPods.ts';

export const CLAIMS = '/persistentvolumeclaims';
const VOLUMES = '/persistentvolumes';
const STORAGE_CLASSES = 'storage.k8s.io/storageclasses';
/** The finalizer the StorageObjectInUseProtection admission puts on every claim. */
const PROTECTION = 'kubernetes.io/pvc-protection';

/** The claims a pod's volumes name. */
export function mountedClaims(pod: KubeObject): string[] {
  return (pod.spec?.volumes ?? [])
    .map((v: { persistentVolumeClaim?: { claimName?: unknown } }) => v?.persistentVolumeClaim?.claimName)
    .filter((c: unknown): c is string => typeof c === 'string');
}

/**
 * Kubernetes' persistent-volume controller with a dynamic provisioner behind every class: a claim is bound to a new
 * volume `pvc-<claim uid>` of the size it requests, unless it names a StorageClass the cluster does not have (then it
 * stays Pending, as no provisioner answers, until that class is created). A claim naming no class is provisioned, as
 * on kind or a cloud cluster whose default class fills it in. A volume whose claim is gone is deleted (the reclaim
 * policy of provisioned volumes, Delete) unless it says Retain, then it is Released.
 */
export function volumeClaimController(deps: ControllerDeps): Controller {
  const { store, registry } = deps;

  /** Whether a pod that has not finished mounts the claim: what pvc-protection waits for before a claim goes. */
  function inUse(claim: KubeObject): boolean {
    return store
      .list(PODS, claim.metadata.namespace)
      .some((p) => !isTerminal(p) && mountedClaims(p).includes(claim.metadata.name!));
  }

  function reconcileClaim(namespace: string | undefined, name: string): void {
    const claim = store.get(CLAIMS, namespace, name);
    if (!claim) return;
    const type = registry.byResourceKey(CLAIMS)!;
    const finalizers: string[] = claim.metadata.finalizers ?? [];
    if (claim.metadata.deletionTimestamp) {
      // Deleted while a pod mounts it, a claim stays Terminating until that pod is gone (the pvc-protection controller).
      if (finalizers.includes(PROTECTION) && !inUse(claim))
        store.update(type, {
          ...structuredClone(claim),
          metadata: { ...claim.metadata, finalizers: finalizers.filter((f) => f !== PROTECTION) },
        });
      return;
    }
    if (!finalizers.includes(PROTECTION)) {
      store.update(type, {
        ...structuredClone(claim),
        metadata: { ...claim.metadata, finalizers: [...finalizers, PROTECTION] },
      });
      return; // its update comes back as an event
    }
    if (claim.status?.phase === 'Bound') return;
    const className: string | undefined = claim.spec?.storageClassName || undefined;
    if (className !== undefined && !store.get(STORAGE_CLASSES, undefined, className)) return;
    const volumeName = claim.spec?.volumeName || `pvc-${claim.metadata.uid}`;
    const storage = claim.spec?.resources?.requests?.storage;
    const accessModes = claim.spec?.accessModes ?? [];
    if (!store.get(VOLUMES, undefined, volumeName)) {
      const reclaim = className
        ? (store.get(STORAGE_CLASSES, undefined, className)?.reclaimPolicy ?? 'Delete')
        : 'Delete';
      store.create(registry.byResourceKey(VOLUMES)!, {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: {
          name: volumeName,
          annotations: { 'pv.kubernetes.io/provisioned-by': 'flotilla.io/member-emulator' },
        },
        spec: {
          ...(storage !== undefined ? { capacity: { storage } } : {}),
          accessModes,
          claimRef: {
            apiVersion: 'v1',
            kind: 'PersistentVolumeClaim',
            namespace,
            name,
            uid: claim.metadata.uid,
            resourceVersion: claim.metadata.resourceVersion,
          },
          hostPath: {
            path: `/var/local-path-provisioner/${volumeName}_${namespace}_${name}`,
            type: 'DirectoryOrCreate',
          },
          persistentVolumeReclaimPolicy: reclaim,
          ...(className ? { storageClassName: className } : {}),
          volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
        },
        status: { phase: 'Bound' },
      });
    }
    const next = structuredClone(claim);
    next.metadata.annotations = {
      ...(next.metadata.annotations ?? {}),
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
    };
    next.spec = { ...next.spec, volumeName };
    next.status = {
      phase: 'Bound',
      accessModes,
      ...(storage !== undefined ? { capacity: { storage } } : {}),
    };
    store.update(registry.byResourceKey(CLAIMS)!, next);
  }

  function reconcileVolume(name: string): void {
    const volume = store.get(VOLUMES, undefined, name);
    const ref = volume?.spec?.claimRef;
    if (!volume || !ref || volume.metadata.deletionTimestamp) return;
    const claim = store.get(CLAIMS, ref.namespace, ref.name);
    if (claim && (!ref.uid || claim.metadata.uid === ref.uid)) return;
    const type = registry.byResourceKey(VOLUMES)!;
    if (volume.spec.persistentVolumeReclaimPolicy === 'Retain') {
      if (volume.status?.phase !== 'Released')
        store.update(type, { ...structuredClone(volume), status: { phase: 'Released' } });
      return;
    }
    store.delete(type, undefined, name);
  }

  const pendingClaims = (className?: string) =>
    store
      .list(CLAIMS)
      .filter((c) => c.status?.phase !== 'Bound' && (className === undefined || c.spec?.storageClassName === className))
      .map((c) => keyOf(c.metadata.namespace, c.metadata.name!));

  return {
    name: 'persistentvolume',
    keysFor(event: StoreEvent): string[] {
      const o: KubeObject = event.object;
      if (event.resource === CLAIMS) {
        if (event.type !== 'DELETED') return [keyOf(o.metadata.namespace, o.metadata.name!)];
        return o.spec?.volumeName ? [keyOf('', o.spec.volumeName)] : [];
      }
      if (event.resource === STORAGE_CLASSES && event.type !== 'DELETED') return pendingClaims(o.metadata.name);
      // A pod gone or finished may free a claim waiting to be deleted.
      if (event.resource === PODS && (event.type === 'DELETED' || isTerminal(o)))
        return mountedClaims(o).map((claim) => keyOf(o.metadata.namespace, claim));
      return [];
    },
    reconcile(key: string): void {
      const [namespace, name] = splitKey(key);
      if (namespace === undefined) reconcileVolume(name);
      else reconcileClaim(namespace, name);
    },
    initialKeys: () => pendingClaims(),
  };
}
