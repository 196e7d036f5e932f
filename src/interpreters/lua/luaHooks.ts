// One function per hook of a ResourceInterpreterCustomization's luaScript, each as Karmada's luavm.VM method of
// the same name (pkg/resourceinterpreter/customized/declarative/luavm/lua.go): the script function it calls, the
// arguments it passes, how it checks and converts what comes back, and the errors it gives.
import { labelSelectorProblem } from '../../labels/matchLabelSelector.ts';
import type { LabelSelector } from '../../api/policy.ts';
import {
  type DependentObjectReference,
  type Json,
  LuaConvertError,
  type LuaValue,
  repairEmptyTables,
  type ResultShape,
  tableJson,
  toBool,
  toDependencies,
  toInt32,
  toReplicaRequirements,
  toUnstructured,
} from './luaConvert.ts';
import { callLuaFunction, LuaHookError } from './luaRuntime.ts';

type Obj = Record<string, unknown>;

/** workv1alpha2.AggregatedStatusItem as Karmada passes it to AggregateStatus. */
export interface AggregatedStatusItem {
  clusterName: string;
  status?: Obj;
  applied?: boolean;
  appliedMessage?: string;
  health?: string;
}

function converted<T>(fn: string, convert: () => T): T {
  try {
    return convert();
  } catch (err) {
    if (err instanceof LuaConvertError) throw new LuaHookError(err.message, fn);
    if (err instanceof RangeError) throw new LuaHookError(`the result cannot be read: ${err.message}`, fn);
    throw err;
  }
}

/** The result must be a table; ConvertLuaResultInto then repairs its empty tables against the references. */
function tableResult(fn: string, value: LuaValue, shape: ResultShape, references: readonly unknown[] = []): Json {
  if (value.type !== 'table')
    throw new LuaHookError(`expect the returned requires type is table but got ${value.type}`, fn);
  return converted(fn, () => repairEmptyTables(tableJson(value), shape, references));
}

function first(values: LuaValue[]): LuaValue {
  return values[0] ?? { type: 'nil' };
}

/** GetReplicas(obj) → replicas (a number, truncated to int32) and requirements (a table, or nil for none). */
export function luaGetReplicas(script: string, obj: Obj): { replicas: number; requirements?: Obj } {
  const fn = 'GetReplicas';
  const [count, requires] = callLuaFunction(script, fn, [obj], 2) as [LuaValue, LuaValue];
  const replicas = converted(fn, () => toInt32(count));
  if (requires.type === 'nil') return { replicas };
  if (requires.type !== 'table')
    throw new LuaHookError(`expect the returned requires type is table but got ${requires.type}`, fn);
  const requirements = converted(fn, () => toReplicaRequirements(tableResult(fn, requires, 'struct')));
  return { replicas, requirements };
}

/** ReviseReplica(obj, replicas) → the object with its replicas set; empty tables repaired against obj. */
export function luaReviseReplica(script: string, obj: Obj, replicas: number): Obj {
  const fn = 'ReviseReplica';
  const result = first(callLuaFunction(script, fn, [obj, Math.trunc(replicas)], 1));
  return converted(fn, () => toUnstructured(tableResult(fn, result, 'struct', [obj])));
}

/** Retain(desired, observed) → the object to apply; empty tables repaired against both. */
export function luaRetain(script: string, desired: Obj, observed: Obj): Obj {
  const fn = 'Retain';
  const result = first(callLuaFunction(script, fn, [desired, observed], 1));
  return converted(fn, () => toUnstructured(tableResult(fn, result, 'struct', [desired, observed])));
}

/**
 * AggregateStatus(desired, items) → the object with its status aggregated. Items go in as their JSON (applied only
 * when true, appliedMessage and health only when set), no items as an empty table, and null as nil: a nil Go slice
 * marshals to null, which is what karmadactl interpret passes without --status-file. Karmada passes no references
 * here, so an empty table in the result is dropped rather than kept as {} or [].
 */
export function luaAggregateStatus(script: string, desired: Obj, items: readonly AggregatedStatusItem[] | null): Obj {
  const fn = 'AggregateStatus';
  const itemJson = items?.map((item) => ({
    clusterName: item.clusterName,
    ...(item.status !== undefined && item.status !== null ? { status: item.status } : {}),
    ...(item.applied ? { applied: true } : {}),
    ...(item.appliedMessage ? { appliedMessage: item.appliedMessage } : {}),
    ...(item.health ? { health: item.health } : {}),
  }));
  // Karmada's status controller assembles the items into a slice it makes empty, not nil (helper/workstatus.go
  // assembleWorkStatus), so there no items reach the script as an empty table.
  const result = first(callLuaFunction(script, fn, [desired, itemJson ?? null], 1));
  return converted(fn, () => toUnstructured(tableResult(fn, result, 'struct')));
}

/** InterpretHealth(observed) → a boolean; nil or any other value is an error, not "unhealthy". */
export function luaInterpretHealth(script: string, observed: Obj): boolean {
  const fn = 'InterpretHealth';
  return converted(fn, () => toBool(first(callLuaFunction(script, fn, [observed], 1))));
}

/**
 * ReflectStatus(observed) → the status to report. Karmada requires a table: nil is an error ("… but got nil"),
 * so this never returns undefined; the return type keeps room for callers written against an optional status.
 * A table that encodes as a JSON array is refused: Flotilla keeps statuses as objects.
 */
export function luaReflectStatus(script: string, observed: Obj): Obj | undefined {
  const fn = 'ReflectStatus';
  const result = first(callLuaFunction(script, fn, [observed], 1));
  if (result.type !== 'table')
    throw new LuaHookError(`expect the returned replica type is table but got ${result.type}`, fn);
  const status = tableResult(fn, result, 'struct');
  if (typeof status !== 'object' || status === null || Array.isArray(status))
    throw new LuaHookError('expect the returned status to be an object but got an array', fn);
  return status;
}

/**
 * GetComponents(obj) → the components (name, replicas, replicaRequirements) or null when the script returns nil, as
 * Karmada's luavm.VM GetComponents reads them. Only `flotilla interpret` runs it: the control plane leaves
 * componentResource to Karmada's alpha MultiplePodTemplatesScheduling gate, off.
 */
export function luaGetComponents(script: string, obj: Obj): Obj[] | null {
  const fn = 'GetComponents';
  const result = first(callLuaFunction(script, fn, [obj], 1));
  if (result.type === 'nil') return null;
  if (result.type !== 'table')
    throw new LuaHookError(`expected result type 'table' or 'nil' from GetComponents, but got '${result.type}'`, fn);
  const list = tableResult(fn, result, 'slice', [obj]);
  if (!Array.isArray(list)) throw new LuaHookError('failed to convert lua table for components: not a list', fn);
  return list.map((item) =>
    converted(fn, () => {
      if (typeof item !== 'object' || item === null || Array.isArray(item))
        throw new LuaConvertError('failed to convert lua table for components: a component is not a table');
      const { name, replicas, replicaRequirements } = item as Obj;
      return {
        ...(name !== undefined ? { name } : {}),
        ...(replicas !== undefined ? { replicas } : {}),
        ...(replicaRequirements !== undefined
          ? { replicaRequirements: toReplicaRequirements(replicaRequirements as Json) }
          : {}),
      };
    }),
  );
}

/** GetDependencies(desired) → a list of references; an empty table is an empty list. */
export function luaGetDependencies(script: string, desired: Obj): DependentObjectReference[] {
  const fn = 'GetDependencies';
  const result = first(callLuaFunction(script, fn, [desired], 1));
  const references = converted(fn, () => toDependencies(tableResult(fn, result, 'slice')));
  const problems = dependencyProblems(references);
  if (problems.length > 0) throw new LuaHookError(problems.join('; '), fn);
  return references;
}

/**
 * Karmada's VerifyDependencies, which its configurable interpreter runs on every script's references: one bad
 * reference fails the whole interpretation.
 */
function dependencyProblems(references: readonly DependentObjectReference[]): string[] {
  const problems: string[] = [];
  references.forEach((d, i) => {
    const at = `dependencies[${i}]`;
    if (!d.apiVersion) problems.push(`${at}.apiVersion: Invalid value: "": missing required apiVersion`);
    if (!d.kind) problems.push(`${at}.kind: Invalid value: "": missing required kind`);
    if (!d.name && d.labelSelector === undefined)
      problems.push(`${at}: Invalid value: dependency can not leave name and labelSelector all empty`);
    const selector = d.labelSelector ? labelSelectorProblem(d.labelSelector as LabelSelector) : undefined;
    if (selector) problems.push(`${at}.labelSelector.${selector.path.join('.')}: Invalid value: ${selector.reason}`);
  });
  return problems;
}
