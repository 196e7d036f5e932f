// Shared pieces of the Kubeflow, Ray and batch interpreters (kubeflowRayBatch.ts): what a value looks like after the
// trip through Karmada's Lua VM, pod-template requirements and dependencies as the kube module gives them, and the
// small aggregation rules several kinds have in common.
import {
  addGoQuantities,
  type DependentObjectReference,
  formatGoQuantity,
  goQuantityNumber,
  type Json,
  parseGoQuantity,
  repairEmptyTables,
  toDependencies,
  toReplicaRequirements,
  ZERO_QUANTITY,
} from '../lua/luaConvert.ts';
import { podDependencies } from '../podDependencies.ts';
import { replicaRequirements } from '../replicaRequirements.ts';
import { luaType } from './luaTypeName.ts';
import type { AggregatedStatusItem, Obj } from './thirdPartyInterpreter.ts';

export function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function objAt(value: unknown, ...path: string[]): Obj | undefined {
  let cur: unknown = value;
  for (const key of path) {
    if (!isObj(cur)) return undefined;
    cur = cur[key];
  }
  return isObj(cur) ? cur : undefined;
}

/** A field as Lua sees it: JSON null is nil. */
export function field(value: unknown, ...path: string[]): unknown {
  let cur: unknown = value;
  for (const key of path) {
    if (!isObj(cur)) return undefined;
    cur = cur[key];
  }
  return cur ?? undefined;
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Lua's `x or 0` on a field that holds a number. */
export function num(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

/** Lua's `tonumber`: a number, a numeric string, or nil. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const n = Number(value.trim());
  return Number.isNaN(n) ? undefined : n;
}

/** Lua's tostring of a number (gopher-lua prints an integral float without a fraction). */
export function luaNumberString(n: number): string {
  return String(n);
}

/** Lua's `<`/`>` between two values of the same type (the scripts compare timestamps as strings). */
export function later(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a > b;
  if (typeof a === 'string' && typeof b === 'string') return a > b;
  throw new Error(`attempt to compare ${luaType(a)} with ${luaType(b)}`);
}

/** The members' items as the script receives them: Flotilla passes no items as nil. */
export function itemsOrNil(items: readonly AggregatedStatusItem[]): readonly AggregatedStatusItem[] | undefined {
  return items.length > 0 ? items : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// The trip through Lua

/** A JS value as a Lua table encodes it: nil fields gone, every empty table written as []. */
function asLuaJson(value: unknown): Json | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) {
    const out = value.map(asLuaJson).filter((v): v is Json => v !== undefined);
    return out;
  }
  if (isObj(value)) {
    const entries = Object.entries(value)
      .map(([k, v]) => [k, asLuaJson(v)] as const)
      .filter((e): e is readonly [string, Json] => e[1] !== undefined);
    return entries.length === 0 ? [] : Object.fromEntries(entries);
  }
  return value as Json;
}

/**
 * What a hook's result becomes once Karmada converts it back (ConvertLuaResultInto): empty tables below the root
 * are dropped unless one of the references holds {} or [] at the same path; an empty root is {}.
 */
export function fromLua(value: unknown, references: readonly unknown[] = []): Obj {
  const json = asLuaJson(value) ?? [];
  return repairEmptyTables(json, 'struct', references) as Obj;
}

/** An argument as a script sees it: a copy with nil fields gone (and safe to modify). */
export function copy<T>(value: T): T {
  return structuredClone(value);
}

// ---------------------------------------------------------------------------------------------------------------
// The kube module

/** The pod spec kube.accuratePodRequirements / getPodDependencies read from a pod template: {} when it has none. */
function templateSpec(template: unknown, fn: string): Obj {
  if (!isObj(template)) throw new Error(`bad argument #1 to ${fn} (table expected, got ${luaType(template)})`);
  const converted = fromLua(template);
  return isObj(converted.spec) ? converted.spec : {};
}

/** kube.accuratePodRequirements(template): the requirements, or undefined where Lua would get nil. */
export function podRequirements(template: unknown): Obj | undefined {
  const requirements = replicaRequirements(templateSpec(template, 'accuratePodRequirements'));
  return requirements.resourceRequest || requirements.nodeClaim ? (copy(requirements) as Obj) : undefined;
}

/** kube.getPodDependencies(template, namespace). */
export function templateDependencies(template: unknown, namespace: unknown): Obj[] {
  const ns = namespace === undefined || namespace === null ? 'default' : String(namespace);
  return podDependencies(templateSpec(template, 'getPodDependencies'), ns) as unknown as Obj[];
}

/** kube.getResourceQuantity. */
export function quantityValue(text: unknown): number {
  return goQuantityNumber(text === undefined ? ZERO_QUANTITY : parseGoQuantity(String(text)));
}

/** kube.resourceAdd. */
export function quantitySum(...texts: unknown[]): string {
  let sum = ZERO_QUANTITY;
  for (const text of texts) if (text !== undefined) sum = addGoQuantities(sum, parseGoQuantity(String(text)));
  return formatGoQuantity(sum);
}

/** GetReplicas' second result as Karmada reads it back into ReplicaRequirements. */
export function requirementsResult(requires: Obj | undefined): Obj | undefined {
  if (requires === undefined) return undefined;
  return toReplicaRequirements(fromLua(requires) as Json) as Obj;
}

/**
 * GetDependencies' result as Karmada's interpreter hands it on: read back from Lua, each reference once, sorted by
 * apiVersion, kind, namespace and name.
 */
export function dependenciesResult(refs: readonly Obj[]): DependentObjectReference[] {
  const unique = new Map<string, DependentObjectReference>();
  for (const ref of toDependencies(repairEmptyTables(asLuaJson(refs) ?? [], 'slice')))
    unique.set(JSON.stringify(ref), ref);
  const key = (d: DependentObjectReference) => [d.apiVersion, d.kind, d.namespace ?? '', d.name ?? ''];
  return [...unique.values()].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    const i = ka.findIndex((part, n) => part !== kb[n]);
    return i < 0 ? 0 : (ka[i] as string) < (kb[i] as string) ? -1 : 1;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Shared aggregation rules

/**
 * The scripts' omitEmpty: zero numbers, empty strings, "0s" and tables left empty are dropped, recursively; nil when
 * nothing is left.
 */
export function omitEmpty(value: Obj | unknown[], dropZeros = true): Obj | unknown[] | undefined {
  const keep = (v: unknown): unknown => {
    if (Array.isArray(v) || isObj(v)) {
      const inner = omitEmpty(v, dropZeros);
      return inner === undefined ? undefined : inner;
    }
    if (v === undefined || v === null) return undefined;
    if (dropZeros && (v === 0 || v === '' || v === '0s')) return undefined;
    return v;
  };
  if (Array.isArray(value)) {
    const out = value.map(keep);
    while (out.length > 0 && out[out.length - 1] === undefined) out.pop();
    // A dropped element before a kept one leaves a hole, which Lua's JSON encoder refuses.
    if (out.some((v) => v === undefined))
      throw new Error('encode lua result to json failed: cannot encode sparse array');
    return out.length > 0 ? out : undefined;
  }
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) {
    const kept = keep(v);
    if (kept !== undefined) out[k] = kept;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** os.date("!%Y-%m-%dT%H:%M:%SZ"). */
export function utcNow(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, 'Z');
}

/** The Notebook/Volcano/MPIJob/… rule: with a single member, its status is taken as is. */
export function singleItemStatus(desired: Obj, items: readonly AggregatedStatusItem[]): Obj {
  const out = copy(desired);
  out.status = items[0]?.status;
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Ray's pod-spec dependency scan (RayJob, RayService): its own rules, not kube.getPodDependencies

export interface PodRefs {
  configMaps: Set<string>;
  secrets: Set<string>;
  serviceAccounts: Set<string>;
  pvcs: Set<string>;
}

export function newPodRefs(): PodRefs {
  return { configMaps: new Set(), secrets: new Set(), serviceAccounts: new Set(), pvcs: new Set() };
}

const SECRET_REF_VOLUMES = ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'] as const;

function named(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function addName(set: Set<string>, value: unknown): void {
  const name = named(value);
  if (name !== undefined) set.add(name);
}

/** Collect what a pod spec refers to: the service account (not "default"), pull secrets, volumes, env. */
export function scanRayPodSpec(podSpec: unknown, refs: PodRefs): void {
  if (!isObj(podSpec)) return;
  const sa = named(podSpec.serviceAccountName);
  if (sa !== undefined && sa !== 'default') refs.serviceAccounts.add(sa);
  for (const secret of values(podSpec.imagePullSecrets)) addName(refs.secrets, field(secret, 'name'));
  for (const volume of values(podSpec.volumes)) {
    addName(refs.configMaps, field(volume, 'configMap', 'name'));
    addName(refs.secrets, field(volume, 'secret', 'secretName'));
    for (const source of values(field(volume, 'projected', 'sources'))) {
      addName(refs.configMaps, field(source, 'configMap', 'name'));
      addName(refs.secrets, field(source, 'secret', 'name'));
    }
    addName(refs.pvcs, field(volume, 'persistentVolumeClaim', 'claimName'));
    addName(refs.secrets, field(volume, 'azureFile', 'secretName'));
    for (const kind of SECRET_REF_VOLUMES) addName(refs.secrets, field(volume, kind, 'secretRef', 'name'));
    addName(refs.secrets, field(volume, 'csi', 'nodePublishSecretRef', 'name'));
  }
  for (const container of [...values(podSpec.containers), ...values(podSpec.initContainers)]) {
    for (const from of values(field(container, 'envFrom'))) {
      addName(refs.configMaps, field(from, 'configMapRef', 'name'));
      addName(refs.secrets, field(from, 'secretRef', 'name'));
    }
    for (const env of values(field(container, 'env'))) {
      addName(refs.configMaps, field(env, 'valueFrom', 'configMapKeyRef', 'name'));
      addName(refs.secrets, field(env, 'valueFrom', 'secretKeyRef', 'name'));
    }
  }
}

/** Lua's pairs over a list or a map: its values. */
function values(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return isObj(value) ? Object.values(value) : [];
}

/** The references, ConfigMaps then Secrets, ServiceAccounts and PVCs, names sorted (Lua's pairs has no order). */
export function rayReferences(refs: PodRefs, namespace: unknown): Obj[] {
  const of = (kind: string, names: Set<string>): Obj[] =>
    [...names].sort().map((name) => ({ apiVersion: 'v1', kind, name, namespace }));
  return [
    ...of('ConfigMap', refs.configMaps),
    ...of('Secret', refs.secrets),
    ...of('ServiceAccount', refs.serviceAccounts),
    ...of('PersistentVolumeClaim', refs.pvcs),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Conditions, times and priorities

/** True when some condition of the list has this type and status "True". */
export function hasTrueCondition(conditions: unknown, type: string): boolean {
  return list(conditions).some((c) => field(c, 'type') === type && field(c, 'status') === 'True');
}

/** Keeps the earlier (or later) of two timestamps compared as strings; nil never wins. */
export function earliest(current: unknown, candidate: unknown): unknown {
  if (candidate === undefined) return current;
  return current === undefined || later(current, candidate) ? candidate : current;
}

export function latest(current: unknown, candidate: unknown): unknown {
  if (candidate === undefined) return current;
  return current === undefined || later(candidate, current) ? candidate : current;
}

/** The template with the status given (the whole object read back from Lua). */
export function withStatus(desired: Obj, status: unknown, dropSpec = false): Obj {
  const out = copy(desired);
  if (dropSpec) delete out.spec;
  out.status = status;
  return fromLua(out);
}

/** Conditions by type, the most recently updated (or transitioned) one of each, in the order types were first met. */
export function latestConditionByType(items: readonly AggregatedStatusItem[], key: (c: Obj) => unknown): Obj[] {
  const byType = new Map<unknown, Obj>();
  for (const item of items) {
    for (const c of list(field(item.status, 'conditions'))) {
      if (!isObj(c)) continue;
      const time = key(c);
      if (time === undefined || time === '') continue;
      const existing = byType.get(c.type);
      if (existing === undefined || later(time, key(existing))) byType.set(c.type, c);
    }
  }
  return [...byType.values()];
}

/** A duration such as "1h2m3.5s" in seconds; a plain number string as itself; anything else 0. */
export function durationSeconds(d: unknown): number {
  if (typeof d === 'number') return d;
  if (typeof d !== 'string') return 0;
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1 };
  let total = 0;
  for (const [, amount, u] of d.matchAll(/([\d.]+)([hms])/g)) {
    const n = toNumber(amount);
    if (n === undefined) throw new Error('attempt to perform arithmetic on a nil value');
    total += n * (unit[u as string] as number);
  }
  return total > 0 ? total : (toNumber(d) ?? 0);
}

export function priority(table: Record<string, number>, key: unknown): number {
  return typeof key === 'string' && Object.hasOwn(table, key) ? (table[key] as number) : 0;
}

/** A number, a numeric string, or the fallback (also for ''). */
export function numberOr<T>(value: unknown, fallback: T): number | T {
  if (value === undefined || value === '') return fallback;
  return toNumber(value) ?? fallback;
}

// ---------------------------------------------------------------------------------------------------------------
// Kinds' tables and Ray's shared steps

export const RAY_JOB_DEPLOYMENT_PRIORITY: Record<string, number> = {
  '': 0,
  Initializing: 1,
  Waiting: 2,
  Suspending: 3,
  Suspended: 3,
  Retrying: 4,
  Running: 5,
  Complete: 6,
  ValidationFailed: 7,
  Failed: 8,
};

export const RAY_JOB_STATUS_PRIORITY: Record<string, number> = {
  '': 0,
  PENDING: 1,
  RUNNING: 2,
  SUCCEEDED: 3,
  STOPPED: 4,
  FAILED: 5,
};

export const RAY_APP_PRIORITY: Record<string, number> = {
  RUNNING: 0,
  NOT_STARTED: 1,
  DEPLOYING: 2,
  DELETING: 3,
  UNHEALTHY: 4,
  DEPLOY_FAILED: 5,
};

export const VOLCANO_HEALTHY_PHASES = new Set([
  'Running',
  'Completed',
  'Pending',
  'Aborting',
  'Aborted',
  'Restarting',
  'Completing',
  'Terminating',
  'Terminated',
]);

export const VOLCANO_FAILED_PHASES = new Set(['Failed', 'Aborted', 'Aborting', 'Terminated', 'Terminating']);

export const SPARK_STATE_PRIORITY: Record<string, number> = {
  UNKNOWN: 0,
  '': 0,
  SUBMITTED: 1,
  PENDING_RERUN: 1,
  COMPLETED: 2,
  SUSPENDING: 3,
  SUSPENDED: 3,
  RUNNING: 4,
  RESUMING: 4,
  SUCCEEDING: 4,
  INVALIDATING: 5,
  FAILING: 6,
  FAILED: 6,
  SUBMISSION_FAILED: 6,
};

/** A status summed over members for Ray kinds: nil items keep the template; one item is taken as is. */
export function rayAggregate(
  desired: Obj,
  allItems: readonly AggregatedStatusItem[],
  merge: (items: readonly AggregatedStatusItem[], status: Obj) => Obj,
): Obj {
  const items = itemsOrNil(allItems);
  if (!items) return fromLua(desired);
  if (items.length === 1) return withStatus(desired, items[0]?.status, true);
  const status: Obj = isObj(desired.status) ? copy(desired.status) : {};
  return withStatus(desired, merge(items, status), true);
}

/** The head's and every worker group's pod specs. */
export function scanRayCluster(cluster: Obj, refs: ReturnType<typeof newPodRefs>): void {
  scanRayPodSpec(objAt(cluster, 'headGroupSpec', 'template', 'spec'), refs);
  const groups = field(cluster, 'workerGroupSpecs');
  for (const group of Array.isArray(groups) ? groups : isObj(groups) ? Object.values(groups) : [])
    scanRayPodSpec(objAt(group, 'template', 'spec'), refs);
}
