import { STATUS_COUNTERS } from '../api/statusCounters.ts';
import { STATUS_ZERO_VALUES } from '../api/statusZeroValues.ts';
import { sortKeysDeep } from '../sorting/sortKeysDeep.ts';
import { isSecret } from '../interpreters/isSecret.ts';

type Obj = Record<string, unknown>;

const TEMPLATE_GENERATION = 'resourcetemplate.karmada.io/generation';

/**
 * What Karmada's reflectstatus.go grabs per apiVersion/kind: these status fields, and for the apps workloads the
 * object's generation and the template generation it was applied from (FederatedGeneration). A kind listed at one
 * version only (autoscaling/v2 HPA, policy/v1 PDB) reflects its whole status at any other.
 */
const REFLECTED: Record<string, { fields: readonly string[]; federated?: true }> = {
  'apps/v1/Deployment': { fields: [...STATUS_COUNTERS['apps/v1/Deployment'], 'observedGeneration'], federated: true },
  'apps/v1/ReplicaSet': { fields: [...STATUS_COUNTERS['apps/v1/ReplicaSet'], 'observedGeneration'], federated: true },
  'apps/v1/DaemonSet': { fields: [...STATUS_COUNTERS['apps/v1/DaemonSet'], 'observedGeneration'], federated: true },
  // Karmada leaves observedGeneration out for StatefulSets.
  'apps/v1/StatefulSet': { fields: STATUS_COUNTERS['apps/v1/StatefulSet'], federated: true },
  'batch/v1/Job': { fields: ['active', 'succeeded', 'failed', 'conditions', 'startTime', 'completionTime'] },
  'policy/v1/PodDisruptionBudget': {
    fields: ['disruptionsAllowed', 'expectedPods', 'desiredHealthy', 'currentHealthy', 'disruptedPods'],
  },
  // currentMetrics is not grabbed, but the struct Karmada serialises writes it (null) all the same.
  'autoscaling/v2/HorizontalPodAutoscaler': { fields: STATUS_COUNTERS['autoscaling/v2/HorizontalPodAutoscaler'] },
};

/**
 * The part of a member object's status worth carrying back to Git (Karmada's ReflectStatus): the fields above for
 * the kinds listed, a LoadBalancer Service's load-balancer status (other Services reflect nothing), every other
 * kind its whole status. Nothing without a status, and nothing at all of a Secret. Keys are sorted so the bytes
 * written to Git do not depend on the server's order.
 *
 * null when Karmada's ReflectStatus fails: a status that is there but is no object (unstructured.NestedMap's error,
 * a custom kind can hold one), or an apps/v1 workload's template generation annotation that is no number. Its work
 * status controller then returns before updating the Work, so the cluster's last reflected status and health stand.
 */
export function reflectStatus(live: Obj | undefined): Obj | undefined | null {
  // A Secret has no status; whatever a member put there is not Flotilla's to copy into Git.
  if (!live || isSecret(live) || live.status === undefined) return undefined;
  const status = live.status;
  const key = `${String(live.apiVersion ?? '')}/${String(live.kind ?? '')}`;
  // reflectServiceStatus reads spec.type before it reads the status.
  if (key === 'v1/Service' && ((live.spec ?? {}) as Obj).type !== 'LoadBalancer') return undefined;
  if (!status || typeof status !== 'object' || Array.isArray(status)) return null;
  if (key === 'v1/Service') return sortKeysDeep({ loadBalancer: (status as Obj).loadBalancer ?? {} }) as Obj;
  const rule = REFLECTED[key];
  if (!rule) return Object.keys(status).length > 0 ? (sortKeysDeep(withoutTimes(status)) as Obj) : undefined;
  // Karmada serialises the Go status struct: a field without omitempty is written even when zero, the others only when
  // they hold something.
  const out: Obj = { ...STATUS_ZERO_VALUES[key] };
  for (const f of rule.fields) {
    const v = (status as Obj)[f];
    if (v === undefined || v === null || v === 0 || (typeof v === 'object' && Object.keys(v).length === 0)) continue;
    // Grabbed whole, as the typed field Karmada copies: a Job condition's lastProbeTime is written by the Job
    // controller only when the condition changes, so it is no heartbeat to leave out.
    out[f] = v;
  }
  if (rule.federated) {
    const meta = (live.metadata ?? {}) as { generation?: unknown; annotations?: Record<string, string> };
    if (typeof meta.generation === 'number' && meta.generation !== 0) out.generation = meta.generation;
    const annotation = meta.annotations?.[TEMPLATE_GENERATION];
    // Karmada always stamps this annotation on what it sends; Flotilla does not, so an absent one is no template
    // generation rather than the parse error Karmada would stop at.
    if (annotation !== undefined && annotation !== '') {
      // Karmada gives up reflecting when the annotation is not a number (strconv.ParseInt).
      if (!/^[+-]?\d+$/.test(annotation)) return null;
      const templateGeneration = Number(annotation);
      if (templateGeneration !== 0) out.resourceTemplateGeneration = templateGeneration;
    }
  }
  return Object.keys(out).length > 0 ? (sortKeysDeep(out) as Obj) : undefined;
}

/**
 * Heartbeat-like timestamps change on every read without anything happening: kept out, or every pass would commit.
 * Transition times are kept; they only move when a condition changes.
 */
function withoutTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimes);
  if (value && typeof value === 'object') {
    const out: Obj = {};
    for (const [k, v] of Object.entries(value))
      if (k !== 'lastHeartbeatTime' && k !== 'lastProbeTime' && k !== 'lastUpdateTime') out[k] = withoutTimes(v);
    return out;
  }
  return value;
}
