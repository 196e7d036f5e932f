import type { ResourceList } from '../api/cluster.ts';
import type { Customizations } from '../api/interpreterCustomization.ts';
import { customReplicas } from './customizations.ts';
import { podRequests } from './podRequests.ts';
import { podSpecOf } from './podTemplate.ts';

export interface ReplicaInterpretation {
  /** 0 for kinds without an InterpretReplica hook: they are non-workloads, duplicated whole. */
  replicas: number;
  /** Per-replica resource requests of the pod template, as quantity strings. */
  resourceRequest?: ResourceList;
}

/**
 * Karmada's native InterpretReplica (default/native/replica.go) for the kinds that have one; a declared
 * replicaResource hook (InterpreterCustomization) comes first, as a customization does in Karmada.
 */
export function interpretReplicas(manifest: Record<string, unknown>, custom?: Customizations): ReplicaInterpretation {
  const declared = custom ? customReplicas(custom, manifest) : undefined;
  if (declared) return declared;
  const spec = (manifest.spec ?? {}) as Record<string, unknown>;
  const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
  let replicas: number;
  switch (`${manifest.apiVersion}/${manifest.kind}`) {
    case 'apps/v1/Deployment':
    case 'apps/v1/StatefulSet':
    case 'apps/v1/ReplicaSet':
      replicas = num(spec.replicas, 0);
      break;
    case 'batch/v1/Job': {
      const parallelism = num(spec.parallelism, 1);
      replicas = spec.completions === undefined ? parallelism : Math.min(parallelism, num(spec.completions, parallelism));
      break;
    }
    case 'v1/Pod':
      replicas = 1;
      break;
    default:
      return { replicas: 0 };
  }
  const podSpec = podSpecOf(manifest);
  const resourceRequest = podSpec ? podRequests(podSpec) : {};
  return Object.keys(resourceRequest).length > 0 ? { replicas, resourceRequest } : { replicas };
}
