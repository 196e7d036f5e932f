// The interpreter Karmada bundles for a third-party kind (pkg/resourceinterpreter/default/thirdparty): Kruise, Flux,
// Kubeflow, Ray and other operators' workloads. Each operation has the signature of the Lua hook of the same name
// (lua/luaHooks.ts), so that a kind's bundled operation runs where a customization's script would, after it: Karmada
// asks its configurable interpreter (the commit's ResourceInterpreterCustomizations) first, then the third-party one,
// then the native one. Written for Flotilla from the behaviour Karmada documents and tests, not translated line by line.
import type { AggregatedStatusItem } from '../lua/luaHooks.ts';
import type { DependentObjectReference } from '../lua/luaConvert.ts';
import { LuaHookError } from '../lua/luaRuntime.ts';

export type Obj = Record<string, unknown>;
export type { AggregatedStatusItem, DependentObjectReference };

export interface ThirdPartyInterpreter {
  /** InterpretReplica: the replicas and, per replica, `{resourceRequest?, nodeClaim?}` (see replicaRequirements). */
  getReplicas?(desired: Obj): { replicas: number; requirements?: Obj };
  /** ReviseReplica: the object with a member's share of the replicas written in. */
  reviseReplica?(desired: Obj, replicas: number): Obj;
  /** Retain: what to apply, given what the member holds. */
  retain?(desired: Obj, observed: Obj): Obj;
  /** AggregateStatus: the template with its status made from the members' items. */
  aggregateStatus?(desired: Obj, items: readonly AggregatedStatusItem[]): Obj;
  /** InterpretHealth: whether the member's object is healthy. */
  interpretHealth?(observed: Obj): boolean;
  /** InterpretStatus (ReflectStatus): the status carried back from a member. */
  reflectStatus?(observed: Obj): Obj;
  /** InterpretDependency: the objects it needs on the same members. */
  getDependencies?(desired: Obj): DependentObjectReference[];
}

/** `<apiVersion>/<kind>` → its bundled interpreter. */
export type ThirdPartyTable = Readonly<Record<string, ThirdPartyInterpreter>>;

/** A bundled operation that failed, as a script of the same name would have: no customization of the user's to fix. */
export class BundledInterpreterError extends LuaHookError {
  override name = 'BundledInterpreterError';
}
