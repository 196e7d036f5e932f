// The interpreters Karmada bundles for OpenKruise's workloads (apps.kruise.io): AdvancedCronJob, BroadcastJob,
// CloneSet, DaemonSet, SidecarSet and UnitedDeployment (v1alpha1) and the Advanced StatefulSet (v1beta1).
//
// Karmada runs them as Lua (gopher-lua), so each operation here sees its input as a script does and gives back what
// Karmada makes of the table a script returns:
// - in: null fields are absent and null list entries dropped; an empty list and an empty object are one empty table;
// - out: every empty table is removed, unless one of the operation's inputs holds an empty one at the same place
//   (kept as {} or [] like it); a root object must name its kind;
// - failures: where a script would stop (indexing nil, comparing nil with a number, adding a non-number) the
//   operation throws a LuaHookError named after the script function, as the Lua hook would.
import {
  type DependentObjectReference,
  type Json,
  LuaConvertError,
  toDependencies,
  toReplicaRequirements,
  toUnstructured,
} from '../lua/luaConvert.ts';
import { LuaHookError } from '../lua/luaRuntime.ts';
import { podDependencies } from '../podDependencies.ts';
import { replicaRequirements } from '../replicaRequirements.ts';
import type { AggregatedStatusItem, Obj, ThirdPartyInterpreter, ThirdPartyTable } from './thirdPartyInterpreter.ts';
import { luaType } from './luaTypeName.ts';

// ---------------------------------------------------------------------------------------------------------------
// Values as a Lua script holds them

/** Where a script would raise an error; `hook` reports it as the failure of the script function. */
class ScriptError extends Error {}

function hook<T>(fn: string, body: () => T): T {
  try {
    return body();
  } catch (err) {
    if (err instanceof ScriptError || err instanceof LuaConvertError) throw new LuaHookError(err.message, fn);
    throw err;
  }
}

function isTable(value: unknown): value is Obj | unknown[] {
  return typeof value === 'object' && value !== null;
}

function isObject(value: unknown): value is Obj {
  return isTable(value) && !Array.isArray(value);
}

/** A deep copy as the script receives it: no nulls, no gaps in lists, an empty list the same empty table as {}. */
function luaView(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const items = value.filter((v) => v !== null && v !== undefined).map(luaView);
    return items.length > 0 ? items : {};
  }
  if (typeof value !== 'object') return value;
  const out: Obj = {};
  for (const [key, v] of Object.entries(value)) if (v !== null && v !== undefined) out[key] = luaView(v);
  return out;
}

/** `t.key`: nil when absent; a string has no such fields; nil, a number or a boolean cannot be indexed. */
function field(value: unknown, key: string): unknown {
  if (isObject(value)) return Object.hasOwn(value, key) ? (value[key] ?? undefined) : undefined;
  if (Array.isArray(value) || typeof value === 'string') return undefined;
  throw new ScriptError(`attempt to index a non-table object(${luaType(value)}) with key '${key}'`);
}

/** `t.key = value`. */
function assign(target: unknown, key: string, value: unknown): void {
  if (!isTable(target))
    throw new ScriptError(`attempt to index a non-table object(${luaType(target)}) with key '${key}'`);
  // A list given a named field can no longer be encoded as JSON.
  if (Array.isArray(target))
    throw new ScriptError('encode lua result to json failed: cannot encode mixed or invalid key types');
  target[key] = value;
}

/** What `for i = 1, #v do … v[i] … end` visits: a list's items; none of a table of named fields; nils for a string. */
function entries(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isObject(value)) return [];
  if (typeof value === 'string') return new Array<unknown>(new TextEncoder().encode(value).length).fill(undefined);
  throw new ScriptError(`attempt to get length of a ${luaType(value)} value`);
}

/** What `ipairs(v)` visits. */
function ipairsOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isObject(value)) return [];
  throw new ScriptError(`bad argument #1 to ipairs (table expected, got ${luaType(value)})`);
}

function truthy(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false;
}

/** `v or 0`. */
function orZero(value: unknown): unknown {
  return truthy(value) ? value : 0;
}

/** `a == b`: values of one type compare, tables by identity; nil equals nil. */
function same(a: unknown, b: unknown): boolean {
  return (a ?? undefined) === (b ?? undefined);
}

/** `a < b`: numbers with numbers, strings with strings; anything else stops the script. */
function less(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a < b;
  if (typeof a === 'string' && typeof b === 'string') return a < b;
  throw new ScriptError(`attempt to compare ${luaType(a)} with ${luaType(b)}`);
}

/** `a + b`: a string operand is read as a number (strconv.ParseInt with base 0, else ParseFloat). */
function plus(a: unknown, b: unknown): number {
  const x = typeof a === 'string' ? goParseNumber(a) : a;
  const y = typeof b === 'string' ? goParseNumber(b) : b;
  if (typeof x !== 'number' || typeof y !== 'number')
    throw new ScriptError(`cannot perform add operation between ${luaType(x ?? a)} and ${luaType(y ?? b)}`);
  return x + y;
}

// ---------------------------------------------------------------------------------------------------------------
// Numbers read from strings, as gopher-lua reads them

function trimLua(text: string): string {
  return text.replace(/^[ \t\n]+|[ \t\n]+$/g, '');
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(text, radix, 64) for radix 10 or 16: a sign, then digits only. */
function goParseInt(text: string, radix: 10 | 16): number | undefined {
  const m = (radix === 10 ? /^([+-]?)([0-9]+)$/ : /^([+-]?)([0-9a-fA-F]+)$/).exec(text);
  if (!m) return undefined;
  return int64(m[1] === '-', BigInt(radix === 16 ? `0x${m[2]}` : (m[2] as string)));
}

function int64(negative: boolean, magnitude: bigint): number | undefined {
  const value = negative ? -magnitude : magnitude;
  return value < INT64_MIN || value > INT64_MAX ? undefined : Number(value);
}

/** strconv.ParseInt(text, 0, 64): a sign, a base prefix (0x, 0o, 0b, or a leading 0 for octal), underscores between digits. */
function goParseIntAnyBase(text: string): number | undefined {
  const m = /^([+-]?)(0[xX]|0[oO]|0[bB]|0(?=.)|)(.*)$/.exec(text);
  if (!m) return undefined;
  const prefix = (m[2] as string).toLowerCase();
  const digits = m[3] as string;
  const [radix, digit] =
    prefix === '0x'
      ? ['0x', '[0-9a-fA-F]']
      : prefix === '0o' || prefix === '0'
        ? ['0o', '[0-7]']
        : prefix === '0b'
          ? ['0b', '[01]']
          : ['', '[0-9]'];
  if (!new RegExp(`^${prefix ? '_?' : ''}${digit}+(?:_${digit}+)*$`).test(digits)) return undefined;
  return int64(m[1] === '-', BigInt(`${radix}${digits.replaceAll('_', '')}`));
}

/** strconv.ParseFloat(text, 64): decimal or hexadecimal (with a p exponent), inf and nan; out of range fails. */
function goParseFloat(text: string): number | undefined {
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(text);
  if (special)
    return (special[2] as string).toLowerCase() === 'nan' ? Number.NaN : special[1] === '-' ? -Infinity : Infinity;
  if (/^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(text)) {
    const value = Number(text);
    return Number.isFinite(value) ? value : undefined;
  }
  const hex = /^([+-]?)0[xX]([0-9a-fA-F_]*)(?:\.([0-9a-fA-F_]*))?[pP]([+-]?[0-9]+)$/.exec(text);
  if (!hex) return undefined;
  const whole = (hex[2] as string).replaceAll('_', '');
  const fraction = (hex[3] ?? '').replaceAll('_', '');
  if (whole === '' && fraction === '') return undefined;
  const mantissa = Number.parseInt(`${whole}${fraction}` || '0', 16) / 16 ** fraction.length;
  const value = mantissa * 2 ** Number(hex[4]) * (hex[1] === '-' ? -1 : 1);
  return Number.isFinite(value) ? value : undefined;
}

/** What arithmetic makes of a string (gopher-lua's parseNumber). */
function goParseNumber(text: string): number | undefined {
  const trimmed = trimLua(text);
  return goParseIntAnyBase(trimmed) ?? goParseFloat(trimmed);
}

/** `tonumber(v)`: a number as is; a string with a "." as a float, else as a decimal (or 0x hexadecimal) int64. */
function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const text = trimLua(value);
  if (text.includes('.')) return goParseFloat(text);
  return text.toLowerCase().startsWith('0x') ? goParseInt(text.slice(2), 16) : goParseInt(text, 10);
}

// ---------------------------------------------------------------------------------------------------------------
// Results, as Karmada converts a returned table (ConvertLuaResultInto)

function escapePathKey(key: string): string {
  return key.replaceAll('.', '\\.').replaceAll(':', '\\:');
}

/** The places (field names only) where a reference holds an empty list or an empty object. */
function emptyPlaces(value: unknown, path: string[], slices: Set<string>, structs: Set<string>): void {
  const children: [string[], unknown][] = Array.isArray(value)
    ? value.map((v) => [path, v])
    : isObject(value)
      ? Object.entries(value).map(([k, v]) => [[...path, escapePathKey(k)], v])
      : [];
  for (const [at, child] of children) {
    if (Array.isArray(child) && child.length === 0) slices.add(at.join('.'));
    else if (isObject(child) && Object.keys(child).length === 0) structs.add(at.join('.'));
    else emptyPlaces(child, at, slices, structs);
  }
}

/**
 * The JSON Karmada gets from a returned table. `references` are the operation's inputs Karmada repairs empty tables
 * against (none for AggregateStatus and ReflectStatus); `shape` is what an empty result becomes.
 */
function converted(value: unknown, references: readonly unknown[] = [], shape: 'struct' | 'slice' = 'struct'): Json {
  const slices = new Set<string>();
  const structs = new Set<string>();
  for (const reference of references) emptyPlaces([reference], [], slices, structs);
  const encode = (v: unknown, path: string[], root: boolean): Json | undefined => {
    if (v === null || v === undefined) return undefined;
    if (typeof v === 'number') {
      if (Number.isFinite(v)) return v === 0 ? 0 : v;
      const text = Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf';
      throw new ScriptError(`encode lua result to json failed: json: unsupported value: ${text}`);
    }
    if (typeof v !== 'object') return v as Json;
    const present = (x: unknown) => x !== null && x !== undefined;
    if (Array.isArray(v) ? !v.some(present) : !Object.values(v).some(present)) {
      if (root) return shape === 'struct' ? {} : [];
      const at = path.join('.');
      return structs.has(at) ? {} : slices.has(at) ? [] : undefined;
    }
    if (Array.isArray(v)) {
      // A list's items share its place: array positions are not part of it.
      const out: Json[] = [];
      for (const x of v) {
        const item = encode(x, path, false);
        if (item !== undefined) out.push(item);
      }
      return out;
    }
    const out: { [key: string]: Json } = {};
    for (const [key, x] of Object.entries(v)) {
      const item = encode(x, [...path, escapePathKey(key)], false);
      if (item !== undefined) out[key] = item;
    }
    return out;
  };
  return encode(value, [], true) as Json;
}

/** A returned object (ReviseReplica, Retain, AggregateStatus): it must be an object that names its kind. */
function object(value: unknown, references: readonly unknown[] = []): Obj {
  return toUnstructured(converted(value, references));
}

/** A returned status (ReflectStatus). */
function status(value: Obj): Obj {
  return converted(value) as Obj;
}

/** Karmada's VerifyDependencies, then its configurable interpreter's union, sorted. */
function dependencies(result: unknown): DependentObjectReference[] {
  if (!isTable(result)) throw new ScriptError(`expect the returned requires type is table but got ${luaType(result)}`);
  const references = toDependencies(converted(result, [], 'slice'));
  const problems: string[] = [];
  references.forEach((d, i) => {
    const at = `dependencies[${i}]`;
    if (!d.apiVersion) problems.push(`${at}.apiVersion: Invalid value: "": missing required apiVersion`);
    if (!d.kind) problems.push(`${at}.kind: Invalid value: "": missing required kind`);
    if (!d.name && d.labelSelector === undefined)
      problems.push(`${at}: Invalid value: dependency can not leave name and labelSelector all empty`);
  });
  if (problems.length > 0) throw new ScriptError(problems.join('; '));
  const seen = new Set<string>();
  const united = references.filter((d) => {
    if (d.labelSelector !== undefined) return true;
    const key = JSON.stringify([d.apiVersion, d.kind, d.namespace ?? '', d.name ?? '']);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const order = (d: DependentObjectReference) => [d.apiVersion, d.kind, d.namespace ?? '', d.name ?? ''];
  return united.sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    const i = x.findIndex((v, n) => v !== y[n]);
    return i < 0 ? 0 : (x[i] as string) < (y[i] as string) ? -1 : 1;
  });
}

/** ConvertLuaResultToInt: a number, truncated to int32 as Go converts it. */
function replicaCount(value: unknown): number {
  if (typeof value !== 'number') throw new ScriptError(`result type ${luaType(value)} is not number`);
  if (!Number.isFinite(value)) return -2147483648;
  const count = Math.trunc(value);
  return count > 2147483647 || count < -2147483648 ? -2147483648 : count;
}

// ---------------------------------------------------------------------------------------------------------------
// The kube module: a pod template as the script passes it

/** The template's spec as the Go side decodes the table: {} when it has none. */
function templateSpec(template: unknown, fn: string): Obj {
  if (!isTable(template)) throw new ScriptError(`bad argument #1 to ${fn} (table expected, got ${luaType(template)})`);
  const spec = (converted(template) as Obj).spec;
  return isObject(spec) ? spec : {};
}

/** kube.accuratePodRequirements(template): nil when the template asks for nothing. */
function podRequirements(template: unknown): Obj | undefined {
  const requirements = replicaRequirements(templateSpec(template, 'accuratePodRequirements'));
  if (!requirements.resourceRequest && !requirements.nodeClaim) return undefined;
  return toReplicaRequirements(converted(requirements));
}

/** kube.getPodDependencies(template, namespace): nil when the template names nothing. */
function podDependenciesOf(template: unknown, namespace: unknown): unknown[] | undefined {
  const spec = templateSpec(template, 'getPodDependencies');
  let ns: string;
  if (namespace === undefined) ns = 'default';
  else if (typeof namespace === 'string' || typeof namespace === 'number') ns = String(namespace);
  else throw new ScriptError(`bad argument #2 to getPodDependencies (string expected, got ${luaType(namespace)})`);
  const found = podDependencies(spec, ns);
  return found.length > 0 ? found : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Operations shared by several kinds

/** The template's replicas (read by `count` from spec) and what each replica of spec.template requests. */
function replicasOf(count: (spec: unknown) => unknown): NonNullable<ThirdPartyInterpreter['getReplicas']> {
  return (desired) =>
    hook('GetReplicas', () => {
      const spec = field(luaView(desired), 'spec');
      const replicas = count(spec);
      const requirements = podRequirements(field(spec, 'template'));
      return { replicas: replicaCount(replicas), ...(requirements ? { requirements } : {}) };
    });
}

/** The member's share written at spec.<key>. */
function reviseAt(key: string): NonNullable<ThirdPartyInterpreter['reviseReplica']> {
  return (desired, replicas) =>
    hook('ReviseReplica', () => {
      const obj = luaView(desired);
      assign(field(obj, 'spec'), key, Math.trunc(replicas));
      return object(obj, [desired]);
    });
}

/** What spec.template's pods reference, in the template's namespace; none at all fails, unless `noneIsEmpty`. */
function templateDependencies(noneIsEmpty = false): NonNullable<ThirdPartyInterpreter['getDependencies']> {
  return (desired) =>
    hook('GetDependencies', () => {
      const obj = luaView(desired);
      const found = podDependenciesOf(
        field(field(obj, 'spec'), 'template'),
        field(field(obj, 'metadata'), 'namespace'),
      );
      return dependencies(found ?? (noneIsEmpty ? [] : undefined));
    });
}

const TEMPLATE_GENERATION = 'resourcetemplate.karmada.io/generation';

/**
 * The listed status fields, with the member object's generation and the resource template generation Karmada
 * annotated it with (when the annotation reads as a number), which AggregateStatus compares.
 */
function reflectWithGenerations(fields: readonly string[]): NonNullable<ThirdPartyInterpreter['reflectStatus']> {
  return (observed) =>
    hook('ReflectStatus', () => {
      const obj = luaView(observed);
      const current = field(obj, 'status');
      if (current === undefined) return {};
      const out: Obj = {};
      for (const name of fields) out[name] = field(current, name);
      const metadata = field(obj, 'metadata');
      if (metadata !== undefined) {
        out.generation = field(metadata, 'generation');
        const annotations = field(metadata, 'annotations');
        if (annotations !== undefined)
          out.resourceTemplateGeneration = toNumber(field(annotations, TEMPLATE_GENERATION));
      }
      return status(out);
    });
}

/** The template's status, defaulted: generation and observedGeneration 0 when unset. */
function generationDefaults(obj: unknown): { metadata: unknown; status: unknown } {
  let current = field(obj, 'status');
  if (current === undefined) assign(obj, 'status', (current = {}));
  const metadata = field(obj, 'metadata');
  if (field(metadata, 'generation') === undefined) assign(metadata, 'generation', 0);
  if (field(current, 'observedGeneration') === undefined) assign(current, 'observedGeneration', 0);
  return { metadata, status: current };
}

/** Whether a member reports the template's generation, and has observed its own. */
function caughtUp(generation: unknown, read: (name: string) => unknown): boolean {
  return same(read('resourceTemplateGeneration'), generation) && same(read('generation'), read('observedGeneration'));
}

interface WorkloadStatus {
  /** Counters summed over the members. */
  sums: readonly string[];
  /** Fields the last member reporting them non-empty gives, and their value when none does. */
  latest: Readonly<Record<string, string | number>>;
  /** Whether a template on no member reports the `latest` fields too (at their default). */
  latestWhenUnplaced: boolean;
}

/**
 * CloneSet, StatefulSet, DaemonSet: counters summed, revisions from the last member that has one, and
 * observedGeneration the template's generation once every member has caught up with it (else as it was).
 */
function aggregateWorkload(spec: WorkloadStatus): NonNullable<ThirdPartyInterpreter['aggregateStatus']> {
  return (desired, items) =>
    hook('AggregateStatus', () => {
      const obj = luaView(desired);
      const { metadata, status: current } = generationDefaults(obj);
      if (items.length === 0) {
        assign(current, 'observedGeneration', field(metadata, 'generation'));
        for (const name of spec.sums) assign(current, name, 0);
        if (spec.latestWhenUnplaced)
          for (const [name, value] of Object.entries(spec.latest)) assign(current, name, value);
        return object(obj);
      }
      const generation = field(metadata, 'generation');
      const observedGeneration = field(current, 'observedGeneration');
      const sums = new Map<string, number>(spec.sums.map((name) => [name, 0]));
      const latest = new Map<string, unknown>(Object.entries(spec.latest));
      let caughtUpCount = 0;
      for (const item of items) {
        const member = luaView(item.status);
        const read = (name: string) => (member === undefined ? undefined : field(member, name));
        for (const name of spec.sums) {
          const value = read(name);
          if (value !== undefined) sums.set(name, plus(sums.get(name), value));
        }
        for (const name of latest.keys()) {
          const value = read(name);
          if (value !== undefined && value !== '') latest.set(name, value);
        }
        if (caughtUp(generation, (name) => read(name) ?? 0)) caughtUpCount++;
      }
      assign(current, 'observedGeneration', caughtUpCount === items.length ? generation : observedGeneration);
      for (const [name, value] of [...sums, ...latest]) assign(current, name, value);
      return object(obj);
    });
}

/** Health of a replicated workload: its generation observed, every replica updated, every updated one available. */
function replicatedHealth(guarded: boolean): NonNullable<ThirdPartyInterpreter['interpretHealth']> {
  return (observed) =>
    hook('InterpretHealth', () => {
      const obj = luaView(observed);
      const current = field(obj, 'status');
      const metadata = field(obj, 'metadata');
      const spec = field(obj, 'spec');
      if (guarded && (current === undefined || metadata === undefined || spec === undefined)) return false;
      if (!same(field(current, 'observedGeneration'), field(metadata, 'generation'))) return false;
      const replicas = field(spec, 'replicas');
      if (replicas !== undefined && less(field(current, 'updatedReplicas'), replicas)) return false;
      return !less(field(current, 'availableReplicas'), field(current, 'updatedReplicas'));
    });
}

/** Each member's status (nil when it reported none), as the script reads statusItems[i].status. */
function memberStatuses(items: readonly AggregatedStatusItem[]): unknown[] {
  return items.map((item) => luaView(item.status));
}

// ---------------------------------------------------------------------------------------------------------------
// The kinds

const advancedCronJob: ThirdPartyInterpreter = {
  /** The jobs active on every member, listed together; type and lastScheduleTime from the last member giving them. */
  aggregateStatus: (desired, items) =>
    hook('AggregateStatus', () => {
      const obj = luaView(desired);
      if (items.length === 0) return object(obj);
      let current = field(obj, 'status');
      if (current === undefined) assign(obj, 'status', (current = {}));
      const active: unknown[] = [];
      let type: unknown = '';
      let lastScheduleTime: unknown = {};
      for (const member of memberStatuses(items)) {
        if (member !== undefined && field(member, 'active') !== undefined)
          for (const job of entries(field(member, 'active'))) if (job !== undefined) active.push(job);
        if (member !== undefined && field(member, 'type') !== undefined) type = field(member, 'type');
        if (member !== undefined && field(member, 'lastScheduleTime') !== undefined)
          lastScheduleTime = field(member, 'lastScheduleTime');
      }
      assign(current, 'active', active);
      assign(current, 'type', type);
      assign(current, 'lastScheduleTime', lastScheduleTime);
      return object(obj);
    }),
  /** What the pods of its job template reference: the BroadcastJob template's when it has one, else the Job's. */
  getDependencies: (desired) =>
    hook('GetDependencies', () => {
      const obj = luaView(desired);
      const templates = field(field(obj, 'spec'), 'template');
      let template: unknown = {};
      const job = field(templates, 'jobTemplate');
      if (job !== undefined) template = field(field(job, 'spec'), 'template');
      const broadcastJob = field(templates, 'broadcastJobTemplate');
      if (broadcastJob !== undefined) template = field(field(broadcastJob, 'spec'), 'template');
      return dependencies(podDependenciesOf(template, field(field(obj, 'metadata'), 'namespace')));
    }),
};

const broadcastJob: ThirdPartyInterpreter = {
  /** spec.parallelism pods (1 when unset), each requesting what spec.template asks. */
  getReplicas: replicasOf((spec) => field(spec, 'parallelism') ?? 1),
  reviseReplica: reviseAt('parallelism'),
  /** Healthy unless it wants no pod, has a failed one, or has none active and none succeeded. */
  interpretHealth: (observed) =>
    hook('InterpretHealth', () => {
      const current = field(luaView(observed), 'status');
      if (same(field(current, 'desired'), 0) || !same(field(current, 'failed'), 0)) return false;
      return !(same(field(current, 'succeeded'), 0) && same(field(current, 'active'), 0));
    }),
  /**
   * Counters summed and the last phase given; a Failed condition naming every member whose job failed, or a
   * Completed one once every member's job completed. A member without a terminal condition counts as the member
   * before it did (the script keeps the last terminal type it saw).
   */
  aggregateStatus: (desired, items) =>
    hook('AggregateStatus', () => {
      const obj = luaView(desired);
      if (items.length === 0) return object(obj);
      let current = field(obj, 'status');
      if (current === undefined) assign(obj, 'status', (current = {}));
      if (field(current, 'conditions') === undefined) assign(current, 'conditions', {});
      const counts: Record<'active' | 'succeeded' | 'failed' | 'desired', number> = {
        active: 0,
        succeeded: 0,
        failed: 0,
        desired: 0,
      };
      let phase: unknown = '';
      let terminal = '';
      let completed = 0;
      const failedOn: unknown[] = [];
      items.forEach((item) => {
        const member = luaView(item.status);
        const read = (name: string) => (member === undefined ? undefined : field(member, name));
        for (const name of ['active', 'succeeded', 'failed', 'desired'] as const) {
          const value = read(name);
          if (value !== undefined) counts[name] = plus(counts[name], value);
        }
        if (read('phase') !== undefined) phase = read('phase');
        const conditions = read('conditions');
        if (conditions !== undefined) {
          for (const condition of entries(conditions)) {
            const type = field(condition, 'type');
            if ((type === 'Complete' || type === 'Failed') && field(condition, 'status') === 'True') {
              terminal = type;
              break;
            }
          }
        }
        if (terminal === 'Complete') completed++;
        if (terminal === 'Failed') failedOn.push(item.clusterName);
      });
      const conditions: Obj[] = [];
      if (failedOn.length > 0)
        conditions.push({
          type: 'Failed',
          status: 'True',
          reason: 'JobFailed',
          message: `Job executed failed in member clusters: ${failedOn.map(String).join(', ')}`,
        });
      if (completed === items.length && completed > 0)
        conditions.push({ type: 'Completed', status: 'True', reason: 'Completed', message: 'Job completed' });
      for (const [name, value] of Object.entries(counts)) assign(current, name, value);
      assign(current, 'phase', phase);
      assign(current, 'conditions', conditions);
      return object(obj);
    }),
  /** The pod template keeps the labels the member's object has there. */
  retain: (desired, observed) =>
    hook('Retain', () => {
      const obj = luaView(desired);
      const live = field(field(field(luaView(observed), 'spec'), 'template'), 'metadata');
      const labels = live === undefined ? undefined : field(live, 'labels');
      if (labels !== undefined) assign(field(field(field(obj, 'spec'), 'template'), 'metadata'), 'labels', labels);
      return object(obj, [desired, observed]);
    }),
  reflectStatus: (observed) =>
    hook('ReflectStatus', () => {
      const current = field(luaView(observed), 'status');
      if (current === undefined) return {};
      const out: Obj = {};
      for (const name of [
        'conditions',
        'startTime',
        'completionTime',
        'active',
        'succeeded',
        'failed',
        'desired',
        'phase',
      ])
        out[name] = field(current, name);
      return status(out);
    }),
  getDependencies: templateDependencies(),
};

const cloneSet: ThirdPartyInterpreter = {
  getReplicas: replicasOf((spec) => field(spec, 'replicas')),
  reviseReplica: reviseAt('replicas'),
  aggregateStatus: aggregateWorkload({
    sums: [
      'replicas',
      'updatedReplicas',
      'readyReplicas',
      'availableReplicas',
      'updatedReadyReplicas',
      'expectedUpdatedReplicas',
    ],
    latest: { updateRevision: '', currentRevision: '', labelSelector: '' },
    latestWhenUnplaced: false,
  }),
  reflectStatus: reflectWithGenerations([
    'replicas',
    'updatedReplicas',
    'readyReplicas',
    'availableReplicas',
    'updatedReadyReplicas',
    'expectedUpdatedReplicas',
    'updateRevision',
    'currentRevision',
    'observedGeneration',
    'labelSelector',
  ]),
  interpretHealth: replicatedHealth(false),
  getDependencies: templateDependencies(),
};

const daemonSet: ThirdPartyInterpreter = {
  aggregateStatus: aggregateWorkload({
    sums: [
      'currentNumberScheduled',
      'numberMisscheduled',
      'desiredNumberScheduled',
      'numberReady',
      'updatedNumberScheduled',
      'numberAvailable',
      'numberUnavailable',
    ],
    // The script starts the hash at the number 0, not at ''.
    latest: { daemonSetHash: 0 },
    latestWhenUnplaced: true,
  }),
  reflectStatus: reflectWithGenerations([
    'observedGeneration',
    'currentNumberScheduled',
    'numberMisscheduled',
    'desiredNumberScheduled',
    'numberReady',
    'updatedNumberScheduled',
    'numberAvailable',
    'numberUnavailable',
    'daemonSetHash',
  ]),
  /** Its generation observed, every node's pod updated, every updated one available. */
  interpretHealth: (observed) =>
    hook('InterpretHealth', () => {
      const obj = luaView(observed);
      const current = field(obj, 'status');
      if (!same(field(current, 'observedGeneration'), field(field(obj, 'metadata'), 'generation'))) return false;
      if (less(field(current, 'updatedNumberScheduled'), field(current, 'desiredNumberScheduled'))) return false;
      return !less(field(current, 'numberAvailable'), field(current, 'updatedNumberScheduled'));
    }),
  // The only Kruise script that turns "no dependencies" into an empty list rather than failing.
  getDependencies: templateDependencies(true),
};

const SIDECAR_COUNTERS = ['matchedPods', 'updatedPods', 'readyPods'] as const;

const sidecarSet: ThirdPartyInterpreter = {
  reflectStatus: (observed) =>
    hook('ReflectStatus', () => {
      const current = field(luaView(observed), 'status');
      if (current === undefined) return {};
      return status(Object.fromEntries(SIDECAR_COUNTERS.map((name) => [name, orZero(field(current, name))])));
    }),
  /** A SidecarSet injects into other workloads' pods: it has no replicas of its own. */
  getReplicas: () => ({ replicas: 0 }),
  /** Only its identity and the summed pod counters: the spec is left out. */
  aggregateStatus: (desired, items) =>
    hook('AggregateStatus', () => {
      // The script takes the length of the list it is given, which is nil when no member reported.
      if (items.length === 0) throw new ScriptError('attempt to get length of a nil value');
      const sums = new Map<string, number>(SIDECAR_COUNTERS.map((name) => [name, 0]));
      for (const member of memberStatuses(items))
        for (const name of SIDECAR_COUNTERS)
          sums.set(name, plus(sums.get(name), orZero(field(truthy(member) ? member : {}, name))));
      return object({
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'SidecarSet',
        metadata: field(luaView(desired), 'metadata'),
        status: Object.fromEntries(sums),
      });
    }),
  retain: (desired, observed) => hook('Retain', () => object(luaView(desired), [desired, observed])),
  /** Unhealthy without a status; healthy when it matches no pod, or once every matched pod is updated. */
  interpretHealth: (observed) =>
    hook('InterpretHealth', () => {
      const current = field(luaView(observed), 'status');
      if (current === undefined) return false;
      const matched = orZero(field(current, 'matchedPods'));
      if (same(matched, 0)) return true;
      return same(orZero(field(current, 'updatedPods')), matched);
    }),
  /**
   * The ConfigMaps and Secrets its sidecar containers' env and envFrom and its volumes (projected ones too) name, in
   * its namespace. Unlike a pod template's, names are not filtered: a reference without a name fails the whole
   * interpretation, as Karmada's VerifyDependencies does.
   */
  getDependencies: (desired) =>
    hook('GetDependencies', () => {
      const obj = luaView(desired);
      const spec = field(obj, 'spec');
      const found: Obj[] = [];
      if (!truthy(spec)) return dependencies(found);
      const metadata = field(obj, 'metadata');
      const namespace = truthy(metadata) ? field(metadata, 'namespace') : metadata;
      const add = (kind: string, name: unknown) => found.push({ apiVersion: 'v1', kind, name, namespace });
      const containers = field(spec, 'containers');
      if (truthy(containers)) {
        for (const container of entries(containers)) {
          const env = field(container, 'env');
          if (truthy(env)) {
            for (const variable of entries(env)) {
              const from = field(variable, 'valueFrom');
              if (!truthy(from)) continue;
              const configMap = field(from, 'configMapKeyRef');
              if (truthy(configMap)) add('ConfigMap', field(configMap, 'name'));
              const secret = field(from, 'secretKeyRef');
              if (truthy(secret)) add('Secret', field(secret, 'name'));
            }
          }
          const envFrom = field(container, 'envFrom');
          if (truthy(envFrom)) {
            for (const source of entries(envFrom)) {
              const configMap = field(source, 'configMapRef');
              if (truthy(configMap)) add('ConfigMap', field(configMap, 'name'));
              const secret = field(source, 'secretRef');
              if (truthy(secret)) add('Secret', field(secret, 'name'));
            }
          }
        }
      }
      const volumes = field(spec, 'volumes');
      if (truthy(volumes)) {
        for (const volume of entries(volumes)) {
          const configMap = field(volume, 'configMap');
          if (truthy(configMap)) add('ConfigMap', field(configMap, 'name'));
          const secret = field(volume, 'secret');
          if (truthy(secret)) add('Secret', field(secret, 'secretName'));
          const projected = field(volume, 'projected');
          const sources = truthy(projected) ? field(projected, 'sources') : projected;
          if (!truthy(sources)) continue;
          for (const source of entries(sources)) {
            const sourceConfigMap = field(source, 'configMap');
            if (truthy(sourceConfigMap)) add('ConfigMap', field(sourceConfigMap, 'name'));
            const sourceSecret = field(source, 'secret');
            if (truthy(sourceSecret)) add('Secret', field(sourceSecret, 'name'));
          }
        }
      }
      return dependencies(found);
    }),
};

const UNITED_COUNTERS = ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'];

const unitedDeployment: ThirdPartyInterpreter = {
  getReplicas: replicasOf((spec) => field(spec, 'replicas')),
  reviseReplica: reviseAt('replicas'),
  /**
   * Counters summed over the members that reported a status; conditions merged by type (the last member's
   * condition of a type wins, types in the order first seen), and written only when there is one; observedGeneration
   * as for a CloneSet.
   */
  aggregateStatus: (desired, items) =>
    hook('AggregateStatus', () => {
      const obj = luaView(desired);
      const { metadata, status: current } = generationDefaults(obj);
      if (items.length === 0) {
        assign(current, 'observedGeneration', field(metadata, 'generation'));
        for (const name of UNITED_COUNTERS) assign(current, name, 0);
        return object(obj);
      }
      const generation = field(metadata, 'generation');
      const observedGeneration = field(current, 'observedGeneration');
      const sums = new Map<string, number>(UNITED_COUNTERS.map((name) => [name, 0]));
      const byType = new Map<unknown, unknown>();
      let caughtUpCount = 0;
      for (const member of memberStatuses(items)) {
        if (member === undefined) continue;
        for (const name of UNITED_COUNTERS) sums.set(name, plus(sums.get(name), orZero(field(member, name))));
        const conditions = field(member, 'conditions');
        if (conditions !== undefined) {
          for (const condition of ipairsOf(conditions)) {
            const type = field(condition, 'type');
            if (type === undefined) throw new ScriptError('table index is nil');
            byType.set(type, condition);
          }
        }
        if (caughtUp(generation, (name) => orZero(field(member, name)))) caughtUpCount++;
      }
      assign(current, 'observedGeneration', caughtUpCount === items.length ? generation : observedGeneration);
      for (const [name, value] of sums) assign(current, name, value);
      if (byType.size > 0) assign(current, 'conditions', [...byType.values()]);
      return object(obj);
    }),
  reflectStatus: reflectWithGenerations([
    'replicas',
    'updatedReplicas',
    'readyReplicas',
    'availableReplicas',
    'unavailableReplicas',
    'observedGeneration',
    'conditions',
  ]),
  /** As a CloneSet's, and unhealthy when it has no status, metadata or spec. */
  interpretHealth: replicatedHealth(true),
  getDependencies: templateDependencies(),
};

const statefulSet: ThirdPartyInterpreter = {
  getReplicas: replicasOf((spec) => field(spec, 'replicas')),
  reviseReplica: reviseAt('replicas'),
  aggregateStatus: aggregateWorkload({
    sums: [
      'replicas',
      'readyReplicas',
      'currentReplicas',
      'updatedReplicas',
      'availableReplicas',
      'updatedReadyReplicas',
    ],
    latest: { updateRevision: '', currentRevision: '' },
    latestWhenUnplaced: true,
  }),
  reflectStatus: reflectWithGenerations([
    'replicas',
    'readyReplicas',
    'currentReplicas',
    'updatedReplicas',
    'availableReplicas',
    'updateRevision',
    'currentRevision',
    'updatedReadyReplicas',
    'observedGeneration',
  ]),
  interpretHealth: replicatedHealth(false),
  getDependencies: templateDependencies(),
};

export const KRUISE: ThirdPartyTable = {
  'apps.kruise.io/v1alpha1/AdvancedCronJob': advancedCronJob,
  'apps.kruise.io/v1alpha1/BroadcastJob': broadcastJob,
  'apps.kruise.io/v1alpha1/CloneSet': cloneSet,
  'apps.kruise.io/v1alpha1/DaemonSet': daemonSet,
  'apps.kruise.io/v1alpha1/SidecarSet': sidecarSet,
  'apps.kruise.io/v1alpha1/UnitedDeployment': unitedDeployment,
  'apps.kruise.io/v1beta1/StatefulSet': statefulSet,
};
