import type { KubeObject, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
import { isTerminal, PODS } from './workloadPods.ts';
import { parseQuantity, quantityValue } from '../../quantities/parseQuantity.ts';

export const CLAIMS = '/persistentvolumeclaims';
const VOLUMES = '/persistentvolumes';
const STORAGE_CLASSES = 'storage.k8s.io/storageclasses';
/** The finalizer the StorageObjectInUseProtection admission puts on every claim. */
const PROTECTION = 'kubernetes.io/pvc-protection';

/** reference.GetReference of a claim: what a volume bound to it names. */
function claimRefOf(claim: KubeObject): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    namespace: claim.metadata.namespace,
    name: claim.metadata.name,
    uid: claim.metadata.uid,
    resourceVersion: claim.metadata.resourceVersion,
  };
}

/** Whether a volume's claimRef names the claim: its namespace and name, and its uid unless the ref leaves it out. */
function namesClaim(ref: { namespace?: string; name?: string; uid?: string } | undefined, claim: KubeObject): boolean {
  return (
    ref !== undefined &&
    ref.namespace === claim.metadata.namespace &&
    ref.name === claim.metadata.name &&
    (!ref.uid || ref.uid === claim.metadata.uid)
  );
}

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
 * on kind or a cloud cluster whose default class fills it in. A volume a user made is bound to the claim that names
 * it (spec.volumeName) or that it names (spec.claimRef), never provisioned over, and is Available until then. A
 * volume whose claim is gone is deleted (the reclaim policy of provisioned volumes, Delete) unless it says Retain,
 * then it is Released.
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
    if (claim.status?.phase === 'Bound') {
      // syncBoundClaim: a volume that lost its claimRef (or never got it) is bound to the claim again.
      const volume = claim.spec?.volumeName ? store.get(VOLUMES, undefined, claim.spec.volumeName) : undefined;
      if (volume && !volume.spec?.claimRef) bindToVolume(claim, volume.metadata.name!);
      return;
    }
    const className: string | undefined = claim.spec?.storageClassName || undefined;
    // A claim naming its volume (a statically provisioned one) is bound to that volume or waits for it: no
    // provisioner answers such a claim.
    if (claim.spec?.volumeName) {
      bindToVolume(claim, claim.spec.volumeName);
      return;
    }
    // A volume a user made for this claim (its claimRef names it) is the one it gets, as findBestMatch prefers it.
    const reserved = store.list(VOLUMES).find((v) => namesClaim(v.spec?.claimRef, claim));
    if (reserved) {
      bindToVolume(claim, reserved.metadata.name!);
      return;
    }
    if (className !== undefined && !store.get(STORAGE_CLASSES, undefined, className)) return;
    const volumeName = `pvc-${claim.metadata.uid}`;
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
          claimRef: claimRefOf(claim),
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
    markBound(claim, volumeName, { accessModes, ...(storage !== undefined ? { capacity: { storage } } : {}) }, true);
  }

  /**
   * bindClaimToVolume: the claim gets its volume's name (and bound-by-controller only when the controller chose the
   * volume), bind-completed, and the volume's access modes and capacity as its status.
   */
  function markBound(claim: KubeObject, volumeName: string, status: Record<string, unknown>, chosen: boolean): void {
    const next = structuredClone(claim);
    next.metadata.annotations = {
      ...(next.metadata.annotations ?? {}),
      'pv.kubernetes.io/bind-completed': 'yes',
      ...(chosen ? { 'pv.kubernetes.io/bound-by-controller': 'yes' } : {}),
    };
    next.spec = { ...next.spec, volumeName };
    next.status = { phase: 'Bound', ...status };
    store.update(registry.byResourceKey(CLAIMS)!, next);
  }

  /**
   * syncUnboundClaim for a claim that names its volume: it waits while the volume is missing, bound to another
   * claim, or does not satisfy it (checkVolumeSatisfyClaim: its class, volume mode and a capacity at least the
   * request); else the volume takes the claim (bindVolumeToClaim: claimRef, bound-by-controller, phase Bound) and the
   * claim is Bound to it.
   */
  function bindToVolume(claim: KubeObject, volumeName: string): void {
    const volume = store.get(VOLUMES, undefined, volumeName);
    if (!volume || volume.metadata.deletionTimestamp) return;
    const ref = volume.spec?.claimRef;
    const boundHere = namesClaim(ref, claim);
    if (ref && !boundHere) return;
    if (!satisfies(volume, claim)) return;
    if (!boundHere || volume.status?.phase !== 'Bound') {
      const next = structuredClone(volume);
      next.metadata.annotations = { ...(next.metadata.annotations ?? {}) };
      if (!boundHere) next.metadata.annotations['pv.kubernetes.io/bound-by-controller'] = 'yes';
      next.spec = { ...next.spec, claimRef: claimRefOf(claim) };
      next.status = { ...next.status, phase: 'Bound' };
      store.update(registry.byResourceKey(VOLUMES)!, next);
    }
    const storage = volume.spec?.capacity?.storage;
    markBound(
      claim,
      volumeName,
      { accessModes: volume.spec?.accessModes ?? [], ...(storage !== undefined ? { capacity: { storage } } : {}) },
      false,
    );
  }

  function satisfies(volume: KubeObject, claim: KubeObject): boolean {
    if ((volume.spec?.storageClassName ?? '') !== (claim.spec?.storageClassName ?? '')) return false;
    if ((volume.spec?.volumeMode ?? 'Filesystem') !== (claim.spec?.volumeMode ?? 'Filesystem')) return false;
    const requested = parseQuantity(claim.spec?.resources?.requests?.storage ?? '0');
    const capacity = parseQuantity(volume.spec?.capacity?.storage ?? '0');
    return requested !== undefined && capacity !== undefined && quantityValue(capacity) >= quantityValue(requested);
  }

  function reconcileVolume(name: string): void {
    const volume = store.get(VOLUMES, undefined, name);
    if (!volume || volume.metadata.deletionTimestamp) return;
    const setPhase = (phase: 'Available' | 'Released') => {
      if (volume.status?.phase !== phase)
        store.update(registry.byResourceKey(VOLUMES)!, { ...structuredClone(volume), status: { phase } });
    };
    const ref = volume.spec?.claimRef;
    // syncVolume: a volume no claim holds is Available (a new one is Pending until then).
    if (!ref) return setPhase('Available');
    const claim = store.get(CLAIMS, ref.namespace, ref.name);
    if (claim && namesClaim(ref, claim)) return;
    // Pre-bound by its author to a claim not made yet: it waits for it, Available.
    if (!claim && !ref.uid) return setPhase('Available');
    if (volume.spec.persistentVolumeReclaimPolicy === 'Retain') return setPhase('Released');
    store.delete(registry.byResourceKey(VOLUMES)!, undefined, name);
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
      // A volume made or changed: itself, and the claims naming it (one bound to it binds it again if it lost its claimRef).
      if (event.resource === VOLUMES && event.type !== 'DELETED')
        return [
          keyOf('', o.metadata.name!),
          ...store
            .list(CLAIMS)
            .filter((c) => c.spec?.volumeName === o.metadata.name)
            .map((c) => keyOf(c.metadata.namespace, c.metadata.name!)),
          ...(o.spec?.claimRef?.name ? [keyOf(o.spec.claimRef.namespace, o.spec.claimRef.name)] : []),
        ];
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
    // What the controller's first resync visits: every claim and every volume.
    initialKeys: () => [
      ...store.list(CLAIMS).map((c) => keyOf(c.metadata.namespace, c.metadata.name!)),
      ...store.list(VOLUMES).map((v) => keyOf('', v.metadata.name!)),
    ],
  };
}
