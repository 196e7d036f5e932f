// The interpreters Karmada bundles for Argo Workflows (argoproj.io/v1alpha1 Workflow) and for Kyverno policies
// (kyverno.io/v1 ClusterPolicy and Policy). Karmada runs them as Lua in its luavm, so their inputs and results go
// through the same conversions as a customization's script: arguments lose their null fields, {} and [] become the
// same empty table, and a returned table loses the empty tables the references do not hold. Each operation below
// works on such a "Lua view" of its input and converts its result the same way, so that it answers what Karmada's
// script answers, errors included (where the script would fail, this throws).
import { replicaRequirements } from '../replicaRequirements.ts';
import { luaType } from './luaTypeName.ts';
import {
  type Json,
  type JsonObject,
  type ResultShape,
  repairEmptyTables,
  toDependencies,
  toInt32,
  toReplicaRequirements,
  toUnstructured,
} from '../lua/luaConvert.ts';
import type {
  AggregatedStatusItem,
  DependentObjectReference,
  Obj,
  ThirdPartyInterpreter,
  ThirdPartyTable,
} from './thirdPartyInterpreter.ts';

// ---------------------------------------------------------------------------------------------------------------
// Values as the script sees them

/** A script failed where Karmada's Lua would have raised an error. */
class ScriptError extends Error {}

/** A Lua value: undefined is nil; a table is a plain object or, when it is a non-empty sequence, an array. */
type LuaTable = { [key: string]: Lua } | Lua[];
type Lua = undefined | boolean | number | string | LuaTable;

function isTable(v: Lua): v is LuaTable {
  return typeof v === 'object';
}

/**
 * An argument as the script receives it (Karmada's decodeValue): a copy without null fields, null array items
 * removed (the rest close up), and every empty object or array the same empty table.
 */
function toLua(value: unknown): Lua {
  if (value === null || value === undefined) return undefined;
  switch (typeof value) {
    case 'boolean':
    case 'string':
      return value;
    case 'number':
      return value === 0 ? 0 : value;
    case 'object':
      break;
    default:
      throw new ScriptError(`json Marshal obj ${typeof value} error: unsupported type`);
  }
  if (Array.isArray(value)) {
    const items = value.map(toLua).filter((v) => v !== undefined);
    return items.length > 0 ? items : {};
  }
  const json = 'toJSON' in value && typeof value.toJSON === 'function' ? value.toJSON() : value;
  if (json !== value) return toLua(json);
  const out: { [key: string]: Lua } = {};
  for (const [key, item] of Object.entries(value as Obj)) {
    const v = toLua(item);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** `t[key]`: nil for an absent key; a string indexes the string library (nothing these scripts read); else an error. */
function at(v: Lua, key: string | number): Lua {
  if (Array.isArray(v)) return typeof key === 'number' ? v[key - 1] : undefined;
  if (typeof v === 'object') return typeof key === 'string' && Object.hasOwn(v, key) ? v[key] : undefined;
  if (typeof v === 'string') return undefined;
  throw new ScriptError(`attempt to index a ${luaType(v)} value (key '${key}')`);
}

/**
 * `v.a ~= nil and v.a.b ~= nil and …`: v itself is indexed unguarded (an error when it is nil), each further step
 * only when the one before is not nil.
 */
function path(v: Lua, first: string, ...rest: string[]): Lua {
  let cur = at(v, first);
  for (const key of rest) {
    if (cur === undefined) return undefined;
    cur = at(cur, key);
  }
  return cur;
}

/** `t.key = value`. A non-empty sequence given a named field can no longer be encoded. */
function setField(t: Lua, key: string, value: Lua): void {
  if (Array.isArray(t))
    throw new ScriptError('encode lua result to json failed: cannot encode mixed or invalid key types');
  if (typeof t !== 'object') throw new ScriptError(`attempt to index a ${luaType(t)} value (key '${key}')`);
  if (value === undefined) delete t[key];
  else t[key] = value;
}

/** `#v`: a sequence's length, 0 for a table of named fields, a string's length in bytes. */
function len(v: Lua): number {
  if (Array.isArray(v)) return v.length;
  if (typeof v === 'object') return 0;
  if (typeof v === 'string') return Buffer.byteLength(v, 'utf8');
  throw new ScriptError(`attempt to get length of a ${luaType(v)} value`);
}

/** The values `pairs(v)` visits (in no order the scripts rely on). */
function values(v: Lua): Lua[] {
  if (Array.isArray(v)) return v;
  if (typeof v === 'object') return Object.values(v);
  throw new ScriptError(`bad argument #1 to 'pairs' (table expected, got ${luaType(v)})`);
}

/** `a .. b`: strings, and numbers in their printed form. */
function concat(...parts: Lua[]): string {
  return parts
    .map((p) => {
      if (typeof p === 'string') return p;
      if (typeof p === 'number') return String(p);
      throw new ScriptError(`attempt to concatenate a ${luaType(p)} value`);
    })
    .join('');
}

const NUMERAL = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
const HEX_NUMERAL = /^0[xX][0-9a-fA-F]+$/;

/** An arithmetic operand: a number, or a string that reads as one (Lua converts it); anything else is an error. */
function arithmetic(v: Lua): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const text = v.trim();
    if (NUMERAL.test(text)) return Number(text);
    if (HEX_NUMERAL.test(text)) return Number.parseInt(text.slice(2), 16);
  }
  throw new ScriptError(`attempt to perform arithmetic on a ${luaType(v)} value`);
}

/** gopher-json's Encode of a returned table: every empty table is [], a table reached twice cannot be encoded. */
function encode(v: Lua, seen: Set<LuaTable>): Json {
  if (v === undefined) return null;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) {
      const text = Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf';
      throw new ScriptError(`encode lua result to json failed: json: unsupported value: ${text}`);
    }
    return v === 0 ? 0 : v;
  }
  if (typeof v !== 'object') return v;
  if (seen.has(v))
    throw new ScriptError('encode lua result to json failed: cannot encode recursively nested tables to JSON');
  seen.add(v);
  if (Array.isArray(v)) return v.map((item) => encode(item, seen));
  const entries = Object.entries(v);
  if (entries.length === 0) return [];
  const out: JsonObject = {};
  for (const [key, item] of entries) out[key] = encode(item, seen);
  return out;
}

/** A returned table as Karmada reads it back (ConvertLuaResultInto): encoded, then its empty tables repaired. */
function fromLua(v: LuaTable, shape: ResultShape, references: readonly unknown[] = []): Json {
  return repairEmptyTables(encode(v, new Set()), shape, references);
}

/** A returned object, which must still have a kind. */
function returnedObject(v: Lua, references: readonly unknown[] = []): Obj {
  if (!isTable(v)) throw new ScriptError(`expect the returned type is table but got ${luaType(v)}`);
  return toUnstructured(fromLua(v, 'struct', references));
}

function returnedBool(v: Lua): boolean {
  if (typeof v !== 'boolean') throw new ScriptError(`result type ${luaType(v)} is not bool`);
  return v;
}

// ---------------------------------------------------------------------------------------------------------------
// argoproj.io/v1alpha1 Workflow

/**
 * kube.accuratePodRequirements of a template made of the workflow's affinity, nodeSelector and tolerations: the
 * template is read back as a PodTemplateSpec, its requirements are handed to the script and returned by it.
 */
function workflowRequirements(spec: Lua): Obj | undefined {
  const podSpec: { [key: string]: Lua } = {};
  for (const field of ['affinity', 'nodeSelector', 'tolerations']) {
    const value = at(spec, field);
    if (value !== undefined) podSpec[field] = value;
  }
  const template = fromLua({ spec: podSpec }, 'struct') as JsonObject;
  const templateSpec = template.spec;
  const requirements = replicaRequirements(
    typeof templateSpec === 'object' && templateSpec !== null && !Array.isArray(templateSpec) ? templateSpec : {},
  );
  if (!requirements.resourceRequest && !requirements.nodeClaim) return undefined;
  return toReplicaRequirements(fromLua(toLua(requirements) as LuaTable, 'struct'));
}

function workflowReplicas(desired: Obj): { replicas: number; requirements?: Obj } {
  const spec = at(toLua(desired), 'spec');
  const parallelism = at(spec, 'parallelism');
  const count = parallelism === undefined ? 1 : parallelism;
  const requirements = workflowRequirements(spec);
  if (typeof count !== 'number') throw new ScriptError(`result type ${luaType(count)} is not number`);
  const replicas = toInt32({ type: 'number', value: count });
  return requirements ? { replicas, requirements } : { replicas };
}

function workflowReviseReplica(desired: Obj, replicas: number): Obj {
  const obj = toLua(desired);
  setField(at(obj, 'spec'), 'parallelism', Math.trunc(replicas));
  return returnedObject(obj, [desired]);
}

/** The member keeps whether the workflow is suspended, and its status. */
function workflowRetain(desired: Obj, observed: Obj): Obj {
  const want = toLua(desired);
  const have = toLua(observed);
  const suspend = at(at(have, 'spec'), 'suspend');
  if (suspend !== undefined) setField(at(want, 'spec'), 'suspend', suspend);
  const status = at(have, 'status');
  if (status !== undefined) setField(want, 'status', status);
  return returnedObject(want, [desired, observed]);
}

/** Healthy once it has a phase other than Error or Failed (Pending and Running count as healthy). */
function workflowHealth(observed: Obj): boolean {
  const status = at(toLua(observed), 'status');
  if (status === undefined) return false;
  const phase = at(status, 'phase');
  return !(phase === undefined || phase === '' || phase === 'Error' || phase === 'Failed');
}

const named = (v: Lua): boolean => v !== undefined && v !== '';

/** Volume sources that name a Secret, by the path of the name inside the volume. */
const VOLUME_SECRETS: readonly (readonly [string, ...string[]])[] = [
  ['azureFile', 'secretName'],
  ['cephfs', 'secretRef', 'name'],
  ['cinder', 'secretRef', 'name'],
  ['flexVolume', 'secretRef', 'name'],
  ['rbd', 'secretRef', 'name'],
  // Karmada reads `secret.name` (not the core API's `secret.secretName`), so a secret volume adds nothing in practice.
  ['secret', 'name'],
  ['scaleIO', 'secretRef', 'name'],
  ['iscsi', 'secretRef', 'name'],
  ['storageos', 'secretRef', 'name'],
  ['csi', 'nodePublishSecretRef', 'name'],
];

/** Go's string order (bytes), which Karmada sorts references by. */
function goCompare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * The ConfigMaps, Secrets, ServiceAccounts and PersistentVolumeClaims the workflow names, in its namespace: the
 * executor's and the workflow's service account (not "default"), claim templates, volumes (including projected
 * sources) and image pull secrets. Sorted as Karmada's bundled interpreter returns them.
 */
function workflowDependencies(desired: Obj): DependentObjectReference[] {
  const obj = toLua(desired);
  const spec = at(obj, 'spec');
  const configMaps = new Set<Lua>();
  const secrets = new Set<Lua>();
  const serviceAccounts = new Set<Lua>();
  const claims = new Set<Lua>();
  const add = (into: Set<Lua>, name: Lua): void => {
    if (named(name)) into.add(name);
  };

  add(serviceAccounts, path(spec, 'executor', 'serviceAccountName'));
  const claimTemplates = at(spec, 'volumeClaimTemplates');
  if (claimTemplates !== undefined)
    for (const claim of values(claimTemplates)) add(claims, at(at(claim, 'metadata'), 'name'));
  const volumes = at(spec, 'volumes');
  for (const volume of volumes === undefined ? [] : values(volumes)) {
    add(configMaps, path(volume, 'configMap', 'name'));
    const sources = path(volume, 'projected', 'sources');
    if (sources !== undefined) {
      for (const source of values(sources)) {
        add(configMaps, path(source, 'configMap', 'name'));
        add(secrets, path(source, 'secret', 'name'));
      }
    }
    for (const keys of VOLUME_SECRETS) add(secrets, path(volume, ...keys));
    add(claims, path(volume, 'persistentVolumeClaim', 'claimName'));
  }
  const pullSecrets = at(spec, 'imagePullSecrets');
  if (pullSecrets !== undefined) for (const ref of values(pullSecrets)) add(secrets, at(ref, 'name'));
  const serviceAccount = at(spec, 'serviceAccountName');
  if (named(serviceAccount) && serviceAccount !== 'default') serviceAccounts.add(serviceAccount);

  const refs: Lua[] = [];
  const groups: [string, Set<Lua>][] = [
    ['ConfigMap', configMaps],
    ['Secret', secrets],
    ['ServiceAccount', serviceAccounts],
    ['PersistentVolumeClaim', claims],
  ];
  for (const [kind, names] of groups) {
    for (const name of names) {
      const ref: { [key: string]: Lua } = { apiVersion: 'v1', kind, name };
      const namespace = at(at(obj, 'metadata'), 'namespace');
      if (namespace !== undefined) ref.namespace = namespace;
      refs.push(ref);
    }
  }
  const references = toDependencies(fromLua(refs.length > 0 ? (refs as LuaTable) : {}, 'slice'));
  // Karmada's VerifyDependencies: a name that was an empty table is gone after the conversion.
  const unnamed = references.findIndex((ref) => !ref.name);
  if (unnamed >= 0)
    throw new ScriptError(
      `dependencies[${unnamed}]: Invalid value: dependency can not leave name and labelSelector all empty`,
    );
  return references.sort(
    (a, b) =>
      goCompare(a.apiVersion, b.apiVersion) ||
      goCompare(a.kind, b.kind) ||
      goCompare(a.namespace ?? '', b.namespace ?? '') ||
      goCompare(a.name ?? '', b.name ?? ''),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// kyverno.io/v1 ClusterPolicy and Policy

/** `status.ready` when set (it must be a boolean), else whether a Ready condition is True with reason Succeeded. */
function policyHealth(observed: Obj): boolean {
  const status = at(toLua(observed), 'status');
  if (status === undefined) return false;
  const ready = at(status, 'ready');
  if (ready !== undefined) return returnedBool(ready);
  const conditions = at(status, 'conditions');
  if (conditions === undefined) return false;
  for (let i = 1, n = len(conditions); i <= n; i++) {
    const condition = at(conditions, i);
    if (
      at(condition, 'type') === 'Ready' &&
      at(condition, 'status') === 'True' &&
      at(condition, 'reason') === 'Succeeded'
    )
      return true;
  }
  return false;
}

/** What a member reports: its status's ready, conditions, autogen and rulecount, and nothing else. */
function policyReflectStatus(observed: Obj): Obj {
  const reflected: { [key: string]: Lua } = {};
  const status = at(toLua(observed), 'status');
  if (status !== undefined) {
    for (const field of ['ready', 'conditions', 'autogen', 'rulecount']) {
      const value = at(status, field);
      if (value !== undefined) reflected[field] = value;
    }
  }
  return fromLua(reflected, 'struct') as JsonObject;
}

const RULE_KINDS = ['validate', 'generate', 'mutate', 'verifyimages'] as const;

/**
 * The policy's status from its members': the last member's ready and autogen, rule counts summed, and conditions
 * with the same type, status and reason merged into one whose message lists `<cluster>=<message>` for each member.
 * With no member status at all the policy is returned unchanged.
 */
function policyAggregateStatus(desired: Obj, items: readonly AggregatedStatusItem[]): Obj {
  const obj = toLua(desired);
  if (items.length === 0) return returnedObject(obj);
  const members = toLua(
    items.map((item) => ({
      clusterName: item.clusterName,
      ...(item.status !== undefined && item.status !== null ? { status: item.status } : {}),
      ...(item.applied ? { applied: true } : {}),
      ...(item.appliedMessage ? { appliedMessage: item.appliedMessage } : {}),
      ...(item.health ? { health: item.health } : {}),
    })),
  );
  const status: { [key: string]: Lua } = {};
  setField(obj, 'status', status);
  const ruleCount: Record<(typeof RULE_KINDS)[number], number> = {
    validate: 0,
    generate: 0,
    mutate: 0,
    verifyimages: 0,
  };
  const conditions: Lua[] = [];
  for (let i = 1, n = len(members); i <= n; i++) {
    const member = at(members, i);
    const memberStatus = at(member, 'status');
    if (memberStatus === undefined) continue;
    const autogen = at(memberStatus, 'autogen');
    if (autogen !== undefined) status.autogen = autogen;
    const ready = at(memberStatus, 'ready');
    if (ready !== undefined) status.ready = ready;
    const counts = at(memberStatus, 'rulecount');
    if (counts !== undefined)
      for (const kind of RULE_KINDS) ruleCount[kind] = ruleCount[kind] + arithmetic(at(counts, kind));
    const memberConditions = at(memberStatus, 'conditions');
    if (memberConditions === undefined) continue;
    for (let c = 1, m = len(memberConditions); c <= m; c++) {
      const condition = at(memberConditions, c);
      setField(condition, 'message', concat(at(member, 'clusterName'), '=', at(condition, 'message')));
      const same = conditions.find(
        (known) =>
          at(known, 'type') === at(condition, 'type') &&
          at(known, 'status') === at(condition, 'status') &&
          at(known, 'reason') === at(condition, 'reason'),
      );
      if (same !== undefined) setField(same, 'message', concat(at(same, 'message'), ', ', at(condition, 'message')));
      else conditions.push(condition);
    }
  }
  status.rulecount = { ...ruleCount };
  status.conditions = conditions.length > 0 ? conditions : {};
  return returnedObject(obj);
}

const KYVERNO_POLICY: ThirdPartyInterpreter = {
  interpretHealth: policyHealth,
  aggregateStatus: policyAggregateStatus,
  reflectStatus: policyReflectStatus,
};

export const ARGO_KYVERNO: ThirdPartyTable = {
  'argoproj.io/v1alpha1/Workflow': {
    getReplicas: workflowReplicas,
    reviseReplica: workflowReviseReplica,
    retain: workflowRetain,
    interpretHealth: workflowHealth,
    getDependencies: workflowDependencies,
  },
  'kyverno.io/v1/ClusterPolicy': KYVERNO_POLICY,
  'kyverno.io/v1/Policy': KYVERNO_POLICY,
};
