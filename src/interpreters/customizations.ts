// The hooks of a kind's customizations, applied to one object: Karmada's ResourceInterpreterCustomization Lua
// scripts, run sandboxed (interpreters/lua), Flotilla's declarative InterpreterCustomization, which reads the fields
// it names, and the interpreters Karmada bundles for third-party kinds (interpreters/thirdParty). For each operation
// the first that has it answers: a Lua hook, as Karmada's configurable interpreter comes first, then the declarative
// one, then the bundled one; a kind none of them covers is left to the native interpreter.
import type { ResourceList } from '../api/cluster.ts';
import {
  LUA_HOOKS,
  type AnyInterpreterCustomization,
  type Customizations,
  type HealthRule,
  type LuaScripts,
} from '../api/interpreterCustomization.ts';
import type { ObjectRef } from '../api/kinds.ts';
import { preferredApiVersion } from '../api/servedApis.ts';
import type { ConfigModel, Located } from '../api/model.ts';
import type { Health } from '../api/conditions.ts';
import { read, readAll, remove, write } from './fieldPath.ts';
import { isSecret } from './isSecret.ts';
import { appliedFailedMessage } from '../branches/status/statusFiles.ts';
import { replicaRequirements, type NodeClaim } from './replicaRequirements.ts';
import type { DependentObjectReference } from './lua/luaConvert.ts';
import type { ThirdPartyInterpreter } from './thirdParty/thirdPartyInterpreter.ts';
import { THIRD_PARTY_INTERPRETERS } from './thirdParty/thirdPartyInterpreters.ts';
import {
  luaAggregateStatus,
  luaGetDependencies,
  luaGetReplicas,
  luaInterpretHealth,
  luaReflectStatus,
  luaRetain,
  luaReviseReplica,
} from './lua/luaHooks.ts';

type Obj = Record<string, unknown>;

/** A kind's customizations, and the interpreter Karmada bundles for it when it is a third-party kind it knows. */
export interface KindInterpreter extends Customizations {
  thirdParty?: ThirdPartyInterpreter;
}

/** `<apiVersion>/<kind>` → the hooks declared or bundled for it. */
export type InterpreterSet = ReadonlyMap<string, KindInterpreter>;

/**
 * One set per commit. A kind with two declarative customizations is reported by validation, and the first file (by
 * path) wins; its ResourceInterpreterCustomizations merge in name order, the first script of each operation winning
 * and every dependency script kept (Karmada's configmanager).
 */
export function interpreterSet(list: readonly Located<AnyInterpreterCustomization>[]): InterpreterSet {
  const out = new Map<string, KindInterpreter>();
  const lua = new Map<string, LuaScripts>();
  const karmada = list
    .filter((c) => c.object.kind === 'ResourceInterpreterCustomization')
    .sort((a, b) =>
      a.object.metadata.name < b.object.metadata.name ? -1 : a.object.metadata.name > b.object.metadata.name ? 1 : 0,
    );
  for (const { object } of list) {
    if (object.kind !== 'InterpreterCustomization') continue;
    const key = `${object.spec.target.apiVersion}/${object.spec.target.kind}`;
    if (!out.has(key)) out.set(key, object.spec.customizations ?? {});
  }
  for (const { object } of karmada) {
    if (object.kind !== 'ResourceInterpreterCustomization') continue;
    const key = `${object.spec.target.apiVersion}/${object.spec.target.kind}`;
    const scripts = lua.get(key) ?? {};
    for (const hook of LUA_HOOKS) {
      const script = object.spec.customizations[hook]?.luaScript;
      if (!script) continue;
      if (hook === 'dependencyInterpretation')
        scripts.dependencyInterpretation = [...(scripts.dependencyInterpretation ?? []), script];
      else scripts[hook] ??= script;
    }
    lua.set(key, scripts);
  }
  for (const [key, scripts] of lua) out.set(key, { ...(out.get(key) ?? {}), lua: scripts });
  for (const [key, thirdParty] of THIRD_PARTY_INTERPRETERS) out.set(key, { ...(out.get(key) ?? {}), thirdParty });
  return out;
}

/** What a commit without customizations interprets with: the bundled third-party interpreters. */
export const BUILT_IN_INTERPRETERS: InterpreterSet = interpreterSet([]);

/** Whether any customization of the commit runs Lua: the runtime must be loaded before the render runs them. */
export function hasLuaCustomizations(list: readonly Located<AnyInterpreterCustomization>[]): boolean {
  return list.some((c) => c.object.kind === 'ResourceInterpreterCustomization');
}

const setCache = new WeakMap<ConfigModel, InterpreterSet>();

/** The commit's set, built once per model: every template of a render looks its kind up. */
export function interpretersOf(model: ConfigModel): InterpreterSet {
  let set = setCache.get(model);
  if (!set)
    setCache.set(
      model,
      (set = model.interpreterCustomizations.length
        ? interpreterSet(model.interpreterCustomizations)
        : BUILT_IN_INTERPRETERS),
    );
  return set;
}

/**
 * The customization of an object's kind at the version Karmada's detector sees it (an HPA written as autoscaling/v1 is
 * interpreted by the customization of autoscaling/v2), as every interpreter call there gets the object at that version.
 */
export function customizationFor(
  set: InterpreterSet,
  obj: { apiVersion?: unknown; kind?: unknown },
): KindInterpreter | undefined {
  const kind = String(obj.kind);
  return set.get(`${preferredApiVersion(String(obj.apiVersion), kind)}/${kind}`);
}

export function customReplicas(
  c: KindInterpreter,
  manifest: Obj,
): { replicas: number; resourceRequest?: ResourceList; nodeClaim?: NodeClaim } | undefined {
  if (c.lua?.replicaResource) return replicasOfHook(luaGetReplicas(c.lua.replicaResource, manifest));
  const hook = c.replicaResource;
  if (!hook) return c.thirdParty?.getReplicas ? replicasOfHook(c.thirdParty.getReplicas(manifest)) : undefined;
  const value = read(manifest, hook.replicasPath);
  const replicas = typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
  let requests: ResourceList = {};
  if (hook.podTemplatePath) {
    // What Karmada's kube.accuratePodRequirements gives a Lua hook: GenerateReplicaRequirements of the template.
    const spec = (read(manifest, hook.podTemplatePath) as Obj | undefined)?.spec;
    return {
      replicas,
      ...(spec && typeof spec === 'object' && !Array.isArray(spec) ? replicaRequirements(spec as Obj) : {}),
    };
  } else if (hook.resourceRequestPath) {
    const list = read(manifest, hook.resourceRequestPath);
    if (list && typeof list === 'object' && !Array.isArray(list))
      requests = Object.fromEntries(
        Object.entries(list as Obj).filter(([, v]) => typeof v === 'string' || typeof v === 'number'),
      ) as ResourceList;
  }
  return Object.keys(requests).length > 0 ? { replicas, resourceRequest: requests } : { replicas };
}

/** What GetReplicas gives, as the scheduler reads it: no negative count, no empty requirement. */
function replicasOfHook({ replicas, requirements }: { replicas: number; requirements?: Obj }): {
  replicas: number;
  resourceRequest?: ResourceList;
  nodeClaim?: NodeClaim;
} {
  const request = requirements?.resourceRequest as ResourceList | undefined;
  const nodeClaim = requirements?.nodeClaim as NodeClaim | undefined;
  return {
    replicas: Math.max(replicas, 0),
    ...(request && Object.keys(request).length > 0 ? { resourceRequest: request } : {}),
    ...(nodeClaim && Object.keys(nodeClaim).length > 0 ? { nodeClaim } : {}),
  };
}

/** undefined when the kind has no ReviseReplica hook: its manifest keeps the template's replicas. */
export function customReviseReplicas(c: KindInterpreter, manifest: Obj, replicas: number): Obj | undefined {
  if (c.lua?.replicaRevision) return luaReviseReplica(c.lua.replicaRevision, manifest, replicas);
  if (c.replicaRevision) return write(manifest, c.replicaRevision.replicasPath, replicas);
  return c.thirdParty?.reviseReplica?.(manifest, Math.trunc(replicas));
}

export function customDependencies(c: KindInterpreter, written: Obj, namespace: string): ObjectRef[] | undefined {
  // The scripts read the object as the API server stores it, in its namespace even where the file names none.
  const meta = written.metadata as Obj | undefined;
  const manifest = namespace && !meta?.namespace ? { ...written, metadata: { ...meta, namespace } } : written;
  if (c.lua?.dependencyInterpretation)
    return namedDependencies(c.lua.dependencyInterpretation.flatMap((script) => luaGetDependencies(script, manifest)));
  const hook = c.dependencyInterpretation;
  if (!hook) {
    const bundled = c.thirdParty?.getDependencies;
    return bundled ? namedDependencies(bundled(manifest)) : undefined;
  }
  const found = new Map<string, ObjectRef>();
  for (const d of hook.dependencies) {
    for (const name of readAll(manifest, d.namePath)) {
      if (typeof name === 'string' && name !== '')
        found.set(`${d.apiVersion}/${d.kind}/${name}`, { apiVersion: d.apiVersion, kind: d.kind, namespace, name });
    }
  }
  return inConfigurableOrder(found.values());
}

/**
 * The references of every dependency script (or of the bundled interpreter), united, by name. A reference without a
 * namespace names a cluster-scoped object (DependentObjectReference: "If Namespace is not specified, means the
 * resource is non-namespace scoped"): nothing defaults it, so a ConfigMap named that way is not found and not
 * propagated, and a ClusterRole is. A reference by labelSelector alone is not followed (Flotilla's dependencies are
 * named objects).
 */
function namedDependencies(references: readonly DependentObjectReference[]): ObjectRef[] {
  const found = new Map<string, ObjectRef>();
  for (const d of references) {
    if (!d.name) continue;
    const ns = d.namespace ?? '';
    found.set(`${d.apiVersion}/${d.kind}/${ns}/${d.name}`, {
      apiVersion: d.apiVersion,
      kind: d.kind,
      namespace: ns,
      name: d.name,
    });
  }
  return inConfigurableOrder(found.values());
}

/** The configurable interpreter's order (configurable.go GetDependencies): apiVersion, kind, namespace, name. */
function inConfigurableOrder(refs: Iterable<ObjectRef>): ObjectRef[] {
  const key = (r: ObjectRef) => [r.apiVersion, r.kind, r.namespace, r.name];
  return [...refs].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return (ka[i] as string) < (kb[i] as string) ? -1 : 1;
    return 0;
  });
}

/**
 * Karmada's Retain through a Lua hook, run by the applier before it updates an object the member has: what the
 * script returns is applied. Undefined when the kind has no Lua retention (the built-in rule then runs).
 */
export function customRetainLive(c: KindInterpreter | undefined, desired: Obj, observed: Obj): Obj | undefined {
  if (c?.lua?.retention) return luaRetain(c.lua.retention, desired, observed);
  // A declarative retention was applied by the render already: the built-in rule runs on what it left.
  if (c?.retention) return undefined;
  return c?.thirdParty?.retain?.(desired, observed);
}

/** Fields the member owns are left out of what Flotilla applies, so server-side apply leaves them alone. */
export function customRetain(c: Customizations, manifest: Obj): Obj {
  return (c.retention?.paths ?? []).reduce((m, p) => remove(m, p), manifest);
}

export function customHealth(c: KindInterpreter, live: Obj): Health | undefined {
  if (c.lua?.healthInterpretation && !isSecret(live)) {
    // Karmada's work status controller: an interpretation that fails is Unknown health.
    try {
      return luaInterpretHealth(c.lua.healthInterpretation, live) ? 'Healthy' : 'Unhealthy';
    } catch {
      return 'Unknown';
    }
  }
  const rules = c.healthInterpretation?.rules;
  if (rules) return rules.every((r) => holds(r, live)) ? 'Healthy' : 'Unhealthy';
  const bundled = c.thirdParty?.interpretHealth;
  if (!bundled || isSecret(live)) return undefined;
  try {
    return bundled(live) ? 'Healthy' : 'Unhealthy';
  } catch {
    return 'Unknown';
  }
}

function holds(rule: HealthRule, live: Obj): boolean {
  if ('condition' in rule) {
    const list = read(live, rule.conditionsPath ?? 'status.conditions');
    return (
      Array.isArray(list) && list.some((x) => (x as Obj)?.type === rule.condition && (x as Obj)?.status === rule.status)
    );
  }
  const actual = read(live, rule.field);
  if (rule.op === 'exists' || rule.op === 'absent')
    return (actual !== undefined && actual !== null) === (rule.op === 'exists');
  const compare = rule as Extract<HealthRule, { value?: unknown }>;
  const expected = compare.valueFrom !== undefined ? read(live, compare.valueFrom) : compare.value;
  const numeric = typeof actual === 'number' || typeof expected === 'number';
  const a = numeric ? (typeof actual === 'number' ? actual : 0) : actual;
  const b = numeric ? (typeof expected === 'number' ? expected : 0) : expected;
  switch (compare.op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '>':
      return numeric && (a as number) > (b as number);
    case '>=':
      return numeric && (a as number) >= (b as number);
    case '<':
      return numeric && (a as number) < (b as number);
    case '<=':
      return numeric && (a as number) <= (b as number);
  }
}

/**
 * The reflected status: a Lua or bundled hook's, else only the listed fields at their place under status; never
 * anything of a Secret. Undefined: no hook for it, the built-in reflection decides. Null: the hook failed, and as
 * Karmada's work status controller then updates nothing, the member's last reflected status and health stand.
 */
export function customReflectStatus(c: KindInterpreter, live: Obj): Obj | undefined | null {
  if (c.lua?.statusReflection) {
    if (isSecret(live)) return undefined;
    try {
      return luaReflectStatus(c.lua.statusReflection, live) ?? {};
    } catch {
      return null;
    }
  }
  const paths = c.statusReflection?.paths;
  if (!paths) {
    const bundled = c.thirdParty?.reflectStatus;
    if (!bundled || isSecret(live)) return undefined;
    try {
      return bundled(live);
    } catch {
      return null;
    }
  }
  if (isSecret(live)) return undefined;
  let out: Obj = {};
  for (const p of paths) {
    const v = read(live, p);
    if (v !== undefined) out = write(out, underStatus(p), v);
  }
  return out;
}

/** What a Lua AggregateStatus hook is given of each member (Karmada's AggregatedStatusItem). */
export interface StatusItem {
  clusterName: string;
  status?: Obj;
  applied?: boolean;
  message?: string;
  health?: string;
}

/**
 * The template's status: a Lua hook's (given the template's identity and last aggregated status, and each member's
 * item), else each listed field summed over the members' reflected statuses.
 */
export function customAggregateStatus(
  c: KindInterpreter,
  items: readonly StatusItem[],
  template?: { apiVersion: string; kind: string; metadata: Obj; status?: unknown },
): Obj | undefined {
  const script = c.lua?.statusAggregation;
  const bundled = c.statusAggregation ? undefined : c.thirdParty?.aggregateStatus;
  if (script || bundled) {
    try {
      const desired: Obj = template ? { ...template } : {};
      const aggregated = items.map((i) => ({
        clusterName: i.clusterName,
        ...(i.status ? { status: i.status } : {}),
        // As Karmada's AggregatedStatusItem reaches an interpreter: applied only when true (omitempty).
        ...(i.applied ? { applied: true } : {}),
        // The Work's Applied condition message, as the binding's item carries it; an applied item has none.
        ...(!i.applied && i.message !== undefined ? { appliedMessage: appliedFailedMessage(i) } : {}),
        ...(i.health ? { health: i.health } : {}),
      }));
      const out = script ? luaAggregateStatus(script, desired, aggregated) : bundled!(desired, aggregated);
      const status = out.status;
      return status && typeof status === 'object' && !Array.isArray(status) ? (status as Obj) : {};
    } catch {
      return undefined;
    }
  }
  const statuses = items.map((i) => i.status ?? {});
  const sum = c.statusAggregation?.sum;
  if (!sum) return undefined;
  let out: Obj = {};
  for (const p of sum) {
    const rel = underStatus(p);
    out = write(
      out,
      rel,
      statuses.reduce((acc, s) => acc + (typeof read(s, rel) === 'number' ? (read(s, rel) as number) : 0), 0),
    );
  }
  return out;
}

/** Paths are written from the object's root (`status.readyReplicas`); reflected statuses hold what is under status. */
function underStatus(path: string): string {
  return path.startsWith('status.') ? path.slice('status.'.length) : path;
}
