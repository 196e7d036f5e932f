import type { ResourceList } from '../api/cluster.ts';
import type { KindInterpreter } from './customizations.ts';
import { customReplicas } from './customizations.ts';
import { podSpecOf } from './podTemplate.ts';
import { replicaRequirements, type NodeClaim } from './replicaRequirements.ts';

export interface ReplicaInterpretation {
  /** 0 for kinds without an InterpretReplica hook: they are non-workloads, duplicated whole. */
  replicas: number;
  /** Per-replica resource requests of the pod template, as quantity strings. */
  resourceRequest?: ResourceList;
  nodeClaim?: NodeClaim;
}

/**
 * Karmada's native InterpretReplica (default/native/replica.go) for the kinds that have one; a declared
 * replicaResource hook (InterpreterCustomization) comes first, as a customization does in Karmada. Read as
 * given: an absent spec.replicas is 0 and an absent Job parallelism is 0, as Karmada reads a template (the
 * defaulting of what the API server would fill in happens before the interpreter, not in it).
 */
export function interpretReplicas(manifest: Record<string, unknown>, custom?: KindInterpreter): ReplicaInterpretation {
  const declared = custom ? customReplicas(custom, manifest) : undefined;
  if (declared) return declared;
  const spec = (manifest.spec ?? {}) as Record<string, unknown>;
  const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
  let replicas: number;
  switch (`${manifest.apiVersion}/${manifest.kind}`) {
    case 'apps/v1/Deployment':
    case 'apps/v1/StatefulSet':
    case 'apps/v1/ReplicaSet':
      replicas = int(spec.replicas) ?? 0;
      break;
    case 'batch/v1/Job': {
      // jobReplica: parallelism (nil → 0), capped by completions when those are set.
      const parallelism = int(spec.parallelism) ?? 0;
      replicas = Math.min(parallelism, int(spec.completions) ?? parallelism);
      break;
    }
    case 'v1/Pod':
      replicas = 1;
      break;
    default:
      return { replicas: 0 };
  }
  const podSpec = podSpecOf(manifest);
  return { replicas, ...(podSpec ? replicaRequirements(podSpec) : {}) };
}

/** Kinds whose count interpretReplicas reads; every other kind is read as 0 replicas (a non-workload). */
const NATIVE_REPLICA_KINDS = new Set([
  'apps/v1/Deployment',
  'apps/v1/StatefulSet',
  'apps/v1/ReplicaSet',
  'batch/v1/Job',
  'v1/Pod',
]);

/**
 * Whether a template of this kind can have replicas at all (interpretReplicas can read a count above 0): a native
 * kind with a count, or one a replicaResource hook declares one for. Without a template at hand: an answer for
 * every object of the kind.
 */
export function mayHaveReplicas(apiVersion: string, kind: string, custom?: KindInterpreter): boolean {
  return (
    custom?.replicaResource !== undefined ||
    custom?.lua?.replicaResource !== undefined ||
    custom?.thirdParty?.getReplicas !== undefined ||
    NATIVE_REPLICA_KINDS.has(`${apiVersion}/${kind}`)
  );
}
