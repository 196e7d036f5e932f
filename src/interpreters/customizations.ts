// The hooks of a flotilla.io/v1alpha1 InterpreterCustomization, applied to one object. Each function is
// the declarative counterpart of one of Karmada's Lua hooks (ResourceInterpreterCustomization): it reads
// the fields the customization names and never runs anything the config repo supplies.
import type { ResourceList } from '../api/cluster.ts';
import type { Customizations, HealthRule, InterpreterCustomization } from '../api/interpreterCustomization.ts';
import type { ObjectRef } from '../api/kinds.ts';
import type { ConfigModel, Located } from '../api/model.ts';
import type { Health } from '../api/conditions.ts';
import { read, readAll, remove, write } from './fieldPath.ts';
import { isSecret } from './isSecret.ts';
import { replicaRequirements, type NodeClaim } from './replicaRequirements.ts';

type Obj = Record<string, unknown>;

/** `<apiVersion>/<kind>` → the hooks declared for it. */
export type InterpreterSet = ReadonlyMap<string, Customizations>;

export const NO_CUSTOMIZATIONS: InterpreterSet = new Map();

/** One set per commit; a kind customized twice is reported by validation, and the first file (by path) wins. */
export function interpreterSet(list: readonly Located<InterpreterCustomization>[]): InterpreterSet {
  const out = new Map<string, Customizations>();
  for (const { object } of list) {
    const key = `${object.spec.target.apiVersion}/${object.spec.target.kind}`;
    if (!out.has(key)) out.set(key, object.spec.customizations ?? {});
  }
  return out;
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
        : NO_CUSTOMIZATIONS),
    );
  return set;
}

export function customizationFor(
  set: InterpreterSet,
  obj: { apiVersion?: unknown; kind?: unknown },
): Customizations | undefined {
  return set.get(`${String(obj.apiVersion)}/${String(obj.kind)}`);
}

export function customReplicas(
  c: Customizations,
  manifest: Obj,
): { replicas: number; resourceRequest?: ResourceList; nodeClaim?: NodeClaim } | undefined {
  const hook = c.replicaResource;
  if (!hook) return undefined;
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

/** undefined when the kind has no ReviseReplica hook: its manifest keeps the template's replicas. */
export function customReviseReplicas(c: Customizations, manifest: Obj, replicas: number): Obj | undefined {
  return c.replicaRevision ? write(manifest, c.replicaRevision.replicasPath, replicas) : undefined;
}

export function customDependencies(c: Customizations, manifest: Obj, namespace: string): ObjectRef[] | undefined {
  const hook = c.dependencyInterpretation;
  if (!hook) return undefined;
  const found = new Map<string, ObjectRef>();
  for (const d of hook.dependencies) {
    for (const name of readAll(manifest, d.namePath)) {
      if (typeof name === 'string' && name !== '')
        found.set(`${d.apiVersion}/${d.kind}/${name}`, { apiVersion: d.apiVersion, kind: d.kind, namespace, name });
    }
  }
  return [...found.values()].sort((a, b) => (`${a.kind}/${a.name}` < `${b.kind}/${b.name}` ? -1 : 1));
}

/** Fields the member owns are left out of what Flotilla applies, so server-side apply leaves them alone. */
export function customRetain(c: Customizations, manifest: Obj): Obj {
  return (c.retention?.paths ?? []).reduce((m, p) => remove(m, p), manifest);
}

export function customHealth(c: Customizations, live: Obj): Health | undefined {
  const rules = c.healthInterpretation?.rules;
  if (!rules) return undefined;
  return rules.every((r) => holds(r, live)) ? 'Healthy' : 'Unhealthy';
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

/** The reflected status: only the listed fields, at their place under status. Never anything of a Secret. */
export function customReflectStatus(c: Customizations, live: Obj): Obj | undefined {
  const paths = c.statusReflection?.paths;
  if (!paths || isSecret(live)) return undefined;
  let out: Obj = {};
  for (const p of paths) {
    const v = read(live, p);
    if (v !== undefined) out = write(out, underStatus(p), v);
  }
  return out;
}

/** The template's status: each listed field summed over the members' reflected statuses. */
export function customAggregateStatus(c: Customizations, statuses: readonly Obj[]): Obj | undefined {
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
