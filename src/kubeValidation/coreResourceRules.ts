import { goStringSliceText } from '../text/goSyntax.ts';
import { type Quantity, formatQuantity, nanoValue, parseQuantity, roundUp } from '../quantities/canonicalQuantity.ts';
import {
  type At,
  type Json,
  type KubeViolation,
  dns1123SubdomainProblems,
  duplicate,
  entries,
  fieldOf,
  forbidden,
  invalid,
  isObject,
  isSet,
  keyed,
  labelSelectorViolations,
  list,
  notSupported,
  qualifiedNameViolations,
  required,
} from './fieldViolations.ts';
import {
  isExtendedResourceName,
  isHugePageResourceName,
  isIntegerResourceName,
  isNativeResourceName,
  isStandardContainerResourceName,
  isStandardQuotaResourceName,
  isStandardResourceName,
} from './resourceNames.ts';

// What kube-apiserver 1.32 refuses in the core/v1 kinds that hold a namespace's storage and resources, being created
// (pkg/apis/core/validation: ValidateNamespace, ValidatePersistentVolumeClaimSpec, ValidateLimitRange,
// ValidateResourceQuotaSpec; names from pkg/apis/core/helper), in its field paths and words. Each reads the object
// as the API server holds it when it validates, and reads a field it defaults as its default when unset, so a
// template is read in place: a claim's volumeMode (Filesystem), its dataSource and dataSourceRef mirrored
// (NormalizeDataSources), a Container limit's default and defaultRequest filled from max, default and min
// (SetDefaults_LimitRangeItem), each ResourceList quantity rounded up to milli (SetDefaults_ResourceList).
// ServiceAccounts have nothing beyond their metadata to refuse (ValidateServiceAccount).

type Path = (string | number)[];

/** A ResourceList entry as the API server holds it (rounded up to milli), or undefined when it does not parse. */
export function listQuantity(value: unknown): Quantity | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
  const q = text === undefined ? undefined : parseQuantity(text);
  return q && roundUp(q, -3);
}

const compare = (a: Quantity, b: Quantity) => {
  const d = nanoValue(a) - nanoValue(b);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
};

// --- resource names (pkg/apis/core/helper) ---

/** Resources that may be requested below their limit (IsOvercommitAllowed). */
const overcommits = (name: string) => isNativeResourceName(name) && !isHugePageResourceName(name);

/** validateResourceName: a qualified name, and a standard resource unless it has a prefix. */
function resourceNameViolations(at: At, name: string): KubeViolation[] {
  const errors = qualifiedNameViolations(at, name);
  if (errors.length > 0) return errors;
  if (!name.includes('/') && !isStandardResourceName(name))
    return [invalid(at, name, 'must be a standard resource type or fully qualified')];
  return [];
}

/** validateContainerResourceName: a resource a container can request. */
export function containerResourceNameViolations(at: At, name: string): KubeViolation[] {
  const errors = resourceNameViolations(at, name);
  if (!name.includes('/')) {
    if (!isStandardContainerResourceName(name))
      errors.push(invalid(at, name, 'must be a standard resource for containers'));
  } else if (!isNativeResourceName(name) && !isExtendedResourceName(name))
    errors.push(invalid(at, name, "doesn't follow extended resource name standard"));
  return errors;
}

/** ValidateResourceQuantityValue: not negative, and whole for a counted resource. */
function quantityValueViolations(at: At, name: string, q: Quantity): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const text = formatQuantity(q);
  if (q.mantissa < 0n) errors.push(invalid(at, text, 'must be greater than or equal to 0'));
  if (isIntegerResourceName(name) && nanoValue(roundUp(q, -3)) % 1_000_000_000n !== 0n)
    errors.push(invalid(at, text, 'must be an integer', text));
  return errors;
}

// --- Namespace ---

const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** ValidateNamespace: its spec.finalizers (the name is metadata's). */
export function namespaceViolations(namespace: Json): KubeViolation[] {
  const errors: KubeViolation[] = [];
  list(namespace?.spec?.finalizers).forEach((finalizer, i) => {
    if (typeof finalizer !== 'string') return;
    // Reported at the list, not the item, as ValidateNamespace does.
    const at = { path: ['spec', 'finalizers', i], field: 'spec.finalizers' };
    errors.push(...qualifiedNameViolations(at, finalizer));
    if (!finalizer.includes('/') && !STANDARD_FINALIZERS.has(finalizer))
      errors.push(invalid(at, finalizer, 'name is neither a standard finalizer name nor is it fully qualified'));
  });
  return errors;
}

// --- PersistentVolumeClaim ---

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];

/** A PersistentVolumeClaim's spec. */
export function persistentVolumeClaimViolations(claim: Json): KubeViolation[] {
  return claimSpecViolations(isObject(claim?.spec) ? claim.spec : {}, ['spec']);
}

/** ValidatePersistentVolumeClaimSpec, on the spec at `at` (a claim's, or a generic ephemeral volume's template's). */
export function claimSpecViolations(spec: Json, at: Path): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const modes = list(spec.accessModes);
  if (modes.length === 0) errors.push(required([...at, 'accessModes'], 'at least 1 access mode is required'));
  if (isSet(spec.selector)) errors.push(...labelSelectorViolations([...at, 'selector'], spec.selector));
  let once = false;
  let other = false;
  modes.forEach((mode, i) => {
    if (!ACCESS_MODES.includes(mode))
      errors.push(
        notSupported({ path: [...at, 'accessModes', i], field: `${fieldOf(at)}.accessModes` }, mode, ACCESS_MODES),
      );
    else if (mode === 'ReadWriteOncePod') once = true;
    else other = true;
  });
  if (once && other)
    errors.push(forbidden([...at, 'accessModes'], 'may not use ReadWriteOncePod with other access modes'));
  const requests = spec.resources?.requests;
  const storageAt = { path: [...at, 'resources', 'requests', 'storage'], field: `${fieldOf(at)}.resources[storage]` };
  if (!isObject(requests) || !('storage' in requests)) errors.push(required(storageAt));
  else {
    // A null quantity decodes as zero.
    const storage = listQuantity(requests.storage ?? 0);
    if (storage && storage.mantissa <= 0n)
      errors.push(invalid(storageAt, formatQuantity(storage), 'must be greater than zero'));
  }
  if (typeof spec.storageClassName === 'string' && spec.storageClassName !== '')
    for (const p of dns1123SubdomainProblems(spec.storageClassName))
      errors.push(invalid([...at, 'storageClassName'], spec.storageClassName, p));
  if (isSet(spec.volumeMode) && !VOLUME_MODES.includes(spec.volumeMode))
    errors.push(notSupported([...at, 'volumeMode'], spec.volumeMode, VOLUME_MODES));
  errors.push(...dataSourceViolations(spec, at));
  return errors;
}

/**
 * The claim's dataSource and dataSourceRef as the strategy leaves them: a dataSourceRef to another namespace dropped
 * (CrossNamespaceVolumeDataSource is off in 1.32), then each given alone mirrored into the other
 * (NormalizeDataSources); then validateDataSource, validateDataSourceRef and their agreement.
 */
function dataSourceViolations(spec: Json, at: Path): KubeViolation[] {
  const given = isObject(spec.dataSource) ? spec.dataSource : undefined;
  const crossNamespace = typeof spec.dataSourceRef?.namespace === 'string' && spec.dataSourceRef.namespace !== '';
  const givenRef = isObject(spec.dataSourceRef) && !crossNamespace ? spec.dataSourceRef : undefined;
  const source = given ?? givenRef;
  const ref = givenRef ?? given;
  // A mirrored field is located at the one written in the file.
  const sourceAt = given ? [...at, 'dataSource'] : [...at, 'dataSourceRef'];
  const refAt = givenRef ? [...at, 'dataSourceRef'] : [...at, 'dataSource'];
  const errors: KubeViolation[] = [];
  if (source) errors.push(...dataSourceReferenceViolations(source, sourceAt, `${fieldOf(at)}.dataSource`));
  if (ref) errors.push(...dataSourceReferenceViolations(ref, refAt, `${fieldOf(at)}.dataSourceRef`));
  if (given && givenRef && !sameReference(given, givenRef)) {
    // field.Invalid given the *field.Path: printed as the path.
    const dataSourceField = `${fieldOf(at)}.dataSource`;
    errors.push(
      invalid(
        { path: [...at, 'dataSource'], field: fieldOf(at) },
        dataSourceField,
        'must match dataSourceRef',
        dataSourceField,
      ),
    );
  }
  return errors;
}

const sameReference = (a: Json, b: Json) =>
  (a.apiGroup ?? null) === (b.apiGroup ?? null) &&
  (a.kind ?? '') === (b.kind ?? '') &&
  (a.name ?? '') === (b.name ?? '');

/** validateDataSource / validateDataSourceRef's shared checks: name, kind, and an API group for anything not a claim. */
function dataSourceReferenceViolations(ref: Json, path: Path, field: string): KubeViolation[] {
  const errors: KubeViolation[] = [];
  if (!ref.name) errors.push(required({ path: [...path, 'name'], field: `${field}.name` }));
  if (!ref.kind) errors.push(required({ path: [...path, 'kind'], field: `${field}.kind` }));
  const apiGroup = typeof ref.apiGroup === 'string' ? ref.apiGroup : '';
  if (apiGroup === '' && ref.kind !== 'PersistentVolumeClaim')
    errors.push(
      invalid({ path, field }, ref.kind ?? '', "must be 'PersistentVolumeClaim' when referencing the default apiGroup"),
    );
  if (apiGroup !== '')
    for (const p of dns1123SubdomainProblems(apiGroup))
      errors.push(invalid({ path: [...path, 'apiGroup'], field: `${field}.apiGroup` }, apiGroup, p));
  return errors;
}

// --- LimitRange ---

const LIMIT_TYPES = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);
const LIMIT_FIELDS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;
const MAX_MILLI_VALUE = 9223372036854775n;

/** ValidateLimitRange: each limit's type, resource names, and the order of its min, defaults and max. */
export function limitRangeViolations(limitRange: Json): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const seen = new Set<string>();
  list(limitRange?.spec?.limits).forEach((limit, i) => {
    if (!isObject(limit)) return;
    const at = ['spec', 'limits', i];
    const type = typeof limit.type === 'string' ? limit.type : '';
    errors.push(...qualifiedNameViolations([...at, 'type'], type));
    if (qualifiedNameViolations([], type).length === 0 && !type.includes('/') && !LIMIT_TYPES.has(type))
      errors.push(invalid([...at, 'type'], type, 'must be a standard limit type or fully qualified'));
    if (seen.has(type)) errors.push(duplicate([...at, 'type'], type));
    seen.add(type);
    errors.push(...limitViolations(limit, type, at));
  });
  return errors;
}

function limitViolations(limit: Json, type: string, at: Path): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const nameCheck = type === 'Pod' || type === 'Container' ? containerResourceNameViolations : resourceNameViolations;
  const lists = defaultedLimit(limit, type);
  // Where each entry is written: a default filled from another list is located at the entry it came from.
  const written = (field: string, name: string): Path =>
    isObject(limit[field]) && name in limit[field]
      ? [...at, field, name]
      : field === 'default'
        ? [...at, 'max', name]
        : isObject(limit.default) && name in limit.default
          ? [...at, 'default', name]
          : isObject(limit.max) && name in limit.max
            ? [...at, 'max', name]
            : [...at, 'min', name];
  const atEntry = (field: string, name: string) => ({
    path: written(field, name),
    field: `${fieldOf([...at, field])}[${name}]`,
  });
  const quantities: Record<string, Map<string, Quantity>> = {};
  const keys = new Set<string>();
  for (const field of LIMIT_FIELDS) {
    if (
      field === 'maxLimitRequestRatio' &&
      type === 'PersistentVolumeClaim' &&
      !('storage' in lists.min) &&
      !('storage' in lists.max)
    )
      errors.push(
        required([...at, 'limits'], 'either minimum or maximum storage value is required, but neither was provided'),
      );
    const values = new Map<string, Quantity>();
    quantities[field] = values;
    if (type === 'Pod' && (field === 'default' || field === 'defaultRequest')) {
      if (Object.keys(lists[field]).length > 0)
        errors.push(forbidden([...at, field], "may not be specified when `type` is 'Pod'"));
      continue;
    }
    for (const [name, value] of Object.entries(lists[field])) {
      errors.push(...nameCheck(atEntry(field, name), name));
      keys.add(name);
      const q = listQuantity(value);
      if (q) values.set(name, q);
    }
  }
  for (const name of keys) {
    const min = quantities.min!.get(name);
    const max = quantities.max!.get(name);
    const byDefault = quantities.default!.get(name);
    const request = quantities.defaultRequest!.get(name);
    const ratio = quantities.maxLimitRequestRatio!.get(name);
    const s = (q: Quantity) => formatQuantity(q);
    const bad = (field: string, q: Quantity, detail: string) =>
      errors.push(invalid(atEntry(field, name), s(q), detail, s(q)));
    if (min && max && compare(min, max) > 0) bad('min', min, `min value ${s(min)} is greater than max value ${s(max)}`);
    if (request && min && compare(min, request) > 0)
      bad('defaultRequest', request, `min value ${s(min)} is greater than default request value ${s(request)}`);
    if (request && max && compare(request, max) > 0)
      bad('defaultRequest', request, `default request value ${s(request)} is greater than max value ${s(max)}`);
    if (request && byDefault && compare(request, byDefault) > 0)
      bad(
        'defaultRequest',
        request,
        `default request value ${s(request)} is greater than default limit value ${s(byDefault)}`,
      );
    if (byDefault && min && compare(min, byDefault) > 0)
      bad('default', min, `min value ${s(min)} is greater than default value ${s(byDefault)}`);
    if (byDefault && max && compare(byDefault, max) > 0)
      bad('default', max, `default value ${s(byDefault)} is greater than max value ${s(max)}`);
    if (ratio && compare(ratio, { mantissa: 1n, scale: 0, format: 'DecimalSI' }) < 0)
      bad('maxLimitRequestRatio', ratio, `ratio ${s(ratio)} is less than 1`);
    if (ratio && min && max) {
      const limitRatio = ratioLimit(ratio, min, max);
      if (limitRatio.exceeded)
        bad('maxLimitRequestRatio', ratio, `ratio ${s(ratio)} is greater than max/min = ${limitRatio.text}`);
    }
    if (!overcommits(name) && byDefault && request && compare(byDefault, request) !== 0)
      bad(
        'defaultRequest',
        request,
        `default value ${s(byDefault)} must equal to defaultRequest value ${s(request)} in ${name}`,
      );
  }
  return errors;
}

/** The limit's five lists, a Container limit's defaults filled as SetDefaults_LimitRangeItem fills them. */
function defaultedLimit(limit: Json, type: string): Record<(typeof LIMIT_FIELDS)[number], Record<string, Json>> {
  const own = (field: string): Record<string, Json> => (isObject(limit[field]) ? { ...limit[field] } : {});
  const lists = {
    max: own('max'),
    min: own('min'),
    default: own('default'),
    defaultRequest: own('defaultRequest'),
    maxLimitRequestRatio: own('maxLimitRequestRatio'),
  };
  if (type !== 'Container') return lists;
  for (const [name, value] of entries(lists.max)) if (!(name in lists.default)) lists.default[name] = value;
  for (const [name, value] of entries(lists.default))
    if (!(name in lists.defaultRequest)) lists.defaultRequest[name] = value;
  for (const [name, value] of entries(lists.min))
    if (!(name in lists.defaultRequest)) lists.defaultRequest[name] = value;
  return lists;
}

/** The ratio check's float64 arithmetic: in milli units unless a value is too large for them. */
function ratioLimit(ratio: Quantity, min: Quantity, max: Quantity): { exceeded: boolean; text: string } {
  const value = (q: Quantity) => ceilDiv(nanoValue(q), 1_000_000_000n);
  const milli = (q: Quantity) => ceilDiv(nanoValue(q), 1_000_000n);
  let ratioValue = Number(value(ratio));
  let minValue = value(min);
  let maxValue = value(max);
  if (value(ratio) < MAX_MILLI_VALUE && minValue < MAX_MILLI_VALUE && maxValue < MAX_MILLI_VALUE) {
    ratioValue = Number(milli(ratio)) / 1000;
    minValue = milli(min);
    maxValue = milli(max);
  }
  const limit = Number(maxValue) / Number(minValue);
  return { exceeded: ratioValue > limit, text: goFloat(limit) };
}

function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a > 0n ? q + 1n : q;
}

/** Go's %f. */
function goFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  return value.toFixed(6);
}

// --- ResourceQuota ---

const QUOTA_SCOPES = new Set([
  'Terminating',
  'NotTerminating',
  'BestEffort',
  'NotBestEffort',
  'PriorityClass',
  'CrossNamespacePodAffinity',
]);
const POD_COMPUTE = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);
const EXISTS_ONLY_SCOPES = new Set([
  'BestEffort',
  'NotBestEffort',
  'Terminating',
  'NotTerminating',
  'CrossNamespacePodAffinity',
]);
const CONFLICTING_SCOPES = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];

/** IsResourceQuotaScopeValidForResource. */
function scopeCovers(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return resource === 'pods' || POD_COMPUTE.has(resource);
    case 'BestEffort':
      return resource === 'pods';
    default:
      return true;
  }
}

/** ValidateResourceQuotaSpec: hard's names and quantities, scopes and the scope selector. */
export function resourceQuotaViolations(quota: Json): KubeViolation[] {
  const spec = isObject(quota?.spec) ? quota.spec : {};
  const errors: KubeViolation[] = [];
  const hard = entries(spec.hard);
  for (const [name, value] of hard) {
    const at = keyed(['spec', 'hard'], name);
    errors.push(...resourceNameViolations(at, name));
    if (!name.includes('/') && !isStandardQuotaResourceName(name))
      errors.push(invalid(at, name, 'must be a standard resource for quota'));
    const q = listQuantity(value);
    if (q) errors.push(...quantityValueViolations(at, name, q));
  }
  // Go ranges over a sorted set of the names here.
  const standardHard = hard
    .map(([name]) => name)
    .sort()
    .filter(isStandardQuotaResourceName);
  const scopes = list(spec.scopes).filter((s): s is string => typeof s === 'string');
  const scopesShown = goStringSliceText(spec.scopes, 'core.ResourceQuotaScope');
  if (scopes.length > 0) {
    for (const scope of scopes) {
      if (!QUOTA_SCOPES.has(scope)) errors.push(invalid(['spec', 'scopes'], scopes, 'unsupported scope', scopesShown));
      for (const name of standardHard)
        if (!scopeCovers(scope, name))
          errors.push(invalid(['spec', 'scopes'], scopes, 'unsupported scope applied to resource', scopesShown));
    }
    for (const pair of CONFLICTING_SCOPES)
      if (pair.every((s) => scopes.includes(s)))
        errors.push(invalid(['spec', 'scopes'], scopes, 'conflicting scopes', scopesShown));
  }
  if (isObject(spec.scopeSelector))
    errors.push(...scopeSelectorViolations(spec.scopeSelector, standardHard, scopesShown));
  return errors;
}

function scopeSelectorViolations(selector: Json, standardHard: string[], scopesShown: string): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const field = 'spec.scopeSelector.matchExpressions';
  const scopeSet = new Set<string>();
  list(selector.matchExpressions).forEach((req, i) => {
    const at = ['spec', 'scopeSelector', 'matchExpressions', i];
    const scope = typeof req?.scopeName === 'string' ? req.scopeName : '';
    const operator = typeof req?.operator === 'string' ? req.operator : '';
    const values = list(req?.values);
    if (!QUOTA_SCOPES.has(scope))
      errors.push(invalid({ path: [...at, 'scopeName'], field: `${field}.scopeName` }, scope, 'unsupported scope'));
    for (const name of standardHard)
      if (!scopeCovers(scope, name))
        errors.push(
          invalid(
            { path: at, field },
            selector,
            'unsupported scope applied to resource',
            `core.ScopeSelector{MatchExpressions:[]core.ScopedResourceSelectorRequirement{${list(selector.matchExpressions).map(goRequirement).join(', ')}}}`,
          ),
        );
    if (EXISTS_ONLY_SCOPES.has(scope) && operator !== 'Exists')
      errors.push(
        invalid(
          { path: [...at, 'operator'], field: `${field}.operator` },
          operator,
          "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    switch (operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0)
          errors.push(
            required(
              { path: [...at, 'values'], field: `${field}.values` },
              "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
            ),
          );
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0)
          errors.push(
            invalid(
              { path: [...at, 'values'], field: `${field}.values` },
              values,
              "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
              goStringSliceText(req.values, 'string'),
            ),
          );
        break;
      default:
        errors.push(
          invalid({ path: [...at, 'operator'], field: `${field}.operator` }, operator, 'not a valid selector operator'),
        );
    }
    scopeSet.add(scope);
  });
  for (const pair of CONFLICTING_SCOPES)
    if (pair.every((s) => scopeSet.has(s)))
      errors.push(
        invalid(
          { path: ['spec', 'scopeSelector', 'matchExpressions'], field },
          null,
          'conflicting scopes',
          scopesShown,
        ),
      );
  return errors;
}

/** A string slice as Go's %#v prints it: `[]core.ResourceQuotaScope{"BestEffort"}`; `(nil)` when absent. */

function goRequirement(req: Json): string {
  return `core.ScopedResourceSelectorRequirement{ScopeName:${JSON.stringify(req?.scopeName ?? '')}, Operator:${JSON.stringify(req?.operator ?? '')}, Values:${goStringSliceText(req?.values, 'string')}}`;
}
