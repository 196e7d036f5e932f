import type { KubeObject } from '../types.ts';
import { podQosClass } from './podQos.ts';

/**
 * The status a built-in kind has right after create: its strategy resets status, and the zero value of its
 * Go type still serializes the fields without omitempty (a ReplicaSet reads back `replicas: 0`, a Service an
 * empty load balancer). A pod starts Pending with its QoS class. Kinds not listed keep what they have.
 */
export function initialStatus(kind: string, object: KubeObject): Record<string, unknown> | undefined {
  switch (kind) {
    case 'Pod':
      return { phase: 'Pending', qosClass: podQosClass(object) };
    case 'Service':
    case 'Ingress':
      return { loadBalancer: {} };
    case 'Deployment':
    case 'Job':
    case 'CronJob':
    case 'ResourceQuota':
      return {};
    case 'ReplicaSet':
    case 'ReplicationController':
      return { replicas: 0 };
    case 'StatefulSet':
      return { replicas: 0, availableReplicas: 0 };
    case 'DaemonSet':
      return { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
    case 'HorizontalPodAutoscaler':
      return { desiredReplicas: 0 };
    case 'PodDisruptionBudget':
      return { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
    // Pending comes from defaulting the (reset) status when the claim or volume is read back.
    case 'PersistentVolumeClaim':
    case 'PersistentVolume':
      return { phase: 'Pending' };
    default:
      return undefined;
  }
}

/**
 * What a kind's registry strategy changes on create beyond defaulting, once the object has its uid. A Job
 * without `manualSelector: true` gets a selector on its own uid and the matching labels on its pod template
 * (pkg/registry/batch/job/strategy.go generateSelector); labels the template already has are kept.
 */
export function prepareForCreate(kind: string, object: KubeObject): void {
  if (kind !== 'Job' || !object.spec || object.spec.manualSelector === true) return;
  const uid = object.metadata.uid!;
  const name = object.metadata.name!;
  const template = (object.spec.template ??= {});
  template.metadata ??= {};
  const labels: Record<string, string> = (template.metadata.labels ??= {});
  for (const key of ['job-name', 'batch.kubernetes.io/job-name']) labels[key] ??= name;
  for (const key of ['controller-uid', 'batch.kubernetes.io/controller-uid']) labels[key] ??= uid;
  object.spec.selector ??= {};
  const matchLabels: Record<string, string> = (object.spec.selector.matchLabels ??= {});
  matchLabels['batch.kubernetes.io/controller-uid'] ??= uid;
}
