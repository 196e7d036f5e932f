// What karmada-apiserver stores for a PropagationPolicy, ClusterPropagationPolicy or OverridePolicy, and so what
// Karmada's validating webhook checks and its controllers read. Their mutating webhooks
// (pkg/webhook/{propagationpolicy,clusterpropagationpolicy,overridepolicy}/mutating.go) decode the object into
// Karmada's Go types, fill defaults, json.Marshal it and patch the request to that: an `omitempty` field written
// empty ("" , 0, false, [], {}) is dropped, a field without omitempty that was missing is written as its zero value,
// a missing non-pointer struct is written as {}. kube-apiserver then prunes nulls and applies the CRD's defaults
// again before it validates the object. ClusterOverridePolicy has no mutating webhook and is stored as written.
import { MCS_API_VERSION } from '../api/kinds.ts';
import { type GoType, OVERRIDE_SPEC, PROPAGATION_SPEC } from '../api/policyGoTypes.ts';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown): boolean => v === undefined || v === null;

/**
 * The stored form of a policy as written in Git. Anything not of the Go type's shape (a string where a number
 * belongs, an unknown field) is left where it is for validation to report: Karmada refuses those at decoding.
 */
export function storedPolicy(kind: string, value: unknown): unknown {
  if (!isObject(value) || !isObject(value.spec)) return value;
  if (kind === 'PropagationPolicy' || kind === 'ClusterPropagationPolicy') {
    const written = structuredClone(value.spec);
    applyPropagationCrdDefaults(written);
    const spec = decoded(written, PROPAGATION_SPEC);
    mutatePropagationSpec(spec, kind === 'PropagationPolicy' ? policyNamespace(value) : undefined);
    const stored = marshal(spec, PROPAGATION_SPEC).value as Obj;
    applyPropagationCrdDefaults(stored);
    return { ...value, spec: stored };
  }
  if (kind === 'OverridePolicy') {
    const spec = decoded(structuredClone(value.spec), OVERRIDE_SPEC);
    defaultSelectorNamespaces(spec, policyNamespace(value));
    return { ...value, spec: marshal(spec, OVERRIDE_SPEC).value };
  }
  return value;
}

/**
 * The spec as the webhook's decoder hands it to the defaulting code, as far as that code can tell: a null list item
 * is a zero struct there (so a spread constraint written `-` alone gets cluster and minGroups 1). Everything else is
 * left in place: the defaulting code reads an absent field as its zero value.
 */
function decoded(spec: Obj, type: GoType): Obj {
  zeroNullItems(spec, type);
  return spec;
}

function zeroNullItems(value: unknown, type: GoType): void {
  if (type.go === 'pointer') return zeroNullItems(value, type.to);
  if (type.go === 'slice' && Array.isArray(value)) {
    const item = type.of.go === 'pointer' ? undefined : type.of;
    value.forEach((v, i) => {
      if (absent(v) && item?.go === 'struct') value[i] = {};
      else if (item) zeroNullItems(v, item);
    });
  } else if (type.go === 'struct' && isObject(value)) {
    for (const [key, field] of Object.entries(type.fields)) zeroNullItems(value[key], field.type);
  }
}

function policyNamespace(policy: Obj): string {
  const namespace = isObject(policy.metadata) ? policy.metadata.namespace : undefined;
  return typeof namespace === 'string' && namespace !== '' ? namespace : 'default';
}

/** The `default:` values of policy.karmada.io_(cluster)propagationpolicies.yaml, for fields missing or null. */
function applyPropagationCrdDefaults(spec: Obj): void {
  defaultField(spec, 'conflictResolution', 'Abort');
  defaultField(spec, 'preemption', 'Never');
  defaultField(spec, 'priority', 0);
  defaultField(spec, 'schedulerName', 'default-scheduler');
  const placement = spec.placement;
  if (isObject(placement) && isObject(placement.replicaScheduling))
    defaultField(placement.replicaScheduling, 'replicaSchedulingType', 'Divided');
  const failover = spec.failover;
  if (!isObject(failover)) return;
  if (isObject(failover.application)) {
    defaultField(failover.application, 'purgeMode', 'Gracefully');
    if (isObject(failover.application.decisionConditions))
      defaultField(failover.application.decisionConditions, 'tolerationSeconds', 300);
  }
  if (isObject(failover.cluster)) defaultField(failover.cluster, 'purgeMode', 'Gracefully');
}

function defaultField(o: Obj, key: string, value: unknown): void {
  if (absent(o[key])) o[key] = value;
}

/** The PropagationPolicy webhook's own defaults, in its order, on the object the CRD defaults were applied to. */
function mutatePropagationSpec(spec: Obj, namespace: string | undefined): void {
  if (namespace !== undefined) defaultSelectorNamespaces(spec, namespace);
  const placement = isObject(spec.placement) ? spec.placement : undefined;
  // helper.SetDefaultSpreadConstraints
  for (const c of Array.isArray(placement?.spreadConstraints) ? placement.spreadConstraints : []) {
    if (!isObject(c)) continue;
    if (emptyString(c.spreadByLabel) && emptyString(c.spreadByField)) c.spreadByField = 'cluster';
    if (absent(c.minGroups) || c.minGroups === 0) c.minGroups = 1;
  }
  // helper.ContainsServiceImport
  const selectors = Array.isArray(spec.resourceSelectors) ? spec.resourceSelectors : [];
  if (selectors.some((s) => isObject(s) && s.kind === 'ServiceImport' && s.apiVersion === MCS_API_VERSION))
    spec.propagateDeps = true;
  // helper.SetReplicaDivisionPreferenceWeighted: reads the type as decoded, so one written "" is not Divided yet.
  const scheduling = placement?.replicaScheduling;
  if (
    isObject(scheduling) &&
    scheduling.replicaSchedulingType === 'Divided' &&
    emptyString(scheduling.replicaDivisionPreference)
  )
    scheduling.replicaDivisionPreference = 'Weighted';
  // helper.SetDefaultGracePeriodSeconds: likewise a purgeMode written "" gets no grace period, yet is stored Gracefully.
  const application = isObject(spec.failover) ? spec.failover.application : undefined;
  if (isObject(application) && application.purgeMode === 'Gracefully' && absent(application.gracePeriodSeconds))
    application.gracePeriodSeconds = 600;
}

function defaultSelectorNamespaces(spec: Obj, namespace: string): void {
  for (const s of Array.isArray(spec.resourceSelectors) ? spec.resourceSelectors : [])
    if (isObject(s) && emptyString(s.namespace)) s.namespace = namespace;
}

const emptyString = (v: unknown): boolean => absent(v) || v === '';

interface Marshalled {
  value: unknown;
  /** Go's omitempty test: "", 0, false, a nil pointer, an empty slice or map. */
  empty: boolean;
  /** Marshals to null, which the API server prunes: a nil pointer, slice or map, an unset JSON. */
  nil: boolean;
}

/** encoding/json of the Go value `value` decodes into. */
function marshal(value: unknown, type: GoType): Marshalled {
  const kept = (v: unknown): Marshalled => ({ value: v, empty: false, nil: false });
  switch (type.go) {
    case 'string':
      if (absent(value)) return { value: '', empty: true, nil: false };
      return typeof value === 'string' ? { value, empty: value === '', nil: false } : kept(value);
    case 'int':
      if (absent(value)) return { value: 0, empty: true, nil: false };
      return typeof value === 'number' ? { value, empty: value === 0, nil: false } : kept(value);
    case 'bool':
      if (absent(value)) return { value: false, empty: true, nil: false };
      return typeof value === 'boolean' ? { value, empty: !value, nil: false } : kept(value);
    case 'json':
      return absent(value) ? { value: null, empty: false, nil: true } : kept(value);
    case 'pointer':
      if (absent(value)) return { value: null, empty: true, nil: true };
      return { ...marshal(value, type.to), empty: false, nil: false };
    case 'slice':
      if (absent(value)) return { value: null, empty: true, nil: true };
      if (!Array.isArray(value)) return kept(value);
      return { value: value.map((item) => marshal(item, type.of).value), empty: value.length === 0, nil: false };
    case 'map': {
      if (absent(value)) return { value: null, empty: true, nil: true };
      if (!isObject(value)) return kept(value);
      const out: Obj = {};
      for (const [k, v] of Object.entries(value)) out[k] = marshal(v, type.of).value;
      return { value: out, empty: Object.keys(value).length === 0, nil: false };
    }
    case 'struct': {
      if (!absent(value) && !isObject(value)) return kept(value);
      const given: Obj = isObject(value) ? value : {};
      const out: Obj = {};
      // Unknown fields stay, in place, for validation to name.
      for (const key of Object.keys(given)) if (!(key in type.fields)) out[key] = given[key];
      for (const [key, field] of Object.entries(type.fields)) {
        const m = marshal(given[key], field.type);
        if (m.nil || (field.omitempty && m.empty)) continue;
        out[key] = m.value;
      }
      return { value: inOrder(out, given), empty: false, nil: false };
    }
  }
}

/** The keys as the user wrote them first, then those the round trip added. */
function inOrder(out: Obj, given: Obj): Obj {
  const ordered: Obj = {};
  for (const key of Object.keys(given)) if (key in out) ordered[key] = out[key];
  for (const key of Object.keys(out)) if (!(key in ordered)) ordered[key] = out[key];
  return ordered;
}
