import { isSecret } from '../interpreters/isSecret.ts';

type Obj = Record<string, unknown>;

const TEMPLATE_GENERATION = 'resourcetemplate.karmada.io/generation';

/** Counters reflected per workload kind; aggregateStatus sums the same lists. */
export const SUMMED_FIELDS: Record<string, readonly string[]> = {
  'apps/Deployment': ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'],
  'apps/StatefulSet': ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'],
  'apps/ReplicaSet': ['replicas', 'readyReplicas', 'availableReplicas'],
  'apps/DaemonSet': ['currentNumberScheduled', 'desiredNumberScheduled', 'numberAvailable', 'numberMisscheduled', 'numberReady', 'updatedNumberScheduled', 'numberUnavailable'],
  'policy/PodDisruptionBudget': ['currentHealthy', 'desiredHealthy', 'expectedPods', 'disruptionsAllowed'],
  'autoscaling/HorizontalPodAutoscaler': ['currentReplicas', 'desiredReplicas'],
};

/** `<group>/<kind>`, the key the per-kind tables use ('' group for core). */
export function groupKind(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  return `${slash < 0 ? '' : apiVersion.slice(0, slash)}/${kind}`;
}

/**
 * The part of a member object's status worth carrying back to Git (Karmada's ReflectStatus). Workloads reflect
 * their counters plus generation and observedGeneration; Services and Ingresses their load-balancer ingress only;
 * other kinds their whole status. Keys are sorted so the bytes written to Git do not depend on the server's order.
 */
export function reflectStatus(live: Obj | undefined): Obj | undefined {
  // A Secret has no status; whatever a member put there is not Flotilla's to copy into Git.
  if (!live || isSecret(live)) return undefined;
  const key = groupKind(String(live.apiVersion ?? ''), String(live.kind ?? ''));
  const status = (live.status ?? {}) as Obj;
  const meta = (live.metadata ?? {}) as { generation?: number; annotations?: Record<string, string> };
  const counters = SUMMED_FIELDS[key];
  if (counters) {
    const out: Obj = {};
    for (const f of counters) if (typeof status[f] === 'number') out[f] = status[f];
    if (key.startsWith('apps/')) {
      if (typeof meta.generation === 'number') out.generation = meta.generation;
      if (typeof status.observedGeneration === 'number') out.observedGeneration = status.observedGeneration;
      const templateGeneration = Number(meta.annotations?.[TEMPLATE_GENERATION]);
      if (Number.isFinite(templateGeneration) && meta.annotations?.[TEMPLATE_GENERATION]) out.resourceTemplateGeneration = templateGeneration;
    }
    return sortKeysDeep(out) as Obj;
  }
  if (key === '/Service' || key === 'networking.k8s.io/Ingress') {
    const lb = status.loadBalancer as Obj | undefined;
    return lb && Object.keys(lb).length > 0 ? (sortKeysDeep({ loadBalancer: lb }) as Obj) : undefined;
  }
  if (!live.status || Object.keys(status).length === 0) return undefined;
  return sortKeysDeep(withoutTimes(status)) as Obj;
}

/**
 * Heartbeat-like timestamps change on every read without anything happening: kept out, or every pass would commit.
 * Transition times are kept; they only move when a condition changes.
 */
function withoutTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimes);
  if (value && typeof value === 'object') {
    const out: Obj = {};
    for (const [k, v] of Object.entries(value)) if (k !== 'lastHeartbeatTime' && k !== 'lastProbeTime' && k !== 'lastUpdateTime') out[k] = withoutTimes(v);
    return out;
  }
  return value;
}

export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value && typeof value === 'object') {
    const out: Obj = {};
    for (const k of Object.keys(value).sort()) out[k] = sortKeysDeep((value as Obj)[k]);
    return out;
  }
  return value;
}
