import type { FieldError } from '../ApiError.ts';
import { matchLabelSelector } from '../../labels/matchLabelSelector.ts';
import { cronJobViolations, jobViolations, type BatchViolation } from '../../kubeValidation/batchRules.ts';
import {
  dns1123LabelProblems,
  dns1123SubdomainProblems,
  duplicate,
  forbidden,
  intOrNamePortErrors,
  invalidValue,
  notSupported,
  portNumberProblem,
  required,
} from './fieldErrors.ts';
import { validatePodSpec } from './validatePodSpec.ts';

// The API server's validation of the kinds a controller's own manifests are made of, so a `kubectl apply
// --dry-run=server` against a member says what a real one says: Deployment (pkg/apis/apps/validation
// ValidateDeploymentSpec, with the pod template's ValidatePodSpec), PodDisruptionBudget
// (pkg/apis/policy/validation), Role, ClusterRole and their bindings (pkg/apis/rbac/validation), and a
// Service's ports (pkg/apis/core/validation validateServicePort), Jobs and CronJobs (kubeValidation/batchRules.ts).

type Json = any;

const RBAC_GROUP = 'rbac.authorization.k8s.io';
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
    case 'policy/PodDisruptionBudget':
      return disruptionBudgetErrors(object.spec ?? {});
    case `${RBAC_GROUP}/Role`:
    case `${RBAC_GROUP}/ClusterRole`:
      return list(object.rules).flatMap((rule, i) => policyRuleErrors(rule, kind === 'Role', `rules[${i}]`));
    case `${RBAC_GROUP}/RoleBinding`:
    case `${RBAC_GROUP}/ClusterRoleBinding`:
      return bindingErrors(object, kind === 'RoleBinding');
    case '/Service':
      return servicePortErrors(object.spec ?? {});
    default:
      return [];
  }
}

const asFieldError = (v: BatchViolation): FieldError => ({ type: v.type, field: v.field, body: v.detail });

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

function disruptionBudgetErrors(spec: Json): FieldError[] {
  const errors: FieldError[] = [];
  if (isSet(spec.minAvailable) && isSet(spec.maxUnavailable))
    errors.push(invalidValue('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  errors.push(...intOrPercentErrors('spec.minAvailable', spec.minAvailable));
  errors.push(...intOrPercentErrors('spec.maxUnavailable', spec.maxUnavailable));
  const policies = ['AlwaysAllow', 'IfHealthyBudget'];
  if (isSet(spec.unhealthyPodEvictionPolicy) && !policies.includes(spec.unhealthyPodEvictionPolicy))
    errors.push(notSupported('spec.unhealthyPodEvictionPolicy', spec.unhealthyPodEvictionPolicy, policies));
  return errors;
}

function policyRuleErrors(rule: Json, namespaced: boolean, at: string): FieldError[] {
  const errors: FieldError[] = [];
  if (list(rule?.verbs).length === 0) errors.push(required(`${at}.verbs`, 'verbs must contain at least one value'));
  const urls = list(rule?.nonResourceURLs);
  if (urls.length > 0) {
    if (namespaced)
      errors.push(invalidValue(`${at}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (list(rule.apiGroups).length || list(rule.resources).length || list(rule.resourceNames).length)
      errors.push(
        invalidValue(
          `${at}.nonResourceURLs`,
          urls,
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    return errors;
  }
  if (list(rule?.apiGroups).length === 0)
    errors.push(required(`${at}.apiGroups`, 'resource rules must supply at least one api group'));
  if (list(rule?.resources).length === 0)
    errors.push(required(`${at}.resources`, 'resource rules must supply at least one resource'));
  return errors;
}

function bindingErrors(binding: Json, namespaced: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const ref = binding.roleRef ?? {};
  if (ref.apiGroup !== RBAC_GROUP) errors.push(notSupported('roleRef.apiGroup', ref.apiGroup ?? '', [RBAC_GROUP]));
  const kinds = namespaced ? ['ClusterRole', 'Role'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind)) errors.push(notSupported('roleRef.kind', ref.kind ?? '', kinds));
  if (!ref.name) errors.push(required('roleRef.name'));
  list(binding.subjects).forEach((subject, i) => {
    const at = `subjects[${i}]`;
    if (!subject?.name) errors.push(required(`${at}.name`));
    switch (subject?.kind) {
      case 'ServiceAccount':
        if (subject.name)
          for (const p of dns1123SubdomainProblems(subject.name))
            errors.push(invalidValue(`${at}.name`, subject.name, p));
        if (subject.apiGroup) errors.push(notSupported(`${at}.apiGroup`, subject.apiGroup, ['']));
        if (!namespaced && !subject.namespace) errors.push(required(`${at}.namespace`));
        break;
      case 'User':
      case 'Group':
        if (subject.apiGroup !== RBAC_GROUP)
          errors.push(notSupported(`${at}.apiGroup`, subject.apiGroup ?? '', [RBAC_GROUP]));
        break;
      default:
        errors.push(notSupported(`${at}.kind`, subject?.kind ?? '', ['ServiceAccount', 'User', 'Group']));
    }
  });
  return errors;
}

function servicePortErrors(spec: Json): FieldError[] {
  const errors: FieldError[] = [];
  const ports = list(spec.ports);
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const at = `spec.ports[${i}]`;
    if (ports.length > 1 && !port?.name) errors.push(required(`${at}.name`));
    else if (port?.name) {
      for (const p of dns1123LabelProblems(port.name)) errors.push(invalidValue(`${at}.name`, port.name, p));
      if (names.has(port.name)) errors.push(duplicate(`${at}.name`, port.name));
      names.add(port.name);
    }
    const problem = portNumberProblem(port?.port);
    if (problem) errors.push(invalidValue(`${at}.port`, port?.port ?? 0, problem));
    if (isSet(port?.protocol) && !['SCTP', 'TCP', 'UDP'].includes(port.protocol))
      errors.push(notSupported(`${at}.protocol`, port.protocol, ['SCTP', 'TCP', 'UDP']));
    if (isSet(port?.targetPort) && port.targetPort !== 0)
      errors.push(...intOrNamePortErrors(`${at}.targetPort`, port.targetPort));
  });
  return errors;
}
