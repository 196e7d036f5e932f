import {
  domainPrefixedPathErrors,
  duplicate,
  fieldOf,
  goStringMapText,
  invalid,
  notSupported,
  required,
  tooLong,
  tooMany,
  isObject,
  isSet,
  type Json,
  type KubeViolation,
  labelSelectorText,
  labelSelectorViolations,
  list,
} from './fieldViolations.ts';
import { semanticEqual } from './semanticEqual.ts';
import { goLocationError, robfigScheduleError } from '../time/cronSchedule.ts';
import { matchLabelSelector } from '../labels/matchLabelSelector.ts';
import { qualifiedNameDetails } from '../labels/objectMetaRules.ts';

// What kube-apiserver 1.32 refuses in a Job or CronJob (pkg/apis/batch/validation: ValidateJob, validateJobSpec,
// ValidateCronJobCreate/Update, validateCronJobSpec, validateTimeZone), in its field paths and words. The member
// emulator answers these as a 422; a template breaking them is refused by Karmada's API server, a kube-apiserver, so
// `flotilla validate` reports them at their line. The pod template's own spec is validated apart (ValidatePodSpec).

/** Go's %#v of a []int32. */
const int32sText = (values: unknown): string =>
  Array.isArray(values) ? `[]int32{${values.join(', ')}}` : '[]int32(nil)';

/** field.Invalid with field.OmitValueType{}: no value printed. */
const invalidOmitted = (path: (string | number)[], detail: string): KubeViolation => ({
  path,
  field: fieldOf(path),
  type: 'FieldValueInvalid',
  detail: `Invalid value: ${detail}`,
});
const nonNegative = (path: (string | number)[], value: unknown) =>
  typeof value === 'number' && value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
/** Go's %q of a []string, as sets.List prints in a Required detail: `["a" "b"]`. */
const quotedList = (values: readonly string[]) => `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;

const MAX_INDEXED_PARALLELISM = 100_000;
const MAX_FAILED_INDEXES = 100_000;
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_FOR_HIGH_COMPLETIONS = 10_000;
const MAX_FAILED_INDEXES_FOR_HIGH_COMPLETIONS = 10_000;
const FAILURE_ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const EXIT_CODE_OPERATORS = ['In', 'NotIn'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];

/** parseIndexInterval and validateIndexesFormat: the number of indexes, or why the list is no index list. */
function indexesFormat(text: string, completions: number): number | string {
  if (text === '') return 0;
  let last: number | undefined;
  let total = 0;
  for (const interval of text.split(',')) {
    const limits = interval.split('-');
    if (limits.length > 2)
      return `the fragment ${JSON.stringify(interval)} violates the requirement that an index interval can have at most two parts separated by '-'`;
    const bounds: number[] = [];
    for (const limit of limits) {
      if (!/^[+-]?\d+$/.test(limit)) return `cannot convert string to integer for index: ${JSON.stringify(limit)}`;
      const n = Number(limit);
      if (n >= completions) return `too large index: ${JSON.stringify(limit)}`;
      bounds.push(n);
    }
    const [x, y = x] = bounds as [number, number?];
    if (bounds.length === 2 && x >= y) return `non-increasing order, previous: ${x}, current: ${y}`;
    if (last !== undefined && last >= x) return `non-increasing order, previous: ${last}, current: ${x}`;
    total += y - x + 1;
    last = y;
  }
  return total;
}

function podFailurePolicyErrors(spec: Json, at: (string | number)[]): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const rules = list(spec.podFailurePolicy?.rules);
  if (rules.length > 20) errors.push(tooMany([...at, 'rules'], rules.length, 20));
  const podSpec = spec.template?.spec ?? {};
  const containers = new Set([...list(podSpec.containers), ...list(podSpec.initContainers)].map((c) => c?.name));
  rules.forEach((rule: Json, i: number) => {
    const rulePath = [...at, 'rules', i];
    const action = rule?.action ?? '';
    if (action === '') errors.push(required([...rulePath, 'action'], `valid values: ${quotedList(FAILURE_ACTIONS)}`));
    else if (action === 'FailIndex') {
      if (!isSet(spec.backoffLimitPerIndex))
        errors.push(invalid([...rulePath, 'action'], action, 'requires the backoffLimitPerIndex to be set'));
    } else if (!FAILURE_ACTIONS.includes(action))
      errors.push(notSupported([...rulePath, 'action'], action, FAILURE_ACTIONS));
    const onExitCodes = rule?.onExitCodes;
    const onPodConditions = list(rule?.onPodConditions);
    if (isSet(onExitCodes)) {
      const exitPath = [...rulePath, 'onExitCodes'];
      const operator = onExitCodes.operator ?? '';
      if (operator === '')
        errors.push(required([...exitPath, 'operator'], `valid values: ${quotedList(EXIT_CODE_OPERATORS)}`));
      else if (!EXIT_CODE_OPERATORS.includes(operator))
        errors.push(notSupported([...exitPath, 'operator'], operator, EXIT_CODE_OPERATORS));
      if (isSet(onExitCodes.containerName) && !containers.has(onExitCodes.containerName))
        errors.push(
          invalid(
            [...exitPath, 'containerName'],
            onExitCodes.containerName,
            'must be one of the container or initContainer names in the pod template',
          ),
        );
      const values = list(onExitCodes.values);
      if (values.length === 0)
        errors.push(
          invalid([...exitPath, 'values'], values, 'at least one value is required', int32sText(onExitCodes.values)),
        );
      else if (values.length > 255) errors.push(tooMany([...exitPath, 'values'], values.length, 255));
      const seen = new Set<number>();
      let ordered = true;
      values.forEach((value: number, j: number) => {
        if (operator === 'In' && value === 0)
          errors.push(invalid([...exitPath, 'values', j], value, 'must not be 0 for the In operator'));
        if (seen.has(value)) errors.push(duplicate([...exitPath, 'values', j], value, String(value)));
        else seen.add(value);
        if (j > 0 && values[j - 1] > value) ordered = false;
      });
      if (!ordered) errors.push(invalid([...exitPath, 'values'], values, 'must be ordered', int32sText(values)));
    }
    if (onPodConditions.length > 0) {
      const conditionsPath = [...rulePath, 'onPodConditions'];
      if (onPodConditions.length > 20) errors.push(tooMany(conditionsPath, onPodConditions.length, 20));
      onPodConditions.forEach((pattern: Json, j: number) => {
        const type = String(pattern?.type ?? '');
        for (const detail of qualifiedNameDetails(type))
          errors.push(invalid([...conditionsPath, j, 'type'], type, detail));
        const status = pattern?.status ?? '';
        if (status === '')
          errors.push(required([...conditionsPath, j, 'status'], `valid values: ${quotedList(CONDITION_STATUSES)}`));
        else if (!CONDITION_STATUSES.includes(status))
          errors.push(notSupported([...conditionsPath, j, 'status'], status, CONDITION_STATUSES));
      });
    }
    if (isSet(onExitCodes) && onPodConditions.length > 0)
      errors.push(invalidOmitted(rulePath, 'specifying both OnExitCodes and OnPodConditions is not supported'));
    if (!isSet(onExitCodes) && onPodConditions.length === 0)
      errors.push(invalidOmitted(rulePath, 'specifying one of OnExitCodes and OnPodConditions is required'));
  });
  return errors;
}

/** Go's %#v of a batch.SuccessPolicy, its pointers as Go prints them (an address, here elided). */
function successPolicyText(policy: Json): string {
  const rules = list(policy?.rules);
  if (!Array.isArray(policy?.rules)) return 'batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule(nil)}';
  const pointer = (type: string, value: unknown) => (isSet(value) ? `(*${type})(0x…)` : `(*${type})(nil)`);
  return `batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule{${rules
    .map(
      (r: Json) =>
        `batch.SuccessPolicyRule{SucceededIndexes:${pointer('string', r?.succeededIndexes)}, SucceededCount:${pointer('int32', r?.succeededCount)}}`,
    )
    .join(', ')}}}`;
}

function successPolicyErrors(spec: Json, at: (string | number)[]): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const rules = list(spec.successPolicy?.rules);
  if (rules.length === 0)
    errors.push(required([...at, 'rules'], 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > 20) errors.push(tooMany([...at, 'rules'], rules.length, 20));
  const completions = typeof spec.completions === 'number' ? spec.completions : 0;
  rules.forEach((rule: Json, i: number) => {
    const rulePath = [...at, 'rules', i];
    if (!isSet(rule?.succeededCount) && !isSet(rule?.succeededIndexes))
      errors.push(required(rulePath, 'at least one of succeededCount or succeededIndexes must be specified'));
    let total = 0;
    if (isSet(rule?.succeededIndexes)) {
      const indexes = String(rule.succeededIndexes);
      if (Buffer.byteLength(indexes) > 64 * 1024) errors.push(tooLong([...rulePath, 'succeededIndexes'], 64 * 1024));
      const parsed = indexesFormat(indexes, completions);
      if (typeof parsed === 'string')
        errors.push(invalid([...rulePath, 'succeededIndexes'], indexes, `error parsing succeededIndexes: ${parsed}`));
      else total = parsed;
    }
    if (isSet(rule?.succeededCount)) {
      const count = rule.succeededCount;
      const countPath = [...rulePath, 'succeededCount'];
      errors.push(...nonNegative(countPath, count));
      if (count > completions)
        errors.push(
          invalid(
            countPath,
            count,
            `must be less than or equal to ${completions} (the number of specified completions)`,
          ),
        );
      if (isSet(rule.succeededIndexes) && count > total)
        errors.push(
          invalid(
            countPath,
            count,
            `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`,
          ),
        );
    }
  });
  return errors;
}

/** validateJobSpec: what a Job's spec and a CronJob's jobTemplate spec share; `at` is where the spec sits. */
function jobSpecErrors(spec: Json, at: (string | number)[]): KubeViolation[] {
  const errors: KubeViolation[] = [];
  for (const name of [
    'parallelism',
    'completions',
    'activeDeadlineSeconds',
    'backoffLimit',
    'ttlSecondsAfterFinished',
    'backoffLimitPerIndex',
  ])
    errors.push(...nonNegative([...at, name], spec[name]));
  if (isSet(spec.maxFailedIndexes)) {
    errors.push(...nonNegative([...at, 'maxFailedIndexes'], spec.maxFailedIndexes));
    if (!isSet(spec.backoffLimitPerIndex))
      errors.push(required([...at, 'backoffLimitPerIndex'], 'when maxFailedIndexes is specified'));
  }
  if (isSet(spec.managedBy)) {
    errors.push(...domainPrefixedPathErrors([...at, 'managedBy'], String(spec.managedBy)));
    if (String(spec.managedBy).length > 63) errors.push(tooLong([...at, 'managedBy'], 63));
  }
  const mode = spec.completionMode;
  const indexed = mode === 'Indexed';
  if (isSet(mode)) {
    if (mode !== 'NonIndexed' && !indexed)
      errors.push(notSupported([...at, 'completionMode'], mode, ['NonIndexed', 'Indexed']));
    if (indexed) {
      const { completions, parallelism, maxFailedIndexes, backoffLimitPerIndex } = spec;
      if (!isSet(completions)) errors.push(required([...at, 'completions'], 'when completion mode is Indexed'));
      if (isSet(parallelism) && parallelism > MAX_INDEXED_PARALLELISM)
        errors.push(
          invalid(
            [...at, 'parallelism'],
            parallelism,
            `must be less than or equal to ${MAX_INDEXED_PARALLELISM} when completion mode is Indexed`,
          ),
        );
      if (isSet(completions) && isSet(maxFailedIndexes) && maxFailedIndexes > completions)
        errors.push(
          invalid([...at, 'maxFailedIndexes'], maxFailedIndexes, 'must be less than or equal to completions'),
        );
      if (isSet(maxFailedIndexes) && maxFailedIndexes > MAX_FAILED_INDEXES)
        errors.push(
          invalid([...at, 'maxFailedIndexes'], maxFailedIndexes, `must be less than or equal to ${MAX_FAILED_INDEXES}`),
        );
      if (isSet(completions) && completions > COMPLETIONS_SOFT_LIMIT && isSet(backoffLimitPerIndex)) {
        const high = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`;
        if (!isSet(maxFailedIndexes))
          errors.push(
            required(
              [...at, 'maxFailedIndexes'],
              `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`,
            ),
          );
        if (isSet(parallelism) && parallelism > PARALLELISM_FOR_HIGH_COMPLETIONS)
          errors.push(
            invalid(
              [...at, 'parallelism'],
              parallelism,
              `must be less than or equal to ${PARALLELISM_FOR_HIGH_COMPLETIONS} ${high}`,
            ),
          );
        if (isSet(maxFailedIndexes) && maxFailedIndexes > MAX_FAILED_INDEXES_FOR_HIGH_COMPLETIONS)
          errors.push(
            invalid(
              [...at, 'maxFailedIndexes'],
              maxFailedIndexes,
              `must be less than or equal to ${MAX_FAILED_INDEXES_FOR_HIGH_COMPLETIONS} ${high}`,
            ),
          );
      }
    }
  }
  if (!isSet(mode) || mode === 'NonIndexed') {
    if (isSet(spec.backoffLimitPerIndex))
      errors.push(
        invalid([...at, 'backoffLimitPerIndex'], spec.backoffLimitPerIndex, 'requires indexed completion mode'),
      );
    if (isSet(spec.maxFailedIndexes))
      errors.push(invalid([...at, 'maxFailedIndexes'], spec.maxFailedIndexes, 'requires indexed completion mode'));
  }
  if (isSet(spec.podFailurePolicy)) errors.push(...podFailurePolicyErrors(spec, [...at, 'podFailurePolicy']));
  if (isSet(spec.successPolicy)) {
    if (!indexed)
      errors.push(
        invalid(
          [...at, 'successPolicy'],
          spec.successPolicy,
          'requires indexed completion mode',
          successPolicyText(spec.successPolicy),
        ),
      );
    else errors.push(...successPolicyErrors(spec, [...at, 'successPolicy']));
  }
  const replacement = spec.podReplacementPolicy;
  if (isSet(replacement)) {
    if (isSet(spec.podFailurePolicy)) {
      if (replacement !== 'Failed') errors.push(notSupported([...at, 'podReplacementPolicy'], replacement, ['Failed']));
    } else if (!['Failed', 'TerminatingOrFailed'].includes(replacement))
      errors.push(notSupported([...at, 'podReplacementPolicy'], replacement, ['Failed', 'TerminatingOrFailed']));
  }
  const restartPolicy = spec.template?.spec?.restartPolicy ?? '';
  const restartPath = [...at, 'template', 'spec', 'restartPolicy'];
  if (restartPolicy === 'Always' || restartPolicy === '')
    errors.push(required(restartPath, 'valid values: "OnFailure", "Never"'));
  else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never')
    errors.push(notSupported(restartPath, restartPolicy, ['OnFailure', 'Never']));
  else if (isSet(spec.podFailurePolicy) && restartPolicy !== 'Never')
    errors.push(invalid(restartPath, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified'));
  return errors;
}

/** ValidateJobTemplateSpec: a CronJob's Jobs get their selector generated, so none may be written. */
function jobTemplateErrors(template: Json, at: (string | number)[]): KubeViolation[] {
  const spec = isObject(template?.spec) ? template.spec : {};
  const errors = jobSpecErrors(spec, [...at, 'spec']);
  if (isSet(spec.selector))
    errors.push(
      invalid(
        [...at, 'spec', 'selector'],
        spec.selector,
        '`selector` will be auto-generated',
        labelSelectorText(spec.selector),
      ),
    );
  if (spec.manualSelector === true)
    errors.push(notSupported([...at, 'spec', 'manualSelector'], true, ['nil', 'false']));
  return errors;
}

// IANA's file name components (https://data.iana.org/time-zones/theory.html#naming), digits and "+" tolerated.
const TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** validateTimeZone: nil is the controller's zone, anything else a tzdata name Go loads, "Local" in no case. */
export function timeZoneErrors(timeZone: unknown, at: (string | number)[]): KubeViolation[] {
  if (!isSet(timeZone)) return [];
  const name = String(timeZone);
  if (name === '') return [invalid(at, name, 'timeZone must be nil or non-empty string')];
  if (name.split('/').some((p) => p === '.' || p === '..' || p.startsWith('-') || !TIME_ZONE_PART.test(p)))
    return [invalid(at, name, `unknown time zone ${name}`)];
  const errors: KubeViolation[] = [];
  if (name.toLowerCase() === 'local')
    errors.push(
      invalid(at, name, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'),
    );
  const loadError = goLocationError(name);
  if (loadError) errors.push(invalid(at, name, loadError));
  return errors;
}

/**
 * ValidateCronJobCreate (no `previous`) or ValidateCronJobUpdate. An update keeps what its old object had: a `TZ=`
 * schedule if the old one had one, a timeZone it does not change, a name over 52 characters.
 */
export function cronJobViolations(cronJob: Json, previous?: Json): KubeViolation[] {
  const spec = isObject(cronJob?.spec) ? cronJob.spec : {};
  const oldSpec = isObject(previous?.spec) ? previous.spec : undefined;
  const errors: KubeViolation[] = [];
  const schedule = typeof spec.schedule === 'string' ? spec.schedule : '';
  if (schedule === '') errors.push(required(['spec', 'schedule']));
  else {
    const parseError = robfigScheduleError(schedule);
    if (parseError) errors.push(invalid(['spec', 'schedule'], schedule, parseError));
    const allowTZ = typeof oldSpec?.schedule === 'string' && oldSpec.schedule.includes('TZ');
    if (allowTZ && schedule.includes('TZ') && isSet(spec.timeZone))
      errors.push(
        invalid(['spec', 'schedule'], schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'),
      );
    else if (!allowTZ && schedule.includes('TZ'))
      errors.push(
        invalid(['spec', 'schedule'], schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'),
      );
  }
  errors.push(...nonNegative(['spec', 'startingDeadlineSeconds'], spec.startingDeadlineSeconds));
  if (!oldSpec || (oldSpec.timeZone ?? null) !== (spec.timeZone ?? null))
    errors.push(...timeZoneErrors(spec.timeZone, ['spec', 'timeZone']));
  const policy = spec.concurrencyPolicy ?? '';
  const policies = ['Allow', 'Forbid', 'Replace'];
  if (policy === '') errors.push(required(['spec', 'concurrencyPolicy']));
  else if (!policies.includes(policy)) errors.push(notSupported(['spec', 'concurrencyPolicy'], policy, policies));
  errors.push(...jobTemplateErrors(spec.jobTemplate, ['spec', 'jobTemplate']));
  errors.push(...nonNegative(['spec', 'successfulJobsHistoryLimit'], spec.successfulJobsHistoryLimit));
  errors.push(...nonNegative(['spec', 'failedJobsHistoryLimit'], spec.failedJobsHistoryLimit));
  const name = String(cronJob?.metadata?.name ?? '');
  // The controller names each Job `<cronjob>-<11 digits>`, and a Job's name is a 63-character label.
  if (!previous && name.length > 52)
    errors.push(invalid(['metadata', 'name'], name, 'must be no more than 52 characters'));
  return errors;
}

const GENERATED_LABELS = [
  ['controller-uid', 'uid'],
  ['job-name', 'name'],
  ['batch.kubernetes.io/controller-uid', 'uid'],
  ['batch.kubernetes.io/job-name', 'name'],
] as const;

/**
 * ValidateJob (no `previous`) or the spec part of ValidateJobUpdate, on the object the Job strategy prepared: unless
 * manualSelector is true its selector was generated on the Job's uid and its pod template labelled to match
 * (pkg/registry/batch/job/strategy.go), so a selector or labels written otherwise show through.
 */
export function jobViolations(job: Json, previous?: Json): KubeViolation[] {
  const spec = isObject(job?.spec) ? job.spec : {};
  // An update's uid is the stored one whatever the body says (rest.BeforeUpdate copies it before validation).
  const metadata = {
    ...(isObject(job?.metadata) ? job.metadata : {}),
    ...(previous ? { uid: previous.metadata?.uid } : {}),
  };
  const errors: KubeViolation[] = [];
  const labels = spec.template?.metadata?.labels;
  if (spec.manualSelector !== true && isSet(spec.selector)) {
    const expected: Record<string, string> = {};
    // An update keeps the prefixed labels optional for a Job created before they were added.
    const prefixed = !previous || isSet(previous?.spec?.template?.metadata?.labels?.['batch.kubernetes.io/job-name']);
    for (const [key, from] of GENERATED_LABELS) {
      if (key.startsWith('batch.') && !prefixed) continue;
      const want = String(metadata[from] ?? '');
      expected[key] = want;
      const path = ['spec', 'template', 'metadata', 'labels', key];
      const field = `spec.template.metadata.labels[${key}]`;
      if (!isObject(labels) || !Object.hasOwn(labels, key))
        errors.push({ ...required(path, `must be '${want}'`), field });
      else if (labels[key] !== want)
        errors.push({ ...invalid(path, labels, `must be '${want}'`, goStringMapText(labels)), field });
    }
    // A selector that does not parse (LabelSelectorAsSelector) is not matched against anything.
    if (
      labelSelectorViolations(['spec', 'selector'], spec.selector).length === 0 &&
      !matchLabelSelector(spec.selector, expected)
    )
      errors.push(
        invalid(['spec', 'selector'], spec.selector, '`selector` not auto-generated', labelSelectorText(spec.selector)),
      );
  }
  errors.push(...jobSpecErrors(spec, ['spec']));
  // ValidateJobSpec: the selector held to ValidateLabelSelector; one that parses must select the pod template (a
  // missing one selects nothing, so it does not).
  const selectorErrors = labelSelectorViolations(['spec', 'selector'], spec.selector);
  if (!isSet(spec.selector)) errors.push(required(['spec', 'selector']));
  else errors.push(...selectorErrors);
  if (
    selectorErrors.length === 0 &&
    !(isSet(spec.selector) && matchLabelSelector(spec.selector, isObject(labels) ? labels : {}))
  )
    errors.push(
      invalid(
        ['spec', 'template', 'metadata', 'labels'],
        labels,
        '`selector` does not match template `labels`',
        goStringMapText(labels),
      ),
    );
  if (spec.completionMode === 'Indexed' && typeof spec.completions === 'number' && spec.completions > 0) {
    // Each pod's hostname is `<job>-<index>`, a DNS label.
    const hostname = `${metadata.name ?? ''}-${spec.completions - 1}`;
    if (hostname.length > 63 || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(hostname))
      errors.push(
        invalid(
          ['metadata', 'name'],
          metadata.name ?? '',
          `will not able to create pod with invalid DNS label: ${hostname}`,
        ),
      );
  }
  return errors;
}

/**
 * field.Error's print of a bad value ValidateImmutableField reports: nil as the string "null", numbers bare,
 * strings quoted; a struct is Go's %#v, whose pointers print as addresses, so only its type is reproduced.
 */
function immutableValue(value: unknown, goType: string): string {
  if (value === undefined || value === null) return '"null"';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  return `${goType}{...}`;
}

const immutableField = (path: (string | number)[], value: unknown, goType = '') =>
  invalid(path, value, 'field is immutable', immutableValue(value, goType));

/**
 * The pod template a Job update keeps: while the stored Job is suspended and never started, its scheduling
 * directives (node selector, tolerations, node affinity, scheduling gates) and template labels and annotations
 * may change (validatePodTemplateUpdate with AllowMutableSchedulingDirectives, as the Job strategy sets it).
 */
function comparedTemplate(template: Json, previous: Json): Json {
  const old = isObject(previous?.spec?.template) ? structuredClone(previous.spec.template) : {};
  if (previous?.spec?.suspend !== true || isSet(previous?.status?.startTime)) return old;
  const next = isObject(template) ? template : {};
  const nextSpec = isObject(next.spec) ? next.spec : {};
  old.metadata = { ...(old.metadata ?? {}), labels: next.metadata?.labels, annotations: next.metadata?.annotations };
  old.spec = { ...(old.spec ?? {}) };
  for (const key of ['nodeSelector', 'tolerations', 'schedulingGates']) old.spec[key] = nextSpec[key];
  const affinity = nextSpec.affinity;
  const oldAffinity = isObject(old.spec.affinity) ? { ...old.spec.affinity } : undefined;
  if (!isObject(affinity) && oldAffinity) {
    delete oldAffinity.nodeAffinity;
    old.spec.affinity = Object.keys(oldAffinity).length > 0 ? oldAffinity : undefined;
  } else if (isObject(affinity)) old.spec.affinity = { ...(oldAffinity ?? {}), nodeAffinity: affinity.nodeAffinity };
  return old;
}

/**
 * What ValidateJobSpecUpdate refuses of an update after validating the spec, in its order: completions (an Indexed
 * Job's may change with parallelism to the same value, ElasticIndexedJob), the selector, the pod template, then
 * completionMode, podFailurePolicy, backoffLimitPerIndex, managedBy and successPolicy. Both sides are defaulted.
 */
export function jobUpdateViolations(job: Json, previous: Json): KubeViolation[] {
  const spec = isObject(job?.spec) ? job.spec : {};
  const before = isObject(previous?.spec) ? previous.spec : {};
  const errors: KubeViolation[] = [];
  if (!semanticEqual(spec.completions, before.completions)) {
    if (spec.completionMode !== 'Indexed') errors.push(immutableField(['spec', 'completions'], spec.completions));
    else if (isSet(spec.completions) && spec.completions !== spec.parallelism)
      errors.push(
        invalid(['spec', 'completions'], spec.completions, 'can only be modified in tandem with spec.parallelism'),
      );
  }
  if (!semanticEqual(spec.selector, before.selector))
    errors.push(
      invalid(
        ['spec', 'selector'],
        spec.selector,
        'field is immutable',
        isSet(spec.selector) ? labelSelectorText(spec.selector) : '"null"',
      ),
    );
  if (!semanticEqual(spec.template, comparedTemplate(spec.template, previous)))
    errors.push(immutableField(['spec', 'template'], spec.template, 'core.PodTemplateSpec'));
  const immutables: [string, string][] = [
    ['completionMode', ''],
    ['podFailurePolicy', 'batch.PodFailurePolicy'],
    ['backoffLimitPerIndex', ''],
    ['managedBy', ''],
    ['successPolicy', 'batch.SuccessPolicy'],
  ];
  for (const [key, goType] of immutables)
    if (!semanticEqual(spec[key], before[key])) errors.push(immutableField(['spec', key], spec[key], goType));
  return errors;
}
