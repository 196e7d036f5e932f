import type { KubeObject } from '../types.ts';
import { formatCpu, formatMemory, type PodUsage, splitOverContainers } from './simulatedUsage.ts';

// metrics.k8s.io/v1beta1 PodMetrics and NodeMetrics as metrics-server builds them: metadata with the object's
// labels and the time of the read as creationTimestamp, the sample's timestamp and window, and usage.

/** metrics-server's default --metric-resolution, reported as each sample's window. */
export const METRICS_WINDOW = '15s';

/** Only pods whose containers run have samples (metrics-server scrapes running containers from the kubelet). */
export function hasMetrics(pod: KubeObject): boolean {
  return pod.status?.phase === 'Running' && Boolean(pod.spec?.nodeName) && !pod.metadata.deletionTimestamp;
}

export function buildPodMetrics(pod: KubeObject, usage: PodUsage, timestamp: string): KubeObject {
  const containers: any[] = pod.spec?.containers ?? [];
  const cpu = splitOverContainers(usage.cpu, containers.length);
  const memory = splitOverContainers(usage.memory, containers.length);
  return {
    kind: 'PodMetrics',
    apiVersion: 'metrics.k8s.io/v1beta1',
    metadata: {
      name: pod.metadata.name!,
      namespace: pod.metadata.namespace!,
      creationTimestamp: timestamp,
      labels: { ...(pod.metadata.labels ?? {}) },
    },
    timestamp,
    window: METRICS_WINDOW,
    containers: containers.map((c, i) => ({
      name: c.name,
      usage: { cpu: formatCpu(cpu[i]!), memory: formatMemory(memory[i]!) },
    })),
  };
}

export function buildNodeMetrics(node: KubeObject, podUsages: PodUsage[], timestamp: string): KubeObject {
  const cpu = podUsages.reduce((n, u) => n + u.cpu, 0n);
  const memory = podUsages.reduce((n, u) => n + u.memory, 0n);
  return {
    kind: 'NodeMetrics',
    apiVersion: 'metrics.k8s.io/v1beta1',
    metadata: { name: node.metadata.name!, creationTimestamp: timestamp, labels: { ...(node.metadata.labels ?? {}) } },
    timestamp,
    window: METRICS_WINDOW,
    usage: { cpu: formatCpu(cpu), memory: formatMemory(memory) },
  };
}
