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
}

export interface InterpreterCustomization {
  apiVersion: 'flotilla.io/v1alpha1';
  kind: 'InterpreterCustomization';
  metadata: ObjectMeta;
  spec: {
    target: { apiVersion: string; kind: string };
    customizations: Customizations;
  };
}
