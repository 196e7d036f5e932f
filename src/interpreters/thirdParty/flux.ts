// The interpreters Karmada bundles for Flux's kinds (resourcecustomizations/{helm,kustomize,source}.toolkit.fluxcd.io):
// HelmRelease, Kustomization and the sources (GitRepository, Bucket, HelmChart, HelmRepository, OCIRepository). Each
// is healthy when its Ready condition is True with the reason of a finished reconciliation; keeps the member's
// `spec.suspend`; reports its conditions, artifact and revisions with the generations Karmada compares; aggregates
// conditions across members (messages prefixed with the cluster, equal type/status/reason merged); and depends on
// the Secrets, ConfigMaps and ServiceAccount its spec names.
//
// Karmada runs these as Lua on gopher-lua, so the values behave as they do there: a null field is nil, an empty table
// in a result is dropped (or kept as it was in the object it came from), `tonumber` and arithmetic parse strings as
// gopher-lua does, and what would raise a Lua error (indexing nil, a nil table key, concatenating nil) fails the
// operation with a LuaHookError, which the callers treat as a failed interpreter.
import { type Json, LuaConvertError, repairEmptyTables, type ResultShape, toUnstructured } from '../lua/luaConvert.ts';
import { LuaHookError } from '../lua/luaRuntime.ts';
import type { AggregatedStatusItem, DependentObjectReference, Obj, ThirdPartyTable } from './thirdPartyInterpreter.ts';
import { luaType } from './luaTypeName.ts';

type Hook = 'InterpretHealth' | 'ReflectStatus' | 'AggregateStatus' | 'Retain' | 'GetDependencies';

// ---------------------------------------------------------------------------------------------------------------
// Lua values

function isTable(value: unknown): value is Obj | unknown[] {
  return typeof value === 'object' && value !== null;
}

function isRecord(value: unknown): value is Obj {
  return isTable(value) && !Array.isArray(value);
}

/** The object as the script sees it (JSON decoded by gopher-json): a null field is absent, a null element closes up. */
function luaView(value: unknown): unknown {
  if (value === null) return undefined;
  if (Array.isArray(value)) return value.filter((v) => v !== null && v !== undefined).map(luaView);
  if (!isRecord(value)) return value;
  const out: Obj = {};
  for (const [key, v] of Object.entries(value)) if (v !== null && v !== undefined) out[key] = luaView(v);
  return out;
}

/** `t.key`: a table's field, nil on a string (its metatable has no such function), an error on anything else. */
function at(hook: Hook, value: unknown, key: string): unknown {
  if (isRecord(value)) return Object.hasOwn(value, key) ? value[key] : undefined;
  if (Array.isArray(value) || typeof value === 'string') return undefined;
  throw new LuaHookError(`attempt to index a ${luaType(value)} value (field '${key}')`, hook);
}

/** The elements `for i = 1, #t` visits: a JSON object's table has no sequence; a string's characters index to nil. */
function sequence(hook: Hook, value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isRecord(value)) return [];
  if (typeof value === 'string') return Array.from({ length: new TextEncoder().encode(value).length }, () => undefined);
  throw new LuaHookError(`attempt to get length of a ${luaType(value)} value`, hook);
}

/** The table `t` is for `t.key = v`: a JSON array's table takes the key only while it is empty (it would not encode). */
function writable(hook: Hook, value: unknown): Obj {
  if (isRecord(value)) return value;
  if (Array.isArray(value)) {
    if (value.length === 0) return {};
    throw new LuaHookError('encode lua result to json failed: cannot encode mixed or invalid key types', hook);
  }
  throw new LuaHookError(`attempt to index a ${luaType(value)} value`, hook);
}

/** gopher-lua's LNumber.String: an integral value as an int64, any other in Go's %v (shortest, exponent from 1e+06). */
function numberText(n: number): string {
  if (Number.isInteger(n)) return Math.abs(n) < 2 ** 63 ? BigInt(n).toString() : '-9223372036854775808';
  if (Number.isNaN(n)) return 'NaN';
  const [digits = '', exp = '0'] = n.toExponential().split('e');
  const e = Number(exp);
  if (e >= -4 && e < 6) return String(n);
  return `${digits}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** `a .. b`: strings, and numbers as gopher-lua prints them; nil or a table is an error. */
function concat(hook: Hook, ...parts: unknown[]): string {
  return parts
    .map((p) => {
      if (typeof p === 'string') return p;
      if (typeof p === 'number') return numberText(p);
      throw new LuaHookError(`attempt to concatenate a ${luaType(p)} value`, hook);
    })
    .join('');
}

/** `a + b`: numbers, or strings gopher-lua's parseNumber reads (strconv.ParseInt base 0, then ParseFloat). */
function add(hook: Hook, a: unknown, b: unknown): number {
  const operand = (v: unknown): number | undefined => {
    if (typeof v === 'number') return v;
    if (typeof v !== 'string') return undefined;
    const text = v.replace(/^[ \t\n]+|[ \t\n]+$/g, '');
    return goParseInt(text, 0) ?? goParseFloat(text);
  };
  const x = operand(a);
  const y = operand(b);
  if (x === undefined || y === undefined)
    throw new LuaHookError(`cannot perform add operation between ${luaType(a)} and ${luaType(b)}`, hook);
  return x + y;
}

// ---------------------------------------------------------------------------------------------------------------
// Go's strconv, as gopher-lua's tonumber and arithmetic use it

/** Underscores only between digits, or between a base prefix and a digit (strconv's underscoreOK). */
function underscoresOk(text: string): boolean {
  let s = text.replace(/^[+-]/, '');
  let saw = '^';
  const hex = /^0x/i.test(s);
  if (/^0[box]/i.test(s)) {
    s = s.slice(2);
    saw = '0';
  }
  for (const c of s) {
    if (/[0-9]/.test(c) || (hex && /[a-f]/i.test(c))) saw = '0';
    else if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
    } else if (saw === '_') return false;
    else saw = '!';
  }
  return saw !== '_';
}

/** strconv.ParseInt(text, base, 64), converted to a float64 as LNumber holds it; undefined for an error. */
function goParseInt(text: string, base: 0 | 10 | 16): number | undefined {
  let s = text;
  const negative = s.startsWith('-');
  if (s.startsWith('+') || negative) s = s.slice(1);
  if (s === '') return undefined;
  let radix: number = base;
  if (base === 0) {
    radix = 10;
    if (s[0] === '0') {
      const prefix = s.length >= 3 ? s[1]?.toLowerCase() : undefined;
      radix = prefix === 'b' ? 2 : prefix === 'o' ? 8 : prefix === 'x' ? 16 : 8;
      s = s.slice(prefix === 'b' || prefix === 'o' || prefix === 'x' ? 2 : 1);
    }
  }
  let n = 0n;
  let underscores = false;
  for (const c of s) {
    if (c === '_' && base === 0) {
      underscores = true;
      continue;
    }
    const d = Number.parseInt(c, 36);
    if (Number.isNaN(d) || d >= radix) return undefined;
    n = n * BigInt(radix) + BigInt(d);
  }
  if (underscores && !underscoresOk(text)) return undefined;
  const value = negative ? -n : n;
  if (value > 2n ** 63n - 1n || value < -(2n ** 63n)) return undefined;
  return Number(value);
}

const DECIMAL_DIGITS = String.raw`\d(?:_?\d)*`;
const HEX_DIGITS = '[0-9a-f](?:_?[0-9a-f])*';
const DECIMAL_FLOAT = new RegExp(
  `^[+-]?(?:${DECIMAL_DIGITS}(?:\\.(?:${DECIMAL_DIGITS})?)?|\\.${DECIMAL_DIGITS})(?:e[+-]?${DECIMAL_DIGITS})?$`,
  'i',
);
const HEX_FLOAT = new RegExp(
  `^([+-]?)0x_?(?:(${HEX_DIGITS})(?:\\.(${HEX_DIGITS})?)?|\\.(${HEX_DIGITS}))p([+-]?${DECIMAL_DIGITS})$`,
  'i',
);

/** strconv.ParseFloat(text, 64); undefined for an error, out of range included. */
function goParseFloat(text: string): number | undefined {
  const special = /^([+-]?)(inf|infinity)$/i.exec(text);
  if (special) return special[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (/^nan$/i.test(text)) return Number.NaN;
  let value: number | undefined;
  if (DECIMAL_FLOAT.test(text)) value = Number(text.replaceAll('_', ''));
  else {
    const hex = HEX_FLOAT.exec(text);
    if (!hex) return undefined;
    const [, sign, whole = '', fraction = '', onlyFraction = '', exponent = '0'] = hex;
    const digits = `${whole}${fraction}${onlyFraction}`.replaceAll('_', '');
    let power = Number(exponent.replaceAll('_', '')) - 4 * (fraction + onlyFraction).replaceAll('_', '').length;
    let magnitude = Number(BigInt(`0x${digits}`));
    while (power > 0 && Number.isFinite(magnitude) && magnitude !== 0) {
      const step = Math.min(power, 1000);
      magnitude *= 2 ** step;
      power -= step;
    }
    while (power < 0 && magnitude !== 0) {
      const step = Math.min(-power, 1000);
      magnitude /= 2 ** step;
      power += step;
    }
    value = sign === '-' ? -magnitude : magnitude;
  }
  if (!underscoresOk(text)) return undefined;
  return Number.isFinite(value) ? value : undefined;
}

/** gopher-lua's tonumber(v): a number as it is; a string (trimmed) as a float when it has a dot, else an integer. */
function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/^[ \n\t]+|[ \n\t]+$/g, '');
  if (text.includes('.')) return goParseFloat(text);
  return /^0x/i.test(text) ? goParseInt(text.slice(2), 16) : goParseInt(text, 10);
}

// ---------------------------------------------------------------------------------------------------------------
// Results, as ConvertLuaResultInto reads them

/**
 * gopher-json's encoding of what the script returns, then Karmada's empty-table repair: an empty table stays only
 * where a reference holds one at the same path ({} or []), else it is dropped; a number that is not finite fails.
 */
function luaResult(hook: Hook, value: Obj, shape: ResultShape, references: readonly unknown[] = []): Json {
  const encode = (v: unknown): Json | undefined => {
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'number') {
      if (!Number.isFinite(v))
        throw new LuaHookError(
          `encode lua result to json failed: json: unsupported value: ${Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf'}`,
          hook,
        );
      return v === 0 ? 0 : v;
    }
    if (typeof v === 'string' || typeof v === 'boolean') return v;
    if (Array.isArray(v)) return v.map(encode).filter((x): x is Json => x !== undefined);
    const entries = Object.entries(v as Obj)
      .map(([k, x]) => [k, encode(x)] as const)
      .filter((e): e is readonly [string, Json] => e[1] !== undefined);
    return entries.length === 0 ? [] : Object.fromEntries(entries);
  };
  return repairEmptyTables(encode(value) ?? [], shape, references);
}

/** An object result: Unstructured needs a kind. */
function objectResult(hook: Hook, value: Obj, references: readonly unknown[] = []): Obj {
  try {
    return toUnstructured(luaResult(hook, value, 'struct', references));
  } catch (err) {
    if (err instanceof LuaConvertError) throw new LuaHookError(err.message, hook);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Operations

/** Healthy when a condition of type Ready is "True" with one of the reasons a finished reconciliation gives. */
function readyWith(reasons: readonly string[]): (observed: Obj) => boolean {
  return (observed) => {
    const hook = 'InterpretHealth';
    const status = at(hook, luaView(observed), 'status');
    const conditions = status === undefined ? undefined : at(hook, status, 'conditions');
    if (conditions === undefined) return false;
    return sequence(hook, conditions).some((c) => {
      const reason = at(hook, c, 'reason');
      return (
        at(hook, c, 'type') === 'Ready' &&
        at(hook, c, 'status') === 'True' &&
        typeof reason === 'string' &&
        reasons.includes(reason)
      );
    });
  };
}

/** The member's `spec.suspend`, when it has one, replaces the template's. */
function retainSuspend(desired: Obj, observed: Obj): Obj {
  const hook = 'Retain';
  const result = luaView(desired) as Obj;
  const suspend = at(hook, at(hook, luaView(observed), 'spec'), 'suspend');
  if (suspend !== undefined) result.spec = { ...writable(hook, at(hook, result, 'spec')), suspend };
  return objectResult(hook, result, [desired, observed]);
}

const TEMPLATE_GENERATION = 'resourcetemplate.karmada.io/generation';

/**
 * The named status fields as the member has them, with its `metadata.generation` and the generation of the template
 * it was applied from (the annotation, when tonumber reads it). No status reflects as {}.
 */
function reflect(fields: readonly string[]): (observed: Obj) => Obj {
  return (observed) => {
    const hook = 'ReflectStatus';
    const view = luaView(observed);
    const source = at(hook, view, 'status');
    if (source === undefined) return {};
    const status: Obj = {};
    for (const field of fields) status[field] = at(hook, source, field);
    const metadata = at(hook, view, 'metadata');
    if (metadata !== undefined) {
      status.generation = at(hook, metadata, 'generation');
      const annotations = at(hook, metadata, 'annotations');
      if (annotations !== undefined)
        status.resourceTemplateGeneration = toNumber(at(hook, annotations, TEMPLATE_GENERATION));
    }
    return luaResult(hook, status, 'struct') as Obj;
  };
}

/** One member's status, as the script sees it (nil when the item has none). */
interface Member {
  clusterName: unknown;
  status: unknown;
}

/** A status field of a member, nil when the member has no status. */
function memberField(hook: Hook, m: Member, field: string): unknown {
  return m.status === undefined ? undefined : at(hook, m.status, field);
}

/**
 * Every member's conditions, its cluster's name before each message; a condition with the type, status and reason of
 * one already kept adds its message to that one's instead (", "-separated), so the first keeps its other fields.
 */
function mergeConditions(hook: Hook, members: readonly Member[]): Obj[] {
  const merged: Obj[] = [];
  for (const m of members) {
    const conditions = memberField(hook, m, 'conditions');
    if (conditions === undefined) continue;
    for (const c of sequence(hook, conditions)) {
      const message = concat(hook, m.clusterName, '=', at(hook, c, 'message'));
      const condition: Obj = { ...writable(hook, c), message };
      const same = merged.find(
        (k) => k.type === condition.type && k.status === condition.status && k.reason === condition.reason,
      );
      if (same) same.message = concat(hook, same.message, ', ', message);
      else merged.push(condition);
    }
  }
  return merged;
}

/** The last member's value of the field that is set (and, with nonEmpty, not ''), else the fallback. */
function lastReported(hook: Hook, members: readonly Member[], field: string, fallback: unknown, nonEmpty = true) {
  let value = fallback;
  for (const m of members) {
    const v = memberField(hook, m, field);
    if (v !== undefined && !(nonEmpty && v === '')) value = v;
  }
  return value;
}

interface Aggregation {
  /** The fields set, besides observedGeneration and conditions, when no member reports. */
  initial: Obj;
  /** The fields set, besides observedGeneration and conditions, from the members; status is the template's. */
  fold(hook: Hook, members: readonly Member[], status: Obj): Obj;
}

/**
 * The template with its status aggregated: with no member, the initial fields and its own generation observed;
 * otherwise the members' merged conditions and the kind's fields, its generation observed once every member reports
 * having applied that template generation (and observed its own), else the observedGeneration it had.
 */
function aggregate({ initial, fold }: Aggregation) {
  return (desired: Obj, items: readonly AggregatedStatusItem[]): Obj => {
    const hook = 'AggregateStatus';
    const object = writable(hook, luaView(desired));
    const metadata = writable(hook, at(hook, object, 'metadata'));
    const status = at(hook, object, 'status') === undefined ? {} : writable(hook, at(hook, object, 'status'));
    object.metadata = metadata;
    object.status = status;
    metadata.generation ??= 0;
    status.observedGeneration ??= 0;
    const generation = metadata.generation;
    if (items.length === 0) {
      Object.assign(status, { observedGeneration: generation, ...initial, conditions: [] });
      return objectResult(hook, object);
    }
    const members: Member[] = items.map((item) => ({ clusterName: item.clusterName, status: luaView(item.status) }));
    const conditions = mergeConditions(hook, members);
    const fields = fold(hook, members, status);
    const current = members.filter((m) => {
      const templateGeneration = memberField(hook, m, 'resourceTemplateGeneration') ?? 0;
      const memberGeneration = memberField(hook, m, 'generation') ?? 0;
      return (
        templateGeneration === generation && memberGeneration === (memberField(hook, m, 'observedGeneration') ?? 0)
      );
    });
    Object.assign(status, {
      observedGeneration: current.length === members.length ? generation : status.observedGeneration,
      conditions,
      ...fields,
    });
    return objectResult(hook, object);
  };
}

/** The sources report the last member's artifact (none: dropped) and, for most, its url. */
function sourceAggregation(withUrl: boolean, extra: readonly string[] = []): Aggregation {
  const named = [...(withUrl ? ['url'] : []), ...extra];
  return {
    initial: { artifact: {}, ...Object.fromEntries(named.map((f) => [f, ''])) },
    fold: (hook, members) => ({
      artifact: lastReported(hook, members, 'artifact', {}, false),
      ...Object.fromEntries(named.map((f) => [f, lastReported(hook, members, f, '')])),
    }),
  };
}

const KUSTOMIZATION_AGGREGATION: Aggregation = {
  initial: { lastAttemptedRevision: '', lastAppliedRevision: '' },
  fold: (hook, members, status) => ({
    lastAttemptedRevision: lastReported(hook, members, 'lastAttemptedRevision', status.lastAttemptedRevision),
    lastAppliedRevision: lastReported(hook, members, 'lastAppliedRevision', status.lastAppliedRevision),
  }),
};

const HELM_RELEASE_COUNTERS = ['failures', 'upgradeFailures', 'installFailures'] as const;

const HELM_RELEASE_AGGREGATION: Aggregation = {
  initial: {
    lastAttemptedRevision: '',
    lastAppliedRevision: '',
    lastAttemptedValuesChecksum: '',
    helmChart: '',
    lastReleaseRevision: '',
    failures: 0,
    upgradeFailures: 0,
    installFailures: 0,
  },
  fold: (hook, members, status) => {
    const out: Obj = {};
    for (const f of ['lastAttemptedRevision', 'lastAppliedRevision', 'lastAttemptedValuesChecksum', 'helmChart'])
      out[f] = lastReported(hook, members, f, status[f]);
    out.lastReleaseRevision = lastReported(hook, members, 'lastReleaseRevision', status.lastReleaseRevision, false);
    // A counter adds the members' only when the template's status has it.
    for (const f of HELM_RELEASE_COUNTERS) {
      let total = status[f];
      for (const m of members) {
        const v = memberField(hook, m, f);
        if (v !== undefined && status[f] !== undefined) total = add(hook, total, v);
      }
      out[f] = total;
    }
    return out;
  },
};

/**
 * What a dependency script collects: Secret, ServiceAccount and ConfigMap names in sets keyed by the name's value,
 * so a name that is nil fails as `t[nil] = true` does in Lua.
 */
class Needs {
  readonly secrets = new Set<unknown>();
  readonly serviceAccounts = new Set<unknown>();
  readonly configMaps = new Set<unknown>();
  static add(set: Set<unknown>, name: unknown): void {
    if (name === undefined) throw new LuaHookError('table index is nil', 'GetDependencies');
    set.add(name);
  }
}

/** `parent.ref ~= nil and parent.ref.name ~= ''` → the name (nil included, which then fails as a key). */
function refName(hook: Hook, parent: unknown, ...path: string[]): { name: unknown } | undefined {
  let value = parent;
  for (const key of path) {
    value = at(hook, value, key);
    if (value === undefined) return undefined;
  }
  const name = at(hook, value, 'name');
  return name === '' ? undefined : { name };
}

/**
 * The references, as Karmada reads and checks them: a name that is not a non-empty string, or a namespace that is
 * not a string, fails; deduplicated by name and sorted (apiVersion, kind, namespace, name) as Karmada returns them.
 */
function depends(collect: (hook: Hook, spec: unknown, needs: Needs) => void) {
  return (desired: Obj): DependentObjectReference[] => {
    const hook = 'GetDependencies';
    const view = luaView(desired);
    const needs = new Needs();
    collect(hook, at(hook, view, 'spec'), needs);
    const refs: DependentObjectReference[] = [];
    const kinds = [
      ['Secret', needs.secrets],
      ['ServiceAccount', needs.serviceAccounts],
      ['ConfigMap', needs.configMaps],
    ] as const;
    for (const [kind, names] of kinds) {
      for (const name of names) {
        const namespace = at(hook, at(hook, view, 'metadata'), 'namespace');
        if (typeof name !== 'string')
          throw new LuaHookError(
            `json unmarshal obj failed: json: cannot unmarshal ${Array.isArray(name) ? 'array' : typeof name === 'object' ? 'object' : typeof name === 'boolean' ? 'bool' : typeof name} into Go struct field DependentObjectReference.name of type string`,
            hook,
          );
        if (typeof namespace !== 'string' && namespace !== undefined)
          throw new LuaHookError(
            'json unmarshal obj failed: json: cannot unmarshal non-string into Go struct field DependentObjectReference.namespace of type string',
            hook,
          );
        if (name === '')
          throw new LuaHookError(
            `dependencies[${refs.length}]: Invalid value: dependency can not leave name and labelSelector all empty`,
            hook,
          );
        refs.push({ apiVersion: 'v1', kind, ...(namespace ? { namespace } : {}), name });
      }
    }
    const key = (r: DependentObjectReference) => [r.apiVersion, r.kind, r.namespace ?? '', r.name ?? ''];
    return refs.sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      const i = x.findIndex((v, n) => v !== y[n]);
      return i < 0 ? 0 : (x[i] as string) < (y[i] as string) ? -1 : 1;
    });
  };
}

function secretsAt(...paths: readonly string[][]) {
  return (hook: Hook, spec: unknown, needs: Needs): void => {
    for (const path of paths) {
      const ref = refName(hook, spec, ...path);
      if (ref) Needs.add(needs.secrets, ref.name);
    }
  };
}

/** `serviceAccountName ~= nil and serviceAccountName ~= ''`. */
function serviceAccount(hook: Hook, spec: unknown, needs: Needs): void {
  const name = at(hook, spec, 'serviceAccountName');
  if (name !== undefined && name !== '') Needs.add(needs.serviceAccounts, name);
}

const CONDITION_FIELDS = ['conditions', 'observedGeneration'];
const SUCCEEDED = ['Succeeded'];
const RECONCILED = ['ReconciliationSucceeded'];

export const FLUX: ThirdPartyTable = {
  'helm.toolkit.fluxcd.io/v2beta1/HelmRelease': {
    interpretHealth: readyWith(RECONCILED),
    retain: retainSuspend,
    reflectStatus: reflect([
      ...CONDITION_FIELDS,
      'lastAttemptedRevision',
      'lastAppliedRevision',
      'lastAttemptedValuesChecksum',
      'helmChart',
      'lastReleaseRevision',
      ...HELM_RELEASE_COUNTERS,
    ]),
    aggregateStatus: aggregate(HELM_RELEASE_AGGREGATION),
    getDependencies: depends((hook, spec, needs) => {
      const valuesFrom = at(hook, spec, 'valuesFrom');
      if (valuesFrom !== undefined) {
        for (const source of sequence(hook, valuesFrom)) {
          const kind = at(hook, source, 'kind');
          if (kind === 'Secret') Needs.add(needs.secrets, at(hook, source, 'name'));
          if (kind === 'ConfigMap') Needs.add(needs.configMaps, at(hook, source, 'name'));
        }
      }
      secretsAt(['chart', 'spec', 'verify', 'secretRef'], ['kubeConfig', 'secretRef'])(hook, spec, needs);
      serviceAccount(hook, spec, needs);
    }),
  },
  'kustomize.toolkit.fluxcd.io/v1/Kustomization': {
    interpretHealth: readyWith(RECONCILED),
    retain: retainSuspend,
    reflectStatus: reflect([...CONDITION_FIELDS, 'lastAppliedRevision', 'lastAttemptedRevision']),
    aggregateStatus: aggregate(KUSTOMIZATION_AGGREGATION),
    getDependencies: depends((hook, spec, needs) => {
      secretsAt(['decryption', 'secretRef'], ['kubeConfig', 'secretRef'])(hook, spec, needs);
      serviceAccount(hook, spec, needs);
    }),
  },
  'source.toolkit.fluxcd.io/v1/GitRepository': {
    interpretHealth: readyWith(SUCCEEDED),
    retain: retainSuspend,
    reflectStatus: reflect([...CONDITION_FIELDS, 'artifact', 'observedIgnore', 'observedRecurseSubmodules']),
    aggregateStatus: aggregate(sourceAggregation(false)),
    getDependencies: depends(secretsAt(['secretRef'], ['verify', 'secretRef'])),
  },
  'source.toolkit.fluxcd.io/v1beta2/Bucket': {
    interpretHealth: readyWith(SUCCEEDED),
    retain: retainSuspend,
    reflectStatus: reflect([...CONDITION_FIELDS, 'artifact', 'observedIgnore', 'url']),
    aggregateStatus: aggregate(sourceAggregation(true)),
    getDependencies: depends(secretsAt(['secretRef'])),
  },
  'source.toolkit.fluxcd.io/v1beta2/HelmChart': {
    interpretHealth: readyWith([...SUCCEEDED, 'ChartPullSucceeded']),
    retain: retainSuspend,
    // Karmada's script assigns observedGeneration from an undefined global: it is never reflected.
    reflectStatus: reflect(['conditions', 'artifact', 'observedChartName', 'observedSourceArtifactRevision', 'url']),
    aggregateStatus: aggregate(sourceAggregation(true, ['observedChartName', 'observedSourceArtifactRevision'])),
    getDependencies: depends(secretsAt(['verify', 'secretRef'])),
  },
  'source.toolkit.fluxcd.io/v1beta2/HelmRepository': {
    interpretHealth: readyWith(SUCCEEDED),
    retain: retainSuspend,
    reflectStatus: reflect([...CONDITION_FIELDS, 'artifact', 'url']),
    aggregateStatus: aggregate(sourceAggregation(true)),
    getDependencies: depends(secretsAt(['secretRef'])),
  },
  'source.toolkit.fluxcd.io/v1beta2/OCIRepository': {
    interpretHealth: readyWith(SUCCEEDED),
    retain: retainSuspend,
    reflectStatus: reflect([...CONDITION_FIELDS, 'artifact', 'url', 'observedIgnore', 'observedLayerSelector']),
    aggregateStatus: aggregate(sourceAggregation(true)),
    getDependencies: depends((hook, spec, needs) => {
      secretsAt(['secretRef'], ['verify', 'secretRef'], ['certSecretRef'])(hook, spec, needs);
      // Karmada's script checks only `~= ''`: with no serviceAccountName it indexes its set with nil and fails.
      const name = at(hook, spec, 'serviceAccountName');
      if (name !== '') Needs.add(needs.serviceAccounts, name);
    }),
  },
};
