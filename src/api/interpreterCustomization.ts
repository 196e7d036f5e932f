// flotilla.io/v1alpha1 InterpreterCustomization: Karmada's ResourceInterpreterCustomization hooks for a
// custom kind, declared as paths and rules instead of Lua. Nothing in it is executed: Flotilla only reads
// the named fields, compares them, sums them and copies them.
import type { ObjectMeta } from './policy.ts';

/** A field path from the object's root: `spec.replicas`, `spec.template`, `spec.volumes[*].secret.name`, `status.conditions[0]`. */
export type FieldPath = string;

export type HealthRule =
  /** Compares a field with a constant or with another field; a missing number counts as 0, as Kubernetes omits zero counters. */
  | {
      field: FieldPath;
      op: '==' | '!=' | '>' | '>=' | '<' | '<=';
      value?: string | number | boolean;
      valueFrom?: FieldPath;
    }
  | { field: FieldPath; op: 'exists' | 'absent' }
  /** A status condition of this type has this status (`status.conditions` unless conditionsPath says otherwise). */
  | { condition: string; status: 'True' | 'False' | 'Unknown'; conditionsPath?: FieldPath };

export interface Customizations {
  /** InterpretReplica: replicas, and per-replica requests from a pod template or a resource list. */
  replicaResource?: { replicasPath: FieldPath; podTemplatePath?: FieldPath; resourceRequestPath?: FieldPath };
  /** ReviseReplica: where each member's share of the replicas is written. */
  replicaRevision?: { replicasPath: FieldPath };
  /** InterpretHealth: healthy when every rule holds. */
  healthInterpretation?: { rules: HealthRule[] };
  /** ReflectStatus: the status fields carried back from each member (paths under `status.`). */
  statusReflection?: { paths: FieldPath[] };
  /** AggregateStatus: the template's status; each listed field is the sum over members. */
  statusAggregation?: { sum: FieldPath[] };
  /** GetDependencies: objects in the workload's namespace named by these fields (a `[*]` path names many). */
  dependencyInterpretation?: { dependencies: { apiVersion: string; kind: string; namePath: FieldPath }[] };
  /** Retain: fields the member cluster owns; Flotilla never sends them. */
  retention?: { paths: FieldPath[] };
  /** Karmada's Lua hooks for the same kind (ResourceInterpreterCustomization): each replaces its declarative one. */
  lua?: LuaScripts;
}

/** The Lua scripts of a kind's ResourceInterpreterCustomizations, merged as Karmada's configmanager merges them. */
export interface LuaScripts {
  retention?: string;
  replicaResource?: string;
  replicaRevision?: string;
  statusReflection?: string;
  statusAggregation?: string;
  healthInterpretation?: string;
  /** Every customization's: their dependencies are united. */
  dependencyInterpretation?: string[];
}

/**
 * Karmada's CustomizationRules, in its order, which is also the order its webhook compiles and checks them for conflicts
 * (pkg/util/interpreter/rule.go AllResourceInterpreterCustomizationRules): componentResource too, though it is not run.
 */
export const CHECKED_LUA_HOOKS = [
  'retention',
  'replicaResource',
  'componentResource',
  'replicaRevision',
  'statusReflection',
  'statusAggregation',
  'healthInterpretation',
  'dependencyInterpretation',
] as const;

/** The hooks Flotilla runs: every one but componentResource (alpha in Karmada, off). */
export const LUA_HOOKS = CHECKED_LUA_HOOKS.filter(
  (hook): hook is Exclude<(typeof CHECKED_LUA_HOOKS)[number], 'componentResource'> => hook !== 'componentResource',
);
export type LuaHook = (typeof LUA_HOOKS)[number];

/** config.karmada.io/v1alpha1 ResourceInterpreterCustomization, as validation leaves it: every hook has a script. */
export interface ResourceInterpreterCustomization {
  apiVersion: 'config.karmada.io/v1alpha1';
  kind: 'ResourceInterpreterCustomization';
  metadata: ObjectMeta;
  spec: {
    target: { apiVersion: string; kind: string };
    customizations: Partial<Record<(typeof CHECKED_LUA_HOOKS)[number], { luaScript: string }>>;
  };
}

/** Either form, as a commit holds them. */
export type AnyInterpreterCustomization = InterpreterCustomization | ResourceInterpreterCustomization;

export interface InterpreterCustomization {
  apiVersion: 'flotilla.io/v1alpha1';
  kind: 'InterpreterCustomization';
  metadata: ObjectMeta;
  spec: {
    target: { apiVersion: string; kind: string };
    customizations: Customizations;
  };
}
