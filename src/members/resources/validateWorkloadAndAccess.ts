import type { FieldError } from '../ApiError.ts';
import { matchLabelSelector } from '../../labels/matchLabelSelector.ts';
import { cronJobViolations, jobViolations, type BatchViolation } from '../../kubeValidation/batchRules.ts';
import { builtinKindViolations } from '../../kubeValidation/builtinKindRules.ts';
import type { KubeViolation } from '../../kubeValidation/fieldViolations.ts';
import { forbidden, invalidValue, notSupported, required } from './fieldErrors.ts';
import { validatePodSpec } from './validatePodSpec.ts';

// The API server's validation of the kinds a controller's own manifests are made of, so a `kubectl apply
// --dry-run=server` against a member says what a real one says: Deployment (pkg/apis/apps/validation
// ValidateDeploymentSpec, with the pod template's ValidatePodSpec), Jobs and CronJobs (kubeValidation/batchRules.ts),
// and the kinds kubeValidation/builtinKindRules.ts knows (Services, PodDisruptionBudgets, RBAC, Ingresses,
// IngressClasses, NetworkPolicies), which `flotilla validate` holds templates to as well.

type Json = any;

const list = (value: unknown): Json[] => (Array.isArray(value) ? value : []);
const isSet = (value: unknown): boolean => value !== undefined && value !== null;

/** The errors of `object` (an update of `previous`), a `group`/`kind` this module knows; [] for any other. */
export function validateWorkloadAndAccess(group: string, kind: string, object: Json, previous?: Json): FieldError[] {
  const key = `${group}/${kind}`;
  switch (key) {
    case 'batch/Job':
      return [
        ...jobViolations(object, previous).map(asFieldError),
        ...validatePodSpec(object.spec?.template?.spec ?? {}, 'spec.template.spec'),
      ];
    case 'batch/CronJob':
      return [
        ...cronJobViolations(object, previous).map(asFieldError),
        ...validatePodSpec(object.spec?.jobTemplate?.spec?.template?.spec ?? {}, 'spec.jobTemplate.spec.template.spec'),
      ];
    case 'apps/Deployment':
      return deploymentErrors(object);
    // The pod template of every other workload is validated as a pod spec too (ValidatePodTemplateSpec); a
    // StatefulSet's is not, since its mounts may name its volumeClaimTemplates (ValidatePodTemplateSpecForStatefulSet).
    case 'apps/DaemonSet':
    case 'apps/ReplicaSet':
    case '/ReplicationController':
    case '/PodTemplate':
      return validatePodSpec(
        templateOf(kind, object)?.spec ?? {},
        `${kind === 'PodTemplate' ? '' : 'spec.'}template.spec`,
      );
    case '/Pod':
      return validatePodSpec(object.spec ?? {}, 'spec');
    // Secrets and ConfigMaps are validateConfigData's.
    case '/Secret':
    case '/ConfigMap':
      return [];
    default:
      return builtinKindViolations(group, kind, object).map(asFieldError);
  }
}

const asFieldError = (v: BatchViolation | KubeViolation): FieldError => ({
  type: v.type,
  field: v.field,
  body: v.detail,
});

function templateOf(kind: string, object: Json): Json | undefined {
  return kind === 'PodTemplate' ? object.template : object.spec?.template;
}

function deploymentErrors(deployment: Json): FieldError[] {
  const spec = deployment.spec ?? {};
  const errors: FieldError[] = [];
  for (const field of ['replicas', 'minReadySeconds', 'revisionHistoryLimit']) {
    if (isSet(spec[field]) && spec[field] < 0)
      errors.push(invalidValue(`spec.${field}`, spec[field], 'must be greater than or equal to 0'));
  }
  const selector = spec.selector;
  const labels = spec.template?.metadata?.labels ?? {};
  if (!isSet(selector)) errors.push(required('spec.selector'));
  else if (Object.keys(selector.matchLabels ?? {}).length === 0 && list(selector.matchExpressions).length === 0)
    errors.push(invalidValue('spec.selector', selector, 'empty selector is invalid for deployment'));
  if (isSet(selector) && !matchLabelSelector(selector, labels))
    errors.push(invalidValue('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
  const restartPolicy = spec.template?.spec?.restartPolicy;
  if (isSet(restartPolicy) && restartPolicy !== 'Always')
    errors.push(notSupported('spec.template.spec.restartPolicy', restartPolicy, ['Always']));
  errors.push(...validatePodSpec(spec.template?.spec ?? {}, 'spec.template.spec'));
  const strategy = spec.strategy ?? {};
  if (isSet(strategy.type) && !['Recreate', 'RollingUpdate'].includes(strategy.type))
    errors.push(notSupported('spec.strategy.type', strategy.type, ['Recreate', 'RollingUpdate']));
  if (strategy.type === 'Recreate' && isSet(strategy.rollingUpdate))
    errors.push(forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'"));
  if (isSet(strategy.rollingUpdate)) {
    const at = 'spec.strategy.rollingUpdate';
    const { maxUnavailable, maxSurge } = strategy.rollingUpdate;
    errors.push(...intOrPercentErrors(`${at}.maxUnavailable`, maxUnavailable));
    errors.push(...intOrPercentErrors(`${at}.maxSurge`, maxSurge, false));
    if (isZero(maxUnavailable) && isZero(maxSurge))
      errors.push(invalidValue(`${at}.maxUnavailable`, maxUnavailable, 'may not be 0 when `maxSurge` is 0'));
  }
  if (isSet(spec.progressDeadlineSeconds) && spec.progressDeadlineSeconds <= (spec.minReadySeconds ?? 0))
    errors.push(
      invalidValue(
        'spec.progressDeadlineSeconds',
        spec.progressDeadlineSeconds,
        'must be greater than minReadySeconds',
      ),
    );
  return errors;
}

function isZero(value: unknown): boolean {
  return value === 0 || value === '0%';
}

/** ValidatePositiveIntOrPercent, and IsNotMoreThan100Percent unless `capped` is false (maxSurge may exceed 100%). */
function intOrPercentErrors(field: string, value: unknown, capped = true): FieldError[] {
  if (!isSet(value)) return [];
  if (typeof value === 'string') {
    if (!/^[0-9]+%$/.test(value))
      return [
        invalidValue(
          field,
          value,
          "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        ),
      ];
    return capped && Number.parseInt(value, 10) > 100
      ? [invalidValue(field, value, 'must not be greater than 100%')]
      : [];
  }
  return typeof value === 'number' && value < 0
    ? [invalidValue(field, value, 'must be greater than or equal to 0')]
    : [];
}
