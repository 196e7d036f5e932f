import type { KubeObject } from '../types.ts';

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
