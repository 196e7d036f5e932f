// A Job or CronJob template kube-apiserver refuses (kubeValidation/batchRules.ts): Karmada's API server is one, so it refuses
// the template at creation, and a member the object propagated to it. Checked on the template as that API server
// would hold it: a CronJob's concurrencyPolicy and a pod condition pattern's status defaulted, and a Job's selector
// and pod template labels generated on its uid unless manualSelector is true (the Job strategy's PrepareForCreate).
import { cronJobViolations, jobViolations } from '../../kubeValidation/batchRules.ts';
import type { KubeViolation } from '../../kubeValidation/fieldViolations.ts';
import type { SchemaIssue } from './validateAgainstSchema.ts';

// biome-ignore lint/suspicious/noExplicitAny: a template of any shape, copied and given the fields the API server generates
type Json = any;

/** The uid a Job template gets at creation, unknown before: its messages show this in its place (a label value, as the uid is). */
const PENDING_UID = 'uid-given-at-creation';

/** Issues of a batch/v1 Job or CronJob template; none for any other kind. */
export function validateBatchKinds(manifest: Record<string, unknown>): SchemaIssue[] {
  if (manifest.apiVersion !== 'batch/v1') return [];
  const spec = manifest.spec;
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) return [];
  const object = structuredClone(manifest) as Json;
  if (manifest.kind === 'CronJob') {
    if (!object.spec.concurrencyPolicy) object.spec.concurrencyPolicy = 'Allow';
    defaultConditionStatuses(object.spec.jobTemplate?.spec);
    return cronJobViolations(object).map(asIssue);
  }
  if (manifest.kind === 'Job') {
    defaultConditionStatuses(object.spec);
    generateSelector(object);
    // validateWorkloadNumbers already holds these two to 0 and above, the counts Flotilla divides.
    const counted = (v: KubeViolation) => v.field === 'spec.parallelism' || v.field === 'spec.completions';
    const violations = jobViolations(object);
    // Without a selector the API server also reports the pod labels unmatched: one mistake, whose fix is the selector's.
    const selectorMissing = violations.some((v) => v.field === 'spec.selector' && v.type === 'FieldValueRequired');
    return violations
      .filter((v) => !(counted(v) && v.detail.endsWith('must be greater than or equal to 0')))
      .filter((v) => !(selectorMissing && v.field === 'spec.template.metadata.labels'))
      .map(asIssue);
  }
  return [];
}

function defaultConditionStatuses(spec: Json): void {
  for (const rule of Array.isArray(spec?.podFailurePolicy?.rules) ? spec.podFailurePolicy.rules : [])
    for (const pattern of Array.isArray(rule?.onPodConditions) ? rule.onPodConditions : [])
      if (pattern && typeof pattern === 'object' && !pattern.status) pattern.status = 'True';
}

function generateSelector(job: Json): void {
  if (job.spec.manualSelector === true) return;
  job.metadata = { ...(job.metadata ?? {}), uid: PENDING_UID };
  const template = (job.spec.template ??= {});
  const labels = ((template.metadata ??= {}).labels ??= {});
  for (const key of ['job-name', 'batch.kubernetes.io/job-name']) labels[key] ??= job.metadata.name ?? '';
  for (const key of ['controller-uid', 'batch.kubernetes.io/controller-uid']) labels[key] ??= PENDING_UID;
  const matchLabels = ((job.spec.selector ??= {}).matchLabels ??= {});
  matchLabels['batch.kubernetes.io/controller-uid'] ??= PENDING_UID;
}

function asIssue(v: KubeViolation): SchemaIssue {
  return {
    path: v.path,
    code: 'INVALID_VALUE',
    message: `kube-apiserver refuses this ${v.path[1] === 'jobTemplate' ? 'CronJob' : v.path[0] === 'metadata' ? 'name' : 'field'}: ${v.field}: ${v.detail}`,
    fix: fixFor(v),
  };
}

function fixFor(v: KubeViolation): string {
  const field = v.path.at(-1);
  if (field === 'timeZone')
    return "write a tzdata name as written in the IANA database (Europe/Paris, America/New_York), or remove timeZone to run in the controller manager's zone";
  if (field === 'schedule')
    return 'write five fields (minute hour day-of-month month day-of-week) or a descriptor such as @daily, and the time zone in timeZone';
  if (field === 'restartPolicy') return 'set restartPolicy to Never (or OnFailure without a podFailurePolicy)';
  if (field === 'selector' || v.field.startsWith('spec.template.metadata.labels'))
    return 'remove the selector and the job-name and controller-uid labels (the API server generates them), or set manualSelector: true';
  return `change ${v.field} so that kube-apiserver admits it (${v.detail})`;
}
