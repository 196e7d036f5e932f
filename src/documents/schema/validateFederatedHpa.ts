// autoscaling.karmada.io/v1alpha1 FederatedHPA and CronFederatedHPA: the admission rules of Karmada's webhooks
// (pkg/util/lifted/validatingfhpa.go, lifted from Kubernetes' HPA validation; pkg/webhook/cronfederatedhpa/
// validating.go) and the CRD bounds they rely on (pkg/apis/autoscaling/v1alpha1). Karmada refuses such an object
// at apply time; here it is a located problem, and the object is held (its last valid version keeps deciding).
import { parseQuantity } from '../../quantities/parseQuantity.ts';
import { isTimeZone, parseCronSchedule } from '../../time/cronSchedule.ts';
import { qualifiedNameProblems } from '../../labels/labelFormats.ts';
import { pathSegmentProblems } from '../../kubeValidation/fieldViolations.ts';
import { isDNS1123Label } from './kubernetesNames.ts';
import { preview, type SchemaIssue } from './validateAgainstSchema.ts';

type Path = (string | number)[];
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const dotted = (path: Path) => path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');

/** Kubernetes' autoscaling validation bounds (MaxPeriodSeconds, MaxStabilizationWindowSeconds). */
const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
/** Karmada does not support scaling to zero (validatingfhpa.go minReplicasLowerBound). */
const MIN_REPLICAS_LOWER_BOUND = 1;
/** External metrics are not supported by Karmada's FederatedHPA (validMetricSourceTypes). */
const METRIC_SOURCE_TYPES = ['ContainerResource', 'Object', 'Pods', 'Resource'];
const SOURCE_FIELD: Record<string, string> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  ContainerResource: 'containerResource',
};
const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];
const INT32_MAX = 2147483647;

class Issues {
  readonly list: SchemaIssue[] = [];
  invalid(path: Path, value: unknown, detail: string, fix: string) {
    this.list.push({ path, code: 'INVALID_VALUE', message: `${dotted(path)} is ${preview(value)}: ${detail}`, fix });
  }
  required(path: Path, detail: string, fix: string) {
    this.list.push({ path, code: 'MISSING_FIELD', message: `${dotted(path)} is required: ${detail}`, fix });
  }
  forbidden(path: Path, detail: string, fix: string) {
    this.list.push({ path, code: 'INVALID_VALUE', message: `${dotted(path)}: Forbidden: ${detail}`, fix });
  }
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const present = (v: unknown) => v !== undefined && v !== null;
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** Checks an int32 field that is optional; a wrong type is reported and the field is then ignored. */
function optionalInt(issues: Issues, value: unknown, path: Path): number | undefined {
  if (!present(value)) return undefined;
  if (!isInt(value) || value < -INT32_MAX - 1 || value > INT32_MAX) {
    issues.invalid(path, value, 'must be a 32-bit integer', 'write a whole number, e.g. 3');
    return undefined;
  }
  return value;
}

function crossVersionObjectReference(issues: Issues, ref: unknown, path: Path) {
  const r = isObj(ref) ? ref : {};
  if (!isObj(ref)) issues.required(path, 'the object to scale', 'add scaleTargetRef: {apiVersion, kind, name}');
  for (const field of ['kind', 'name'] as const) {
    const v = r[field];
    if (!nonEmpty(v)) {
      if (isObj(ref))
        issues.required([...path, field], `the ${field} of the referent`, `set ${dotted([...path, field])}`);
      continue;
    }
    for (const msg of pathSegmentProblems(v))
      issues.invalid([...path, field], v, msg, `use the ${field} exactly as the referent is written`);
  }
}

function metricTarget(issues: Issues, target: unknown, path: Path) {
  const t = isObj(target) ? target : {};
  if (!nonEmpty(t.type))
    issues.required(
      [...path, 'type'],
      'must specify a metric target type',
      'set type: Utilization, Value or AverageValue',
    );
  else if (!['Utilization', 'Value', 'AverageValue'].includes(t.type))
    issues.invalid(
      [...path, 'type'],
      t.type,
      'must be either Utilization, Value, or AverageValue',
      'use Utilization, Value or AverageValue',
    );
  for (const field of ['value', 'averageValue'] as const) {
    const v = t[field];
    if (!present(v)) continue;
    const q = typeof v === 'string' || typeof v === 'number' ? parseQuantity(v) : undefined;
    if (!q) issues.invalid([...path, field], v, 'not a quantity', 'write a quantity such as 100m, 500Mi or 10');
    else if (q.num <= 0n) issues.invalid([...path, field], v, 'must be positive', 'use a quantity above 0');
  }
  const util = t.averageUtilization;
  if (present(util) && (!isInt(util) || util < 1))
    issues.invalid([...path, 'averageUtilization'], util, 'must be greater than 0', 'use a percentage such as 80');
}

function metricIdentifier(issues: Issues, metric: unknown, path: Path) {
  const name = isObj(metric) ? metric.name : undefined;
  if (!nonEmpty(name)) {
    issues.required([...path, 'name'], 'must specify a metric name', 'name the metric, e.g. requests-per-second');
    return;
  }
  for (const msg of pathSegmentProblems(name))
    issues.invalid([...path, 'name'], name, msg, 'use the metric name as the metrics API serves it');
}

function metricSource(issues: Issues, field: string, src: Obj, path: Path) {
  const target = isObj(src.target) ? src.target : {};
  const targetPath = [...path, 'target'];
  if (field === 'object') {
    crossVersionObjectReference(issues, src.describedObject, [...path, 'describedObject']);
    metricIdentifier(issues, src.metric, [...path, 'metric']);
    metricTarget(issues, src.target, targetPath);
    if (!present(target.value) && !present(target.averageValue))
      issues.required(
        [...targetPath, 'averageValue'],
        'must set either a target value or averageValue',
        'set target.value or target.averageValue',
      );
    return;
  }
  if (field === 'pods') {
    metricIdentifier(issues, src.metric, [...path, 'metric']);
    metricTarget(issues, src.target, targetPath);
    if (!present(target.averageValue))
      issues.required(
        [...targetPath, 'averageValue'],
        'must specify a positive target averageValue',
        'set target: {type: AverageValue, averageValue: ...}',
      );
    return;
  }
  if (!nonEmpty(src.name))
    issues.required([...path, 'name'], 'must specify a resource name', 'name the resource, e.g. cpu or memory');
  else if (field === 'containerResource') {
    // ValidateContainerResourceName: a qualified name; without a prefix, one a container can request.
    for (const msg of qualifiedNameProblems(src.name))
      issues.invalid([...path, 'name'], src.name, msg, 'use cpu, memory or ephemeral-storage');
    if (!src.name.includes('/') && !STANDARD_CONTAINER_RESOURCES.has(src.name) && !src.name.startsWith('hugepages-'))
      issues.invalid(
        [...path, 'name'],
        src.name,
        'must be a standard resource for containers',
        'use cpu, memory or ephemeral-storage',
      );
    // A prefixed name outside kubernetes.io/ is an extended resource (IsExtendedResourceName): never `requests.`, and
    // still a qualified name once quota's `requests.` is put before it.
    else if (
      src.name.includes('/') &&
      !src.name.includes('kubernetes.io/') &&
      (src.name.startsWith('requests.') || qualifiedNameProblems(`requests.${src.name}`).length > 0)
    )
      issues.invalid(
        [...path, 'name'],
        src.name,
        "doesn't follow extended resource name standard",
        'use a domain-prefixed name such as example.com/gpu, not starting with requests.',
      );
  }
  if (field === 'containerResource') {
    if (!nonEmpty(src.container))
      issues.required([...path, 'container'], 'must specify a container', 'name the container to measure');
    else if (!isDNS1123Label(src.container))
      issues.invalid(
        [...path, 'container'],
        src.container,
        'a lowercase RFC 1123 label must consist of lower case alphanumeric characters or "-"',
        "use the container's name from the pod template",
      );
  }
  metricTarget(issues, src.target, targetPath);
  if (!present(target.averageUtilization) && !present(target.averageValue))
    issues.required(
      [...targetPath, 'averageUtilization'],
      'must set either a target raw value or a target utilization',
      'set target: {type: Utilization, averageUtilization: 80}',
    );
  if (present(target.averageUtilization) && present(target.averageValue))
    issues.forbidden(
      [...targetPath, 'averageValue'],
      'may not set both a target raw value and a target utilization',
      'keep averageUtilization or averageValue, not both',
    );
}

function metricSpec(issues: Issues, spec: unknown, path: Path) {
  const m = isObj(spec) ? spec : {};
  const type = m.type;
  if (!nonEmpty(type))
    issues.required(
      [...path, 'type'],
      'must specify a metric source type',
      `set type: one of ${METRIC_SOURCE_TYPES.join(', ')}`,
    );
  else if (!METRIC_SOURCE_TYPES.includes(type))
    issues.invalid(
      [...path, 'type'],
      type,
      `supported values: ${METRIC_SOURCE_TYPES.map((t) => `"${t}"`).join(', ')}`,
      type === 'External'
        ? "Karmada's FederatedHPA does not support External metrics; use Object or Pods metrics"
        : `use one of ${METRIC_SOURCE_TYPES.join(', ')}`,
    );
  // Only the first source written is checked, as Kubernetes does; the others are reported as extra.
  const written = ['object', 'pods', 'resource', 'containerResource'].filter((f) => present(m[f]));
  if (written[0] && isObj(m[written[0]])) metricSource(issues, written[0], m[written[0]] as Obj, [...path, written[0]]);
  const expected = typeof type === 'string' ? SOURCE_FIELD[type] : undefined;
  if (expected && !present(m[expected]))
    issues.required(
      [...path, expected],
      'must populate information for the given metric source',
      `add ${expected}: under this metric (type ${String(type)})`,
    );
  if (written.length > 1)
    for (const f of written)
      if (f !== expected)
        issues.forbidden([...path, f], 'must populate the given metric source only', `remove ${f}, or change type`);
}

function scalingRules(issues: Issues, rules: unknown, path: Path) {
  if (!isObj(rules)) return;
  const window = optionalInt(issues, rules.stabilizationWindowSeconds, [...path, 'stabilizationWindowSeconds']);
  if (window !== undefined && window < 0)
    issues.invalid(
      [...path, 'stabilizationWindowSeconds'],
      window,
      'must be greater than or equal to zero',
      'use 0 or more seconds',
    );
  if (window !== undefined && window > MAX_STABILIZATION_WINDOW_SECONDS)
    issues.invalid(
      [...path, 'stabilizationWindowSeconds'],
      window,
      `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`,
      `use at most ${MAX_STABILIZATION_WINDOW_SECONDS} seconds (one hour)`,
    );
  if (present(rules.selectPolicy) && !SELECT_POLICIES.includes(rules.selectPolicy as string))
    issues.invalid(
      [...path, 'selectPolicy'],
      rules.selectPolicy,
      `supported values: ${SELECT_POLICIES.map((p) => `"${p}"`).join(', ')}`,
      'use Max, Min or Disabled',
    );
  const policies = Array.isArray(rules.policies) ? rules.policies : [];
  // Karmada's mutating webhook (lifted.SetDefaultsFederatedHPA, copyHPAScalingRules) fills absent policies with the
  // defaults before validation, so only a list written empty is refused.
  if (present(rules.policies) && policies.length === 0)
    issues.required(
      [...path, 'policies'],
      'must specify at least one Policy',
      'add policies: [{type: Pods, value: 4, periodSeconds: 60}]',
    );
  policies.forEach((p, i) => {
    const at = [...path, 'policies', i];
    const policy = isObj(p) ? p : {};
    if (!POLICY_TYPES.includes(policy.type as string))
      issues.invalid([...at, 'type'], policy.type, 'supported values: "Percent", "Pods"', 'use Pods or Percent');
    const value = optionalInt(issues, policy.value, [...at, 'value']) ?? 0;
    if (value <= 0) issues.invalid([...at, 'value'], policy.value ?? 0, 'must be greater than zero', 'use 1 or more');
    const period = optionalInt(issues, policy.periodSeconds, [...at, 'periodSeconds']) ?? 0;
    if (period <= 0)
      issues.invalid([...at, 'periodSeconds'], policy.periodSeconds ?? 0, 'must be greater than zero', 'use e.g. 60');
    if (period > MAX_PERIOD_SECONDS)
      issues.invalid(
        [...at, 'periodSeconds'],
        period,
        `must be less than or equal to ${MAX_PERIOD_SECONDS}`,
        `use at most ${MAX_PERIOD_SECONDS} seconds`,
      );
  });
}

/** Karmada's FederatedHPA webhook (ValidateFederatedHPA); metadata is checked with every object's. */
export function validateFederatedHpa(value: Obj): SchemaIssue[] {
  const issues = new Issues();
  if (!isObj(value.spec)) {
    issues.required(
      ['spec'],
      'a FederatedHPA needs scaleTargetRef and maxReplicas',
      'add spec: {scaleTargetRef, maxReplicas}',
    );
    return issues.list;
  }
  const spec = value.spec;
  const minReplicas = optionalInt(issues, spec.minReplicas, ['spec', 'minReplicas']);
  if (minReplicas !== undefined && minReplicas < MIN_REPLICAS_LOWER_BOUND)
    issues.invalid(
      ['spec', 'minReplicas'],
      minReplicas,
      `must be greater than or equal to ${MIN_REPLICAS_LOWER_BOUND}`,
      'Karmada does not scale to zero: use minReplicas: 1 or more',
    );
  if (!present(spec.maxReplicas))
    issues.required(['spec', 'maxReplicas'], 'the upper limit of replicas', 'add maxReplicas, e.g. maxReplicas: 10');
  else {
    const maxReplicas = optionalInt(issues, spec.maxReplicas, ['spec', 'maxReplicas']);
    if (maxReplicas !== undefined && maxReplicas < 1)
      issues.invalid(['spec', 'maxReplicas'], maxReplicas, 'must be greater than 0', 'use maxReplicas: 1 or more');
    if (maxReplicas !== undefined && minReplicas !== undefined && maxReplicas < minReplicas)
      issues.invalid(
        ['spec', 'maxReplicas'],
        maxReplicas,
        `must be greater than or equal to \`minReplicas\` (${minReplicas})`,
        `raise maxReplicas to at least ${minReplicas}, or lower minReplicas to ${Math.max(maxReplicas, 1)}`,
      );
  }
  crossVersionObjectReference(issues, spec.scaleTargetRef, ['spec', 'scaleTargetRef']);
  if (present(spec.metrics))
    (Array.isArray(spec.metrics) ? spec.metrics : []).forEach((m, i) => metricSpec(issues, m, ['spec', 'metrics', i]));
  if (isObj(spec.behavior))
    for (const side of ['scaleUp', 'scaleDown'] as const)
      scalingRules(issues, spec.behavior[side], ['spec', 'behavior', side]);
  return issues.list;
}

/** Karmada's CronFederatedHPA webhook (validateCronFederatedHPASpec) and its CRD's bounds on rule fields. */
export function validateCronFederatedHpa(value: Obj): SchemaIssue[] {
  const issues = new Issues();
  if (!isObj(value.spec)) {
    issues.required(['spec'], 'a CronFederatedHPA needs scaleTargetRef and rules', 'add spec: {scaleTargetRef, rules}');
    return issues.list;
  }
  const spec = value.spec;
  const ref = isObj(spec.scaleTargetRef) ? spec.scaleTargetRef : undefined;
  let scalesFhpa = false;
  if (ref?.apiVersion === 'autoscaling.karmada.io/v1alpha1') {
    if (ref.kind !== 'FederatedHPA') {
      issues.invalid(
        ['spec', 'scaleTargetRef', 'kind'],
        ref.kind,
        `invalid scaleTargetRef kind: ${String(ref.kind)}, only support FederatedHPA`,
        'scale a FederatedHPA, or a workload by its own apiVersion and kind',
      );
      return issues.list; // Karmada stops here too
    }
    scalesFhpa = true;
  }
  crossVersionObjectReference(issues, spec.scaleTargetRef, ['spec', 'scaleTargetRef']);
  if (!Array.isArray(spec.rules)) {
    issues.required(['spec', 'rules'], 'the scaling rules', 'add rules: [{name, schedule, targetReplicas}]');
    return issues.list;
  }
  const names = new Set<string>();
  spec.rules.forEach((r, i) => {
    const at = ['spec', 'rules', i];
    const rule = isObj(r) ? r : {};
    const name = rule.name;
    if (!nonEmpty(name)) issues.required([...at, 'name'], 'each rule has a name', 'name the rule, e.g. scale-up');
    else {
      if (name.length > 32)
        issues.invalid([...at, 'name'], name, 'may not be longer than 32 characters', 'shorten the rule name');
      if (names.has(name)) issues.invalid([...at, 'name'], name, 'Duplicate value', 'give each rule a name of its own');
      names.add(name);
    }
    const schedule = rule.schedule;
    // Karmada's webhook reads schedules with gronx, whose descriptors lack robfig's @midnight (the controller's),
    // and whose step reads its start as a number, so "?/5" is never valid to it though robfig takes it as "*/5".
    const questionStep = typeof schedule === 'string' ? /(?:^|[\s,])(\?\/\S*?)(?=[\s,]|$)/.exec(schedule.trim()) : null;
    const parsed =
      typeof schedule !== 'string'
        ? { error: 'not a string' }
        : schedule.trim().toLowerCase() === '@midnight'
          ? { error: 'the webhook knows no @midnight: write @daily' }
          : questionStep
            ? { error: `the webhook reads no step from "?": write ${questionStep[1]!.replace('?', '*')}` }
            : parseCronSchedule(schedule);
    if (!present(schedule))
      issues.required([...at, 'schedule'], 'the cron schedule', 'add schedule, e.g. "0 8 * * 1-5"');
    else if ('error' in parsed)
      issues.invalid(
        [...at, 'schedule'],
        schedule,
        `invalid cron format (${parsed.error})`,
        'write five fields: minute hour day-of-month month day-of-week, e.g. "0 8 * * 1-5"',
      );
    if (present(rule.timeZone) && (typeof rule.timeZone !== 'string' || !isTimeZone(rule.timeZone)))
      issues.invalid(
        [...at, 'timeZone'],
        rule.timeZone,
        `unknown time zone ${String(rule.timeZone)}`,
        'use an IANA time zone name, e.g. Europe/Berlin',
      );
    for (const [field, min] of [
      ['successfulHistoryLimit', 1],
      ['failedHistoryLimit', 0],
    ] as const) {
      const limit = optionalInt(issues, rule[field], [...at, field]);
      if (limit !== undefined && (limit < min || limit > 32))
        issues.invalid([...at, field], limit, `should be between ${min} and 32`, `use ${min} to 32 (default 3)`);
    }
    const targetMin = optionalInt(issues, rule.targetMinReplicas, [...at, 'targetMinReplicas']);
    const targetMax = optionalInt(issues, rule.targetMaxReplicas, [...at, 'targetMaxReplicas']);
    const target = optionalInt(issues, rule.targetReplicas, [...at, 'targetReplicas']);
    if (scalesFhpa) {
      if (!present(rule.targetMinReplicas) && !present(rule.targetMaxReplicas))
        issues.required(
          [...at, 'targetMaxReplicas'],
          'targetMinReplicas and targetMaxReplicas cannot be nil at the same time if you want to scale FederatedHPA',
          'set targetMinReplicas, targetMaxReplicas or both',
        );
      if ((targetMin ?? 1) <= 0)
        issues.invalid(
          [...at, 'targetMinReplicas'],
          targetMin,
          'targetMinReplicas should be larger than 0',
          'use 1 or more',
        );
      if ((targetMax ?? INT32_MAX) <= 0)
        issues.invalid(
          [...at, 'targetMaxReplicas'],
          targetMax,
          'targetMaxReplicas should be larger than 0',
          'use 1 or more',
        );
      if ((targetMin ?? 1) > (targetMax ?? INT32_MAX))
        issues.invalid(
          [...at, 'targetMinReplicas'],
          targetMin,
          `targetMaxReplicas (${targetMax}) should be larger than or equal to targetMinReplicas`,
          `lower targetMinReplicas to ${targetMax} or raise targetMaxReplicas`,
        );
      return;
    }
    if (!present(rule.targetReplicas))
      issues.required(
        [...at, 'targetReplicas'],
        `targetReplicas cannot be nil if you want to scale ${String(ref?.kind ?? 'a workload')}`,
        'set targetReplicas (0 is allowed)',
      );
    else if (target !== undefined && target < 0)
      issues.invalid(
        [...at, 'targetReplicas'],
        target,
        'targetReplicas should be larger than or equal to 0',
        'use 0 or more (0 removes every replica)',
      );
  });
  return issues.list;
}
