// A workload template kube-apiserver refuses (kubeValidation/appsRules.ts and podSpecRules.ts): Karmada's API server
// is one, so it refuses the template at creation, and nothing propagates. The rules read the fields the API server
// defaults before validating (a Deployment's strategy, its progressDeadlineSeconds, a pod's restartPolicy, a probe's
// successThreshold, a volume's source) as defaulted when unset, so the template is read in place, never copied.
import { workloadViolations } from '../../kubeValidation/appsRules.ts';
import type { KubeViolation } from '../../kubeValidation/fieldViolations.ts';
import type { SchemaIssue } from './validateAgainstSchema.ts';

/** The group each workload kind's rules name it by, keyed by apiVersion/kind. */
const WORKLOAD_KINDS: ReadonlyMap<string, string> = new Map([
  ['apps/v1/Deployment', 'apps'],
  ['apps/v1/StatefulSet', 'apps'],
  ['apps/v1/DaemonSet', 'apps'],
  ['apps/v1/ReplicaSet', 'apps'],
  ['v1/ReplicationController', ''],
  ['v1/Pod', ''],
  ['v1/PodTemplate', ''],
  ['batch/v1/Job', 'batch'],
  ['batch/v1/CronJob', 'batch'],
]);

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Issues of a workload template's spec and pod template; none for any other kind. */
export function validateWorkloadKinds(manifest: Record<string, unknown>): SchemaIssue[] {
  const kind = String(manifest.kind);
  const group = WORKLOAD_KINDS.get(`${String(manifest.apiVersion)}/${kind}`);
  if (group === undefined || !isObject(kind === 'PodTemplate' ? manifest.template : manifest.spec)) return [];
  const violations = workloadViolations(group, kind, manifest);
  // Without a selector the API server also reports the pod labels unmatched: one mistake, whose fix is the selector's.
  const selectorMissing = violations.some((v) => v.field === 'spec.selector' && v.type === 'FieldValueRequired');
  return violations
    .filter((v) => !(selectorMissing && v.field === 'spec.template.metadata.labels'))
    .map((v) => asIssue(v, kind));
}

function asIssue(v: KubeViolation, kind: string): SchemaIssue {
  return {
    path: v.path,
    code: 'INVALID_VALUE',
    message: `kube-apiserver refuses this field: ${v.field}: ${v.detail}`,
    fix: fixFor(v, kind),
  };
}

function fixFor(v: KubeViolation, kind: string): string {
  const field = v.path.at(-1);
  // The list an item's field is in (containers, volumes), past the item's index.
  const parent = typeof v.path.at(-2) === 'number' ? v.path.at(-3) : v.path.at(-2);
  if (v.field.endsWith('template.metadata.labels'))
    return 'make spec.selector select the pod template: give the template the labels it requires, or set it to match them';
  if (
    v.field.startsWith('spec.selector.') ||
    (v.field === 'spec.selector' && v.type === 'FieldValueInvalid' && !v.detail.includes('empty selector'))
  )
    return 'write the selector as a label selector: matchLabels of label keys and values, matchExpressions each with a key, an operator (In, NotIn, Exists, DoesNotExist) and values for In and NotIn only';
  // A ReplicationController's selector is a plain map, which its template's labels fill when it is left out.
  if (field === 'selector' && kind === 'ReplicationController')
    return 'label the pod template (spec.template.metadata.labels), or select it by at least one of its labels (spec.selector)';
  if (field === 'selector') return 'select the pod template by at least one of its labels (spec.selector.matchLabels)';
  if (field === 'name' && v.type === 'FieldValueDuplicate')
    return parent === 'volumes'
      ? 'give each volume its own name'
      : 'give each container and init container of the pod its own name';
  if (field === 'name' && parent === 'volumeMounts' && v.type === 'FieldValueNotFound')
    return 'mount a volume the pod spec declares in volumes, or add one of that name';
  if (field === 'containerPort') return 'use a port number between 1 and 65535';
  if (field === 'image') return 'set the container image';
  // A container's own restartPolicy: only an init container may have one (Always, a sidecar).
  if (field === 'restartPolicy' && (parent === 'containers' || parent === 'initContainers'))
    return parent === 'containers'
      ? "remove the container's restartPolicy (only an init container may set one: Always makes it a sidecar)"
      : "set the init container's restartPolicy to Always (a sidecar), or remove it";
  if (field === 'restartPolicy') return 'set restartPolicy to Always, or remove it (Always is the default)';
  if (v.detail.includes('must specify a handler type'))
    return 'give the probe one handler: exec, httpGet, tcpSocket or grpc';
  if (v.detail.includes('less than or equal to') && v.detail.includes('limit of'))
    return 'request no more of a resource than its limit';
  return `change ${v.field} so that kube-apiserver admits it (${v.detail})`;
}
