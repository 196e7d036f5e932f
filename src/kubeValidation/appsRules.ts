import { matchLabelSelector } from '../labels/matchLabelSelector.ts';
import { forbidden, invalid, isSet, type KubeViolation, list, notSupported, required } from './fieldViolations.ts';
import { podSpecViolations } from './podSpecRules.ts';

// What kube-apiserver 1.32 refuses in an apps/v1 workload (pkg/apis/apps/validation ValidateDeploymentSpec and the
// strategy rules it calls), with the pod template's spec (podSpecRules.ts). Pure, shared by the member emulator and
// `flotilla validate`; a field the API server defaults is read as its default when unset (see podSpecRules.ts).

// biome-ignore lint/suspicious/noExplicitAny: an API object of any shape, as the API server decodes it; each rule reads the fields it checks
type Json = any;

/** ValidateDeploymentSpec, its unset strategy and progressDeadlineSeconds read as defaulted. */
export function deploymentViolations(deployment: Json): KubeViolation[] {
  const spec = deployment?.spec ?? {};
  const errors: KubeViolation[] = [];
  for (const field of ['replicas', 'minReadySeconds', 'revisionHistoryLimit']) {
    if (isSet(spec[field]) && spec[field] < 0)
      errors.push(invalid(['spec', field], spec[field], 'must be greater than or equal to 0'));
  }
  const selector = spec.selector;
  const labels = spec.template?.metadata?.labels ?? {};
  if (!isSet(selector)) errors.push(required(['spec', 'selector']));
  else if (Object.keys(selector.matchLabels ?? {}).length === 0 && list(selector.matchExpressions).length === 0)
    errors.push(invalid(['spec', 'selector'], selector, 'empty selector is invalid for deployment'));
  if (isSet(selector) && !matchLabelSelector(selector, labels))
    errors.push(
      invalid(['spec', 'template', 'metadata', 'labels'], labels, '`selector` does not match template `labels`'),
    );
  const restartPolicy = spec.template?.spec?.restartPolicy || 'Always';
  if (restartPolicy !== 'Always')
    errors.push(notSupported(['spec', 'template', 'spec', 'restartPolicy'], restartPolicy, ['Always']));
  errors.push(...podSpecViolations(spec.template?.spec ?? {}, ['spec', 'template', 'spec']));
  const strategy = defaultedDeploymentStrategy(spec.strategy);
  if (isSet(strategy.type) && !['Recreate', 'RollingUpdate'].includes(strategy.type))
    errors.push(notSupported(['spec', 'strategy', 'type'], strategy.type, ['Recreate', 'RollingUpdate']));
  if (strategy.type === 'Recreate' && isSet(strategy.rollingUpdate))
    errors.push(
      forbidden(['spec', 'strategy', 'rollingUpdate'], "may not be specified when strategy `type` is 'Recreate'"),
    );
  if (isSet(strategy.rollingUpdate)) {
    const at = ['spec', 'strategy', 'rollingUpdate'];
    const { maxUnavailable, maxSurge } = strategy.rollingUpdate;
    errors.push(...intOrPercentViolations([...at, 'maxUnavailable'], maxUnavailable));
    errors.push(...intOrPercentViolations([...at, 'maxSurge'], maxSurge, false));
    if (isZero(maxUnavailable) && isZero(maxSurge))
      errors.push(invalid([...at, 'maxUnavailable'], maxUnavailable, 'may not be 0 when `maxSurge` is 0'));
  }
  const progressDeadlineSeconds = spec.progressDeadlineSeconds ?? 600;
  if (progressDeadlineSeconds <= (spec.minReadySeconds ?? 0))
    errors.push(
      invalid(['spec', 'progressDeadlineSeconds'], progressDeadlineSeconds, 'must be greater than minReadySeconds'),
    );
  return errors;
}

/** The strategy as SetDefaults_Deployment leaves it: RollingUpdate, with 25% unavailable and 25% surge. */
function defaultedDeploymentStrategy(strategy: Json): Json {
  const type = strategy?.type || 'RollingUpdate';
  if (type !== 'RollingUpdate') return { ...strategy, type };
  return { type, rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%', ...withoutNulls(strategy?.rollingUpdate) } };
}

const withoutNulls = (object: Json): Json =>
  Object.fromEntries(Object.entries(object ?? {}).filter(([, value]) => isSet(value)));

function isZero(value: unknown): boolean {
  return value === 0 || value === '0%';
}

/** ValidatePositiveIntOrPercent, and IsNotMoreThan100Percent unless `capped` is false (maxSurge may exceed 100%). */
export function intOrPercentViolations(path: (string | number)[], value: unknown, capped = true): KubeViolation[] {
  if (!isSet(value)) return [];
  if (typeof value === 'string') {
    if (!/^[0-9]+%$/.test(value))
      return [
        invalid(
          path,
          value,
          "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        ),
      ];
    return capped && Number.parseInt(value, 10) > 100 ? [invalid(path, value, 'must not be greater than 100%')] : [];
  }
  return typeof value === 'number' && value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
}

/**
 * The workload rules of `group`/`kind` on a defaulted object: an apps/v1 kind's spec with its pod template, the pod
 * spec of a Pod, PodTemplate or ReplicationController, and of a Job's or CronJob's template (batchRules.ts has the
 * rest of theirs). A StatefulSet's pod template is not validated as a pod spec (ValidatePodTemplateSpecForStatefulSet
 * leaves it out, since its mounts may name its volumeClaimTemplates). [] for any other kind.
 */
export function workloadViolations(group: string, kind: string, object: Json): KubeViolation[] {
  switch (`${group}/${kind}`) {
    case 'apps/Deployment':
      return deploymentViolations(object);
    case 'apps/DaemonSet':
    case 'apps/ReplicaSet':
    case '/ReplicationController':
      return podSpecViolations(object?.spec?.template?.spec ?? {}, ['spec', 'template', 'spec']);
    case '/PodTemplate':
      return podSpecViolations(object?.template?.spec ?? {}, ['template', 'spec']);
    case '/Pod':
      return podSpecViolations(object?.spec ?? {}, ['spec']);
    case 'batch/Job':
      return podSpecViolations(object?.spec?.template?.spec ?? {}, ['spec', 'template', 'spec']);
    case 'batch/CronJob':
      return podSpecViolations(object?.spec?.jobTemplate?.spec?.template?.spec ?? {}, [
        'spec',
        'jobTemplate',
        'spec',
        'template',
        'spec',
      ]);
    default:
      return [];
  }
}
