import { parseQuantity, quantityMilliValue } from '../assignments/parseQuantity.ts';
import { podSpecOf } from './podTemplate.ts';

export interface ReplicaInterpretation {
  /** 0 for kinds without an InterpretReplica hook: they are non-workloads, duplicated whole. */
  replicas: number;
  /** Per-replica resource requests of the pod template, as quantity strings. */
  resourceRequest?: Record<string, string>;
}

/** Karmada's native InterpretReplica (default/native/replica.go) for the kinds that have one. */
export function interpretReplicas(manifest: Record<string, unknown>): ReplicaInterpretation {
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
  const resourceRequest = podRequests(podSpecOf(manifest));
  return resourceRequest ? { replicas, resourceRequest } : { replicas };
}

/** Sum of container requests, or the largest init container's if larger (how kube computes a pod's). */
function podRequests(podSpec: Record<string, unknown> | undefined): Record<string, string> | undefined {
  if (!podSpec) return undefined;
  const sum = new Map<string, number>();
  const add = (into: Map<string, number>, requests: Record<string, unknown> | undefined) => {
    for (const [k, v] of Object.entries(requests ?? {})) into.set(k, (into.get(k) ?? 0) + quantityNumber(v));
  };
  for (const c of (podSpec.containers as { resources?: { requests?: Record<string, unknown> } }[] | undefined) ?? []) add(sum, c.resources?.requests);
  for (const c of (podSpec.initContainers as { resources?: { requests?: Record<string, unknown> } }[] | undefined) ?? []) {
    const one = new Map<string, number>();
    add(one, c.resources?.requests);
    for (const [k, v] of one) if (v > (sum.get(k) ?? 0)) sum.set(k, v);
  }
  if (sum.size === 0) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of [...sum].sort(([a], [b]) => (a < b ? -1 : 1))) out[k] = k === 'cpu' ? `${Math.round(v * 1000)}m` : String(Math.round(v));
  return out;
}

/** A quantity as a number of base units ("500m" → 0.5); NaN when it does not parse. */
function quantityNumber(value: unknown): number {
  const q = typeof value === 'string' || typeof value === 'number' ? parseQuantity(value) : undefined;
  return q ? Number(quantityMilliValue(q)) / 1000 : Number.NaN;
}
