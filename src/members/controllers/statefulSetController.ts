import type { KubeObject, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
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
  ownerReferenceTo,
  templateHash,
  withoutZeroCounts,
} from './workloadPods.ts';
import { defaultObject } from '../resources/defaultObject.ts';
import { CLAIMS } from './volumeClaimController.ts';
import { syncControllerRevision } from './controllerRevisions.ts';

const STATEFULSETS = 'apps/statefulsets';
const REVISION_LABEL = 'controller-revision-hash';

/**
 * StatefulSet → Pods `<name>-0..N-1`. OrderedReady creates ordinal i only once 0..i-1 are Ready; Parallel
 * creates all. Scale-down removes the highest ordinals. A template change replaces pods from the highest
 * ordinal down, one at a time, each once every other pod is Ready (RollingUpdate).
 */
export function statefulSetController(deps: ControllerDeps): Controller {
  const { store, registry } = deps;
  const refusals = new RefusedCreates();

  function reconcile(key: string): void {
    const [namespace, name] = splitKey(key);
    refusals.cleared(namespace!, key);
    const sts = store.get(STATEFULSETS, namespace, name);
    if (!sts || sts.metadata.deletionTimestamp) return;
    const podType = registry.byResourceKey(PODS)!;
    const desired: number = sts.spec?.replicas ?? 1;
    const inUse = new Set(
      controlledBy(store, sts, PODS)
        .map((p) => p.metadata.labels?.[REVISION_LABEL])
        .filter((r): r is string => typeof r === 'string'),
    );
    if (sts.status?.currentRevision) inUse.add(sts.status.currentRevision);
    const revision = syncControllerRevision(deps, sts, templateHash(sts.spec?.template), inUse);
    const parallel = sts.spec?.podManagementPolicy === 'Parallel';
    const byOrdinal = new Map<number, KubeObject>();
    for (const pod of controlledBy(store, sts, PODS).filter(isActive)) {
      const ordinal = Number(pod.metadata.name!.slice(sts.metadata.name!.length + 1));
      if (Number.isInteger(ordinal)) byOrdinal.set(ordinal, pod);
    }
    for (const [ordinal, pod] of byOrdinal) {
      if (ordinal >= desired) {
        store.delete(podType, pod.metadata.namespace, pod.metadata.name!);
        byOrdinal.delete(ordinal);
      }
    }
    for (let i = 0; i < desired; i++) {
      if (byOrdinal.has(i)) continue;
      if (!parallel && [...Array(i).keys()].some((j) => !byOrdinal.get(j) || !isReady(byOrdinal.get(j)!))) break;
      const podName = `${sts.metadata.name}-${i}`;
      const claims = ensureClaims(sts, i);
      const pod = podFromTemplate(
        sts,
        podName,
        {
          [REVISION_LABEL]: revision,
          'statefulset.kubernetes.io/pod-name': podName,
          'apps.kubernetes.io/pod-index': String(i),
        },
        { hostname: podName, ...(sts.spec?.serviceName ? { subdomain: sts.spec.serviceName } : {}) },
      );
      if (claims.length > 0) {
        const named = new Set(claims.map((c) => c.name));
        pod.spec.volumes = [...claims, ...(pod.spec.volumes ?? []).filter((v: { name: string }) => !named.has(v.name))];
      }
      const created = refusals.attempt(namespace!, key, () => createPod(store, podType, pod, Date.parse(deps.now())));
      if (created instanceof PodCreateRefused) break;
      byOrdinal.set(i, created);
    }
    const pods = [...byOrdinal.values()];
    const allReady = pods.length === desired && pods.every(isReady);
    if (allReady && sts.spec?.updateStrategy?.type !== 'OnDelete') {
      const stale = [...byOrdinal.entries()]
        .filter(([, p]) => p.metadata.labels?.[REVISION_LABEL] !== revision)
        .sort((a, b) => b[0] - a[0])[0];
      if (stale) store.delete(podType, stale[1].metadata.namespace, stale[1].metadata.name!);
    }
    const updated = pods.filter((p) => p.metadata.labels?.[REVISION_LABEL] === revision).length;
    const ready = pods.filter(isReady).length;
    // StatefulSetStatus always writes replicas and availableReplicas (collisionCount is a pointer, so 0 is kept too).
    const status = withoutZeroCounts(
      {
        observedGeneration: sts.metadata.generation,
        replicas: pods.length,
        readyReplicas: ready,
        currentReplicas: updated,
        updatedReplicas: updated,
        availableReplicas: ready,
        currentRevision: updated === pods.length ? revision : (sts.status?.currentRevision ?? revision),
        updateRevision: revision,
        collisionCount: 0,
      },
      ['readyReplicas', 'currentReplicas', 'updatedReplicas'],
    );
    if (statusChanged(sts, status))
      store.update(registry.byResourceKey(STATEFULSETS)!, { ...structuredClone(sts), status });
  }

  /**
   * The claims of ordinal `i`, `<template>-<set>-<i>`, made when missing and never changed after (as Kubernetes'
   * createPersistentVolumeClaims); the set's selector labels on each, and the set as owner when its retention policy
   * deletes them with it. Returns the pod's volumes for them.
   */
  function ensureClaims(sts: KubeObject, i: number): { name: string; persistentVolumeClaim: { claimName: string } }[] {
    const templates: KubeObject[] = Array.isArray(sts.spec?.volumeClaimTemplates) ? sts.spec.volumeClaimTemplates : [];
    const claimType = registry.byResourceKey(CLAIMS)!;
    return templates
      .filter((t) => typeof t?.metadata?.name === 'string')
      .map((t) => {
        const claimName = `${t.metadata.name}-${sts.metadata.name}-${i}`;
        if (!store.get(CLAIMS, sts.metadata.namespace, claimName)) {
          const deleteWithSet = sts.spec?.persistentVolumeClaimRetentionPolicy?.whenDeleted === 'Delete';
          const claim: KubeObject = {
            apiVersion: 'v1',
            kind: 'PersistentVolumeClaim',
            metadata: {
              ...(t.metadata.annotations ? { annotations: { ...t.metadata.annotations } } : {}),
              name: claimName,
              namespace: sts.metadata.namespace!,
              labels: { ...(t.metadata.labels ?? {}), ...(sts.spec?.selector?.matchLabels ?? {}) },
              ...(deleteWithSet ? { ownerReferences: [ownerReferenceTo(sts)] } : {}),
            },
            spec: structuredClone(t.spec ?? {}),
            status: { phase: 'Pending' },
          };
          defaultObject('PersistentVolumeClaim', claim, () => '');
          store.create(claimType, claim);
        }
        return { name: t.metadata.name as string, persistentVolumeClaim: { claimName } };
      });
  }

  return {
    name: 'statefulset',
    keysFor(event: StoreEvent): string[] {
      const o = event.object;
      if (event.resource === STATEFULSETS && event.type !== 'DELETED')
        return [keyOf(o.metadata.namespace, o.metadata.name!)];
      if (event.resource === PODS) {
        return [...refusals.keysFor(event), ...controllerKeys(o, 'StatefulSet')];
      }
      return refusals.keysFor(event);
    },
    reconcile,
    initialKeys: () => store.list(STATEFULSETS).map((o) => keyOf(o.metadata.namespace, o.metadata.name!)),
  };
}
