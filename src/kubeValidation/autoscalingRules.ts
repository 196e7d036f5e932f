import { formatQuantity, parseQuantity } from '../quantities/canonicalQuantity.ts';
import { containerResourceNameViolations } from './coreResourceRules.ts';
import {
  type Json,
  type KubeViolation,
  dns1123LabelProblems,
  forbidden,
  invalid,
  isObject,
  isSet,
  list,
  notSupported,
  pathSegmentProblems,
  required,
} from './fieldViolations.ts';

// What kube-apiserver 1.32 refuses in an autoscaling HorizontalPodAutoscaler being created
// (pkg/apis/autoscaling/validation validateHorizontalPodAutoscalerSpec: replicas bounds, scaleTargetRef, metrics,
// behavior), in its field paths and words, on the object in the autoscaling/v2 shape it validates (an autoscaling/v1
// one converted: its targetCPUUtilizationPercentage is the Resource cpu Utilization metric). A field
// SetDefaults_HorizontalPodAutoscaler defaults is read as its default when unset: minReplicas 1, the cpu metric when
// there are no metrics, and, once behavior is given, each direction's policies, selectPolicy and window.

type Path = (string | number)[];

/** HPAScaleToZero is alpha (off) in 1.32. */
const MIN_REPLICAS_LOWER_BOUND = 1;
const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const SOURCE_FIELDS = ['object', 'external', 'pods', 'resource', 'containerResource'] as const;
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];
const TARGET_TYPES = ['Utilization', 'Value', 'AverageValue'];

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

export function horizontalPodAutoscalerViolations(hpa: Json): KubeViolation[] {
  const spec = isObject(hpa?.spec) ? hpa.spec : {};
  const errors: KubeViolation[] = [];
  const minReplicas = isSet(spec.minReplicas) ? spec.minReplicas : 1;
  const maxReplicas = isSet(spec.maxReplicas) ? spec.maxReplicas : 0;
  if (isInt(minReplicas) && minReplicas < MIN_REPLICAS_LOWER_BOUND)
    errors.push(
      invalid(['spec', 'minReplicas'], minReplicas, `must be greater than or equal to ${MIN_REPLICAS_LOWER_BOUND}`),
    );
  if (isInt(maxReplicas) && maxReplicas < 1)
    errors.push(invalid(['spec', 'maxReplicas'], maxReplicas, 'must be greater than 0'));
  if (isInt(minReplicas) && isInt(maxReplicas) && maxReplicas < minReplicas)
    errors.push(invalid(['spec', 'maxReplicas'], maxReplicas, 'must be greater than or equal to `minReplicas`'));
  errors.push(...objectReferenceViolations(spec.scaleTargetRef, ['spec', 'scaleTargetRef']));
  errors.push(...metricsViolations(spec.metrics, minReplicas));
  if (isObject(spec.behavior)) {
    errors.push(...scalingRulesViolations(spec.behavior.scaleUp, ['spec', 'behavior', 'scaleUp']));
    errors.push(...scalingRulesViolations(spec.behavior.scaleDown, ['spec', 'behavior', 'scaleDown']));
  }
  return errors;
}

/** ValidateCrossVersionObjectReference. */
function objectReferenceViolations(ref: Json, at: Path): KubeViolation[] {
  const errors: KubeViolation[] = [];
  for (const key of ['kind', 'name']) {
    const value = typeof ref?.[key] === 'string' ? ref[key] : '';
    if (value === '') errors.push(required([...at, key]));
    else for (const p of pathSegmentProblems(value)) errors.push(invalid([...at, key], value, p));
  }
  return errors;
}

function metricsViolations(metrics: unknown, minReplicas: unknown): KubeViolation[] {
  const errors: KubeViolation[] = [];
  // No metrics: SetDefaults_HorizontalPodAutoscaler adds the cpu one, which is valid.
  const given = list(metrics);
  given.forEach((metric, i) => {
    errors.push(...metricSpecViolations(isObject(metric) ? metric : {}, ['spec', 'metrics', i]));
  });
  const scalesOnObjects = given.some((m) => m?.type === 'Object' || m?.type === 'External');
  if (minReplicas === 0 && !scalesOnObjects)
    errors.push(
      forbidden(
        ['spec', 'metrics'],
        'must specify at least one Object or External metric to support scaling to zero replicas',
      ),
    );
  return errors;
}

function metricSpecViolations(metric: Record<string, Json>, at: Path): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const type = typeof metric.type === 'string' ? metric.type : '';
  if (type === '') errors.push(required([...at, 'type'], 'must specify a metric source type'));
  // validateMetricSpec reports an unknown type twice; the API server's message lists it once.
  if (!METRIC_SOURCE_TYPES.includes(type)) errors.push(notSupported([...at, 'type'], type, METRIC_SOURCE_TYPES));
  const present = SOURCE_FIELDS.filter((f) => isSet(metric[f]));
  // Only the first source present is validated.
  const first = present[0];
  if (first) errors.push(...sourceViolations(first, isObject(metric[first]) ? metric[first] : {}, [...at, first]));
  const expected = SOURCE_FIELDS.find(
    (f) => f.toLowerCase() === type.toLowerCase() && METRIC_SOURCE_TYPES.includes(type),
  );
  if (expected && !isSet(metric[expected]))
    errors.push(required([...at, expected], 'must populate information for the given metric source'));
  if (present.length !== 1)
    for (const f of present.filter((f) => f !== expected).sort())
      errors.push(forbidden([...at, f], 'must populate the given metric source only'));
  return errors;
}

function sourceViolations(
  kind: (typeof SOURCE_FIELDS)[number],
  source: Record<string, Json>,
  at: Path,
): KubeViolation[] {
  const target = isObject(source.target) ? source.target : {};
  const targetAt = [...at, 'target'];
  const errors: KubeViolation[] = [];
  const has = (key: string) => isSet(target[key]);
  switch (kind) {
    case 'object':
      errors.push(...objectReferenceViolations(source.describedObject, [...at, 'describedObject']));
      errors.push(...metricIdentifierViolations(source.metric, [...at, 'metric']));
      errors.push(...targetViolations(target, targetAt));
      if (!has('value') && !has('averageValue'))
        errors.push(required([...targetAt, 'averageValue'], 'must set either a target value or averageValue'));
      break;
    case 'external':
      errors.push(...metricIdentifierViolations(source.metric, [...at, 'metric']));
      errors.push(...targetViolations(target, targetAt));
      if (!has('value') && !has('averageValue'))
        errors.push(
          required([...targetAt, 'averageValue'], 'must set either a target value for metric or a per-pod target'),
        );
      if (has('value') && has('averageValue'))
        errors.push(
          forbidden([...targetAt, 'value'], 'may not set both a target value for metric and a per-pod target'),
        );
      break;
    case 'pods':
      errors.push(...metricIdentifierViolations(source.metric, [...at, 'metric']));
      errors.push(...targetViolations(target, targetAt));
      if (!has('averageValue'))
        errors.push(required([...targetAt, 'averageValue'], 'must specify a positive target averageValue'));
      break;
    case 'containerResource':
    case 'resource': {
      const name = typeof source.name === 'string' ? source.name : '';
      if (name === '') errors.push(required([...at, 'name'], 'must specify a resource name'));
      else if (kind === 'containerResource') errors.push(...containerResourceNameViolations([...at, 'name'], name));
      if (kind === 'containerResource') {
        const container = typeof source.container === 'string' ? source.container : '';
        if (container === '') errors.push(required([...at, 'container'], 'must specify a container'));
        else for (const p of dns1123LabelProblems(container)) errors.push(invalid([...at, 'container'], container, p));
      }
      errors.push(...targetViolations(target, targetAt));
      if (!has('averageUtilization') && !has('averageValue'))
        errors.push(
          required([...targetAt, 'averageUtilization'], 'must set either a target raw value or a target utilization'),
        );
      if (has('averageUtilization') && has('averageValue'))
        errors.push(
          forbidden([...targetAt, 'averageValue'], 'may not set both a target raw value and a target utilization'),
        );
      break;
    }
  }
  return errors;
}

function metricIdentifierViolations(id: Json, at: Path): KubeViolation[] {
  const name = typeof id?.name === 'string' ? id.name : '';
  if (name === '') return [required([...at, 'name'], 'must specify a metric name')];
  return pathSegmentProblems(name).map((p) => invalid([...at, 'name'], name, p));
}

/** validateMetricTarget; a quantity is printed in its canonical form, as Quantity.String writes it. */
function targetViolations(target: Record<string, Json>, at: Path): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const type = typeof target.type === 'string' ? target.type : '';
  if (type === '') errors.push(required([...at, 'type'], 'must specify a metric target type'));
  if (!TARGET_TYPES.includes(type))
    errors.push(invalid([...at, 'type'], type, 'must be either Utilization, Value, or AverageValue'));
  for (const key of ['value', 'averageValue']) {
    const value = target[key];
    const q = typeof value === 'number' || typeof value === 'string' ? parseQuantity(String(value).trim()) : undefined;
    if (q && q.mantissa <= 0n) errors.push(invalid([...at, key], value, 'must be positive', formatQuantity(q)));
  }
  if (isInt(target.averageUtilization) && target.averageUtilization < 1)
    errors.push(invalid([...at, 'averageUtilization'], target.averageUtilization, 'must be greater than 0'));
  return errors;
}

/**
 * validateScalingRules on a direction as defaulted: absent, it is all defaults; given, its unset fields are
 * (GenerateHPAScaleUpRules / GenerateHPAScaleDownRules), but an empty policies list is kept and refused.
 */
function scalingRulesViolations(rules: Json, at: Path): KubeViolation[] {
  if (!isObject(rules)) return [];
  const errors: KubeViolation[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (isInt(window) && window < 0)
    errors.push(invalid([...at, 'stabilizationWindowSeconds'], window, 'must be greater than or equal to zero'));
  if (isInt(window) && window > MAX_STABILIZATION_WINDOW_SECONDS)
    errors.push(
      invalid(
        [...at, 'stabilizationWindowSeconds'],
        window,
        `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`,
      ),
    );
  if (typeof rules.selectPolicy === 'string' && !SELECT_POLICIES.includes(rules.selectPolicy))
    errors.push(notSupported([...at, 'selectPolicy'], rules.selectPolicy, SELECT_POLICIES));
  if (!Array.isArray(rules.policies)) return errors;
  if (rules.policies.length === 0) errors.push(required([...at, 'policies'], 'must specify at least one Policy'));
  rules.policies.forEach((policy: Json, i: number) => {
    const where = [...at, 'policies', i];
    const type = typeof policy?.type === 'string' ? policy.type : '';
    if (!POLICY_TYPES.includes(type)) errors.push(notSupported([...where, 'type'], type, POLICY_TYPES));
    const value = isSet(policy?.value) ? policy.value : 0;
    if (isInt(value) && value <= 0) errors.push(invalid([...where, 'value'], value, 'must be greater than zero'));
    const period = isSet(policy?.periodSeconds) ? policy.periodSeconds : 0;
    if (isInt(period) && period <= 0)
      errors.push(invalid([...where, 'periodSeconds'], period, 'must be greater than zero'));
    if (isInt(period) && period > MAX_PERIOD_SECONDS)
      errors.push(invalid([...where, 'periodSeconds'], period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  });
  return errors;
}
