import type { ObjectStore } from '../store/ObjectStore.ts';
import type { KubeObject } from '../types.ts';
import { buildNodeMetrics, buildPodMetrics, hasMetrics } from './buildMetrics.ts';
import { type PodUsage, podUsage } from './simulatedUsage.ts';

const PODS = '/pods';
const NODES = '/nodes';

/** The pod template annotations of the controller that owns the pod (ReplicaSet, StatefulSet, DaemonSet, Job). */
function ownerTemplateAnnotations(store: ObjectStore, pod: KubeObject): Record<string, string> | undefined {
  const ref = (pod.metadata.ownerReferences ?? []).find((r) => r.controller);
  return ref ? store.getByUid(ref.uid)?.object.spec?.template?.metadata?.annotations : undefined;
}

/** A pod's simulated usage as the store says now. */
export function readPodUsage(store: ObjectStore, pod: KubeObject): PodUsage {
  return podUsage(pod, ownerTemplateAnnotations(store, pod));
}

/** PodMetrics for the running pods of a namespace (all namespaces when undefined). */
export function readPodMetrics(store: ObjectStore, namespace: string | undefined, timestamp: string): KubeObject[] {
  return store
    .list(PODS, namespace)
    .filter(hasMetrics)
    .map((pod) => buildPodMetrics(pod, readPodUsage(store, pod), timestamp));
}

/** NodeMetrics for every node: the sum of its running pods' usage. */
export function readNodeMetrics(store: ObjectStore, timestamp: string): KubeObject[] {
  const running = store.list(PODS).filter(hasMetrics);
  return store.list(NODES).map((node) =>
    buildNodeMetrics(
      node,
      running.filter((p) => p.spec.nodeName === node.metadata.name).map((p) => readPodUsage(store, p)),
      timestamp,
    ),
  );
}
