import type { Health } from './conditions.ts';

type Obj = Record<string, unknown>;

/**
 * Health of one live object on one member, per kind as Karmada's native interpreter decides it
 * (pkg/resourceinterpreter/default/native/healthy.go). Kinds without a rule are Healthy.
 */
export function interpretHealth(live: Obj | undefined): Health {
  if (!live) return 'Unknown';
  const apiVersion = String(live.apiVersion ?? '');
  const kind = String(live.kind ?? '');
  const meta = (live.metadata ?? {}) as { generation?: number };
  const spec = (live.spec ?? {}) as Obj;
  const status = (live.status ?? {}) as Obj;
  const n = (v: unknown) => (typeof v === 'number' ? v : 0);
  const generationObserved = status.observedGeneration === meta.generation;

  switch (`${apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : ''}/${kind}`) {
    case 'apps/Deployment':
    case 'apps/StatefulSet': {
      const replicas = typeof spec.replicas === 'number' ? spec.replicas : 1;
      return generationObserved && n(status.updatedReplicas) >= replicas && n(status.availableReplicas) >= n(status.updatedReplicas) ? 'Healthy' : 'Unhealthy';
    }
    case 'apps/ReplicaSet': {
      const replicas = typeof spec.replicas === 'number' ? spec.replicas : 1;
      return generationObserved && n(status.availableReplicas) >= replicas ? 'Healthy' : 'Unhealthy';
    }
    case 'apps/DaemonSet':
      return generationObserved && n(status.updatedNumberScheduled) >= n(status.desiredNumberScheduled) && n(status.numberAvailable) >= n(status.updatedNumberScheduled)
        ? 'Healthy'
        : 'Unhealthy';
    case '/Pod': {
      if (status.phase === 'Succeeded') return 'Healthy';
      const ready = ((status.conditions ?? []) as { type: string; status: string }[]).some((c) => c.type === 'Ready' && c.status === 'True');
      return status.phase === 'Running' && ready ? 'Healthy' : 'Unhealthy';
    }
    case '/Service':
      if (spec.type !== 'LoadBalancer') return 'Healthy';
      return hasIngress(status) ? 'Healthy' : 'Unhealthy';
    case 'networking.k8s.io/Ingress':
      return hasIngress(status) ? 'Healthy' : 'Unhealthy';
    case '/PersistentVolumeClaim':
      return status.phase === 'Bound' ? 'Healthy' : 'Unhealthy';
    case 'policy/PodDisruptionBudget':
      return n(status.currentHealthy) >= n(status.desiredHealthy) ? 'Healthy' : 'Unhealthy';
    default:
      return 'Healthy';
  }
}

function hasIngress(status: Obj): boolean {
  const ingress = ((status.loadBalancer as { ingress?: { ip?: string; hostname?: string }[] } | undefined)?.ingress) ?? [];
  return ingress.some((i) => Boolean(i.ip || i.hostname));
}
