import type { Health } from '../api/conditions.ts';

type Obj = Record<string, unknown>;

/**
 * Health of one live object on one member, per kind as Karmada's native interpreter decides it
 * (pkg/resourceinterpreter/default/native/healthy.go). Rules are keyed by apiVersion and kind, as Karmada keys them:
 * a kind at another version (policy/v1beta1 PodDisruptionBudget, extensions/v1beta1 Ingress) has no rule. Kinds
 * without a rule are Healthy. Absent counters and generations read as 0, as Go's typed structs read them.
 */
export function interpretHealth(live: Obj | undefined): Health {
  if (!live) return 'Unknown';
  const meta = (live.metadata ?? {}) as Obj;
  const spec = (live.spec ?? {}) as Obj;
  const status = (live.status ?? {}) as Obj;
  const n = (v: unknown) => (typeof v === 'number' ? v : 0);
  const generationObserved = n(status.observedGeneration) === n(meta.generation);
  // A nil spec.replicas skips the comparison (Karmada checks `Spec.Replicas != nil` first).
  const replicas = typeof spec.replicas === 'number' ? spec.replicas : undefined;

  switch (`${String(live.apiVersion ?? '')}/${String(live.kind ?? '')}`) {
    case 'apps/v1/Deployment':
    case 'apps/v1/StatefulSet':
      return generationObserved &&
        (replicas === undefined || n(status.updatedReplicas) >= replicas) &&
        n(status.availableReplicas) >= n(status.updatedReplicas)
        ? 'Healthy'
        : 'Unhealthy';
    case 'apps/v1/ReplicaSet':
      return generationObserved && (replicas === undefined || n(status.availableReplicas) >= replicas)
        ? 'Healthy'
        : 'Unhealthy';
    case 'apps/v1/DaemonSet':
      return generationObserved &&
        n(status.updatedNumberScheduled) >= n(status.desiredNumberScheduled) &&
        n(status.numberAvailable) >= n(status.updatedNumberScheduled)
        ? 'Healthy'
        : 'Unhealthy';
    case 'v1/Pod': {
      if (status.phase === 'Succeeded') return 'Healthy';
      // GetPodCondition: the first Ready condition decides.
      const ready = (
        (Array.isArray(status.conditions) ? status.conditions : []) as { type?: string; status?: string }[]
      ).find((c) => c?.type === 'Ready');
      return status.phase === 'Running' && ready?.status === 'True' ? 'Healthy' : 'Unhealthy';
    }
    case 'v1/Service':
      if (spec.type !== 'LoadBalancer') return 'Healthy';
      return hasIngress(status) ? 'Healthy' : 'Unhealthy';
    case 'networking.k8s.io/v1/Ingress':
      return hasIngress(status) ? 'Healthy' : 'Unhealthy';
    case 'v1/PersistentVolumeClaim':
      return status.phase === 'Bound' ? 'Healthy' : 'Unhealthy';
    case 'policy/v1/PodDisruptionBudget':
      return n(status.currentHealthy) >= n(status.desiredHealthy) ? 'Healthy' : 'Unhealthy';
    default:
      return 'Healthy';
  }
}

function hasIngress(status: Obj): boolean {
  const ingress =
    (status.loadBalancer as { ingress?: { ip?: string; hostname?: string }[] } | undefined)?.ingress ?? [];
  return Array.isArray(ingress) && ingress.some((i) => Boolean(i?.ip || i?.hostname));
}
