import { matchLabelSelector } from '../labels/matchLabelSelector.ts';
import {
  forbidden,
  goStringMapText,
  intOrPercentViolations,
  invalid,
  isObject,
  isSet,
  type KubeViolation,
  labelSelectorText,
  labelSelectorViolations,
  list,
  notSupported,
  required,
  type Json,
} from './fieldViolations.ts';
import { podSpecViolations } from './podSpecRules.ts';

// What kube-apiserver 1.32 refuses in an apps/v1 workload (pkg/apis/apps/validation ValidateDeploymentSpec,
// ValidateReplicaSetSpec, ValidateStatefulSetSpec, ValidateDaemonSetSpec and the strategy rules they call), with the
// pod template's spec (podSpecRules.ts). Pure, shared by the member emulator and `flotilla validate`; a field the API
// server defaults is read as its default when unset (see podSpecRules.ts).

/** ValidateDeploymentSpec, its unset strategy and progressDeadlineSeconds read as defaulted. */
export function deploymentViolations(deployment: Json): KubeViolation[] {
  const spec = deployment?.spec ?? {};
  const errors: KubeViolation[] = [];
  for (const field of ['replicas', 'minReadySeconds', 'revisionHistoryLimit']) errors.push(...nonNegative(spec, field));
  errors.push(...replicaSetTemplateViolations(spec));
  const strategy = defaultedDeploymentStrategy(spec.strategy);
  if (!['Recreate', 'RollingUpdate'].includes(strategy.type))
    errors.push(
      notSupported(
        ['spec', 'strategy'],
        undefined,
        ['Recreate', 'RollingUpdate'],
        goStrategy('DeploymentStrategy', 'RollingUpdateDeployment', strategy),
      ),
    );
  if (strategy.type === 'Recreate' && isSet(strategy.rollingUpdate))
    errors.push(
      forbidden(['spec', 'strategy', 'rollingUpdate'], "may not be specified when strategy `type` is 'Recreate'"),
    );
  if (strategy.type === 'RollingUpdate') {
    const at = ['spec', 'strategy', 'rollingUpdate'];
    const { maxUnavailable, maxSurge } = strategy.rollingUpdate;
    errors.push(...intOrPercentViolations([...at, 'maxUnavailable'], maxUnavailable));
    errors.push(...intOrPercentViolations([...at, 'maxSurge'], maxSurge, false));
    if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0)
      errors.push(invalid([...at, 'maxUnavailable'], maxUnavailable, 'may not be 0 when `maxSurge` is 0'));
  }
  const progressDeadlineSeconds = spec.progressDeadlineSeconds ?? 600;
  if (progressDeadlineSeconds < 0)
    errors.push(
      invalid(['spec', 'progressDeadlineSeconds'], progressDeadlineSeconds, 'must be greater than or equal to 0'),
    );
  if (progressDeadlineSeconds <= (spec.minReadySeconds ?? 0))
    errors.push(
      invalid(['spec', 'progressDeadlineSeconds'], progressDeadlineSeconds, 'must be greater than minReadySeconds'),
    );
  return errors;
}

/** ValidateReplicaSetSpec: the Deployment's selector and pod template rules, without a strategy. */
export function replicaSetViolations(replicaSet: Json): KubeViolation[] {
  const spec = replicaSet?.spec ?? {};
  const errors = [...nonNegative(spec, 'replicas'), ...nonNegative(spec, 'minReadySeconds')];
  errors.push(...replicaSetTemplateViolations(spec));
  return errors;
}

/**
 * The selector and pod template of a Deployment or ReplicaSet (ValidatePodTemplateSpecForReplicaSet), whose
 * template is checked only against a selector that parses. kube-apiserver names a ReplicaSet's empty selector as a
 * deployment's: the two share the rule.
 */
function replicaSetTemplateViolations(spec: Json): KubeViolation[] {
  const { errors, parsed } = selectorViolations(spec, 'deployment');
  if (!parsed) return [...errors, unparsedSelector(spec.selector)];
  errors.push(...podSpecViolations(spec.template?.spec ?? {}, ['spec', 'template', 'spec']));
  errors.push(...alwaysRestartingViolations(spec, 'ReplicaSet'));
  return errors;
}

const STATEFULSET_POLICIES = ['OrderedReady', 'Parallel'];
const RETENTION_POLICIES = ['Retain', 'Delete'];

/**
 * ValidateStatefulSetSpec on the object SetDefaults_StatefulSet leaves: an unset podManagementPolicy is
 * OrderedReady, an unset update strategy RollingUpdate with partition 0, an unset retention policy Retain. Its pod
 * spec is not validated (ValidatePodTemplateSpecForStatefulSet leaves it out: its mounts may name its
 * volumeClaimTemplates), and rollingUpdate.maxUnavailable is dropped before validation while the
 * MaxUnavailableStatefulSet gate is off, as it is by default in 1.32.
 */
export function statefulSetViolations(statefulSet: Json): KubeViolation[] {
  const spec = statefulSet?.spec ?? {};
  const errors: KubeViolation[] = [];
  const policy = spec.podManagementPolicy || 'OrderedReady';
  if (!STATEFULSET_POLICIES.includes(policy))
    errors.push(invalid(['spec', 'podManagementPolicy'], policy, "must be 'OrderedReady' or 'Parallel'"));
  const type = spec.updateStrategy?.type || 'RollingUpdate';
  const rollingUpdate = spec.updateStrategy?.rollingUpdate;
  const partition = rollingUpdate?.partition ?? 0;
  if (type === 'OnDelete' && isSet(rollingUpdate))
    errors.push(
      invalid(
        ['spec', 'updateStrategy', 'rollingUpdate'],
        undefined,
        "only allowed for updateStrategy 'RollingUpdate'",
        `apps.RollingUpdateStatefulSetStrategy{Partition:${partition}, MaxUnavailable:(*intstr.IntOrString)(nil)}`,
      ),
    );
  else if (type === 'RollingUpdate' && partition < 0)
    errors.push(
      invalid(
        ['spec', 'updateStrategy', 'rollingUpdate', 'partition'],
        partition,
        'must be greater than or equal to 0',
      ),
    );
  else if (type !== 'OnDelete' && type !== 'RollingUpdate')
    errors.push(
      invalid(
        ['spec', 'updateStrategy'],
        undefined,
        "must be 'RollingUpdate' or 'OnDelete'",
        goStrategy('StatefulSetUpdateStrategy', 'RollingUpdateStatefulSetStrategy', { type, rollingUpdate }),
      ),
    );
  for (const when of ['whenDeleted', 'whenScaled']) {
    const value = spec.persistentVolumeClaimRetentionPolicy?.[when] || 'Retain';
    if (!RETENTION_POLICIES.includes(value))
      errors.push(notSupported(['spec', 'persistentVolumeClaimRetentionPolicy', when], value, RETENTION_POLICIES));
  }
  errors.push(...nonNegative(spec, 'replicas'), ...nonNegative(spec, 'minReadySeconds'));
  if (isSet(spec.ordinals?.start) && spec.ordinals.start < 0)
    errors.push(invalid(['spec', 'ordinals', 'start'], spec.ordinals.start, 'must be greater than or equal to 0'));
  const selector = selectorViolations(spec, 'statefulset');
  errors.push(...selector.errors);
  // The API server reports a StatefulSet's unparsed selector with no words.
  if (!selector.parsed) errors.push(invalid(['spec', 'selector'], undefined, '', labelSelectorText(spec.selector)));
  errors.push(...alwaysRestartingViolations(spec, 'StatefulSet'));
  return errors;
}

/**
 * ValidateDaemonSetSpec on the object SetDefaults_DaemonSet leaves: an unset update strategy is RollingUpdate, its
 * unset maxUnavailable 1 and maxSurge 0, so a maxSurge set alone collides with the defaulted maxUnavailable.
 */
export function daemonSetViolations(daemonSet: Json): KubeViolation[] {
  const spec = daemonSet?.spec ?? {};
  // A DaemonSet's selector is not required: without one it selects nothing, so its pod labels do not match.
  const { errors } = selectorViolations(spec, 'daemonset', false);
  errors.push(...podSpecViolations(spec.template?.spec ?? {}, ['spec', 'template', 'spec']));
  errors.push(...alwaysRestartingViolations(spec, 'DaemonSet'));
  errors.push(...nonNegative(spec, 'minReadySeconds'));
  const type = spec.updateStrategy?.type || 'RollingUpdate';
  if (type === 'RollingUpdate') {
    const at = ['spec', 'updateStrategy', 'rollingUpdate'];
    const { maxUnavailable, maxSurge } = {
      maxUnavailable: 1,
      maxSurge: 0,
      ...withoutNulls(spec.updateStrategy?.rollingUpdate),
    };
    errors.push(...intOrPercentViolations([...at, 'maxUnavailable'], maxUnavailable));
    errors.push(...intOrPercentViolations([...at, 'maxSurge'], maxSurge));
    const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
    const hasSurge = intOrPercentValue(maxSurge) !== 0;
    if (hasUnavailable && hasSurge)
      errors.push(invalid([...at, 'maxSurge'], maxSurge, 'may not be set when maxUnavailable is non-zero'));
    if (!hasUnavailable && !hasSurge)
      errors.push(required([...at, 'maxUnavailable'], 'cannot be 0 when maxSurge is 0'));
  } else if (type !== 'OnDelete')
    errors.push(
      notSupported(
        ['spec', 'updateStrategy'],
        undefined,
        ['RollingUpdate', 'OnDelete'],
        goStrategy('DaemonSetUpdateStrategy', 'RollingUpdateDaemonSet', spec.updateStrategy),
      ),
    );
  errors.push(...nonNegative(spec, 'revisionHistoryLimit'));
  return errors;
}

/**
 * ValidateReplicationControllerSpec on the object SetDefaults_ReplicationController leaves: a selector left empty is
 * the template's labels, so only a template without labels leaves it empty. Its selector is a plain map, matched
 * against the template's labels only when not empty.
 */
export function replicationControllerViolations(controller: Json): KubeViolation[] {
  const spec = controller?.spec ?? {};
  const template = spec.template;
  const labels = template?.metadata?.labels;
  const given = isObject(spec.selector) ? spec.selector : {};
  const selector: Record<string, unknown> = Object.keys(given).length === 0 && isObject(labels) ? labels : given;
  const errors = nonNegative(spec, 'minReadySeconds');
  if (Object.keys(selector).length === 0) errors.push(required(['spec', 'selector']));
  errors.push(...nonNegative(spec, 'replicas'));
  if (!isObject(template)) return [...errors, required(['spec', 'template'])];
  const matches = Object.entries(selector).every(
    ([key, value]) => isObject(labels) && Object.hasOwn(labels, key) && String(labels[key]) === String(value ?? ''),
  );
  if (!matches) errors.push(selectorMismatch(labels));
  errors.push(...podSpecViolations(template.spec ?? {}, ['spec', 'template', 'spec']));
  errors.push(...alwaysRestartingViolations(spec, 'ReplicationController'));
  return errors;
}

const nonNegative = (spec: Json, field: string): KubeViolation[] =>
  isSet(spec[field]) && spec[field] < 0
    ? [invalid(['spec', field], spec[field], 'must be greater than or equal to 0')]
    : [];

/**
 * A workload's selector and its pod template's labels (ValidateDeploymentSpec and its siblings). A missing selector
 * is required (but a DaemonSet's) and selects nothing, so the labels are reported too; an empty one selects
 * everything, and is refused for `kind`. The selector is held to metav1's ValidateLabelSelector; one that breaks it
 * does not parse (LabelSelectorAsSelector), so no label is matched against it and `parsed` is false: a Deployment
 * or ReplicaSet then skips its whole pod template, a StatefulSet its template's labels.
 */
function selectorViolations(
  spec: Json,
  kind: string,
  requiredSelector = true,
): { errors: KubeViolation[]; parsed: boolean } {
  const errors: KubeViolation[] = [];
  const selector = spec.selector;
  const labels = spec.template?.metadata?.labels;
  if (!isSet(selector) && requiredSelector) errors.push(required(['spec', 'selector']));
  const selectorErrors = labelSelectorViolations(['spec', 'selector'], selector);
  errors.push(...selectorErrors);
  const empty =
    isObject(selector) &&
    Object.keys(selector.matchLabels ?? {}).length === 0 &&
    list(selector.matchExpressions).length === 0;
  if (empty)
    errors.push(
      invalid(['spec', 'selector'], undefined, `empty selector is invalid for ${kind}`, labelSelectorText(selector)),
    );
  const parsed = selectorErrors.length === 0;
  if (parsed && !empty && !(isSet(selector) && matchLabelSelector(selector, labels ?? {})))
    errors.push(selectorMismatch(labels));
  return { errors, parsed };
}

/** The pod template's labels, which the workload's selector does not select. */
const selectorMismatch = (labels: unknown): KubeViolation =>
  invalid(
    ['spec', 'template', 'metadata', 'labels'],
    undefined,
    '`selector` does not match template `labels`',
    goStringMapText(labels),
  );

/** What a Deployment or ReplicaSet reports for a selector that does not parse, in place of its pod template's checks. */
const unparsedSelector = (selector: Json): KubeViolation =>
  invalid(['spec', 'selector'], undefined, 'invalid label selector', labelSelectorText(selector));

/** A controller's pods restart Always (the pod spec's default) and run without a deadline. */
function alwaysRestartingViolations(spec: Json, kind: string): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const restartPolicy = spec.template?.spec?.restartPolicy || 'Always';
  if (restartPolicy !== 'Always')
    errors.push(notSupported(['spec', 'template', 'spec', 'restartPolicy'], restartPolicy, ['Always']));
  if (isSet(spec.template?.spec?.activeDeadlineSeconds))
    errors.push(
      forbidden(
        ['spec', 'template', 'spec', 'activeDeadlineSeconds'],
        `activeDeadlineSeconds in ${kind} is not Supported`,
      ),
    );
  return errors;
}

/** Go's %#v of an update strategy the API server refuses whole: its type, and its rolling update's pointer (elided). */
function goStrategy(struct: string, rollingStruct: string, strategy: Json): string {
  const pointer = isSet(strategy?.rollingUpdate) ? '0x…' : 'nil';
  return `apps.${struct}{Type:${JSON.stringify(String(strategy?.type ?? ''))}, RollingUpdate:(*apps.${rollingStruct})(${pointer})}`;
}

/** The strategy as SetDefaults_Deployment leaves it: RollingUpdate, with 25% unavailable and 25% surge. */
function defaultedDeploymentStrategy(strategy: Json): Json {
  const type = strategy?.type || 'RollingUpdate';
  if (type !== 'RollingUpdate') return { ...strategy, type };
  return { type, rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%', ...withoutNulls(strategy?.rollingUpdate) } };
}

const withoutNulls = (object: Json): Json =>
  Object.fromEntries(Object.entries(object ?? {}).filter(([, value]) => isSet(value)));

/** getIntOrPercentValue: a percent's number, an int, or a string's integer (0 when it is none). */
function intOrPercentValue(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return 0;
  if (/^[0-9]+%$/.test(value)) return Number.parseInt(value, 10);
  return /^[+-]?[0-9]+$/.test(value) ? Number.parseInt(value, 10) : 0;
}

/**
 * The workload rules of `group`/`kind` on a defaulted object: an apps/v1 kind's spec with its pod template, the pod
 * spec of a Pod, PodTemplate or ReplicationController, and of a Job's or CronJob's template (batchRules.ts has the
 * rest of theirs). A StatefulSet's pod template is not validated as a pod spec (see statefulSetViolations). [] for
 * any other kind.
 */
export function workloadViolations(group: string, kind: string, object: Json): KubeViolation[] {
  switch (`${group}/${kind}`) {
    case 'apps/Deployment':
      return deploymentViolations(object);
    case 'apps/StatefulSet':
      return statefulSetViolations(object);
    case 'apps/DaemonSet':
      return daemonSetViolations(object);
    case 'apps/ReplicaSet':
      return replicaSetViolations(object);
    case '/ReplicationController':
      return replicationControllerViolations(object);
    case '/PodTemplate':
      return podSpecViolations(object?.template?.spec ?? {}, ['template', 'spec']);
    case '/Pod':
      return podSpecViolations(object?.spec ?? {}, ['spec'], { resourceIsPod: true });
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
