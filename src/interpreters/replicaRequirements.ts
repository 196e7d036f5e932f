import type { ResourceList } from '../api/cluster.ts';
import { podTemplateRequests } from './podRequests.ts';

/** Where the pod template lets a replica run (workv1alpha2.NodeClaim); absent when it sets none of these. */
export interface NodeClaim {
  nodeSelector?: Record<string, string>;
  tolerations?: unknown[];
  hardNodeAffinity?: unknown;
}

/** helper.GenerateReplicaRequirements: the template's requests and node claim, each only when there is one. */
export function replicaRequirements(podSpec: Record<string, unknown>): {
  resourceRequest?: ResourceList;
  nodeClaim?: NodeClaim;
} {
  const resourceRequest = podTemplateRequests(podSpec);
  const nodeClaim = nodeClaimOf(podSpec);
  return {
    ...(Object.keys(resourceRequest).length > 0 ? { resourceRequest } : {}),
    ...(nodeClaim ? { nodeClaim } : {}),
  };
}

/** helper.GenerateNodeClaimByPodSpec: nodeSelector, tolerations, and the required node affinity. */
function nodeClaimOf(podSpec: Record<string, unknown>): NodeClaim | undefined {
  const selector = podSpec.nodeSelector as Record<string, string> | undefined;
  const tolerations = Array.isArray(podSpec.tolerations) ? podSpec.tolerations : undefined;
  const required = (
    podSpec.affinity as { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: unknown } } | undefined
  )?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  // A nil selector and no affinity and no tolerations: no claim (null decodes to nil). An empty selector ({}) is not
  // nil in Go and counts.
  const hasSelector = selector !== undefined && selector !== null && typeof selector === 'object';
  const hasAffinity = required !== undefined && required !== null;
  if (!hasSelector && !hasAffinity && (tolerations?.length ?? 0) === 0) return undefined;
  return {
    ...(hasSelector && Object.keys(selector).length > 0 ? { nodeSelector: selector } : {}),
    ...(tolerations && tolerations.length > 0 ? { tolerations: tolerations.map(typedToleration) } : {}),
    ...(hasAffinity ? { hardNodeAffinity: typedNodeSelector(required) } : {}),
  };
}

type Obj = Record<string, unknown>;

// The binding holds corev1.Toleration and corev1.NodeSelector values, which Go marshals without the fields their
// omitempty tags leave out when empty: what the template writes as `value: ""` or `matchFields: []` is not in it.
// The keys keep the template's order.

/** corev1.Toleration: key, operator, value, effect and tolerationSeconds are all omitempty. */
function typedToleration(toleration: unknown): unknown {
  return isObj(toleration)
    ? withoutEmpty(toleration, ['key', 'operator', 'value', 'effect', 'tolerationSeconds'])
    : toleration;
}

/** corev1.NodeSelector: its terms' matchExpressions and matchFields, and each requirement's values, are omitempty. */
function typedNodeSelector(selector: unknown): unknown {
  if (!isObj(selector) || !Array.isArray(selector.nodeSelectorTerms)) return selector;
  const requirements = (list: unknown) =>
    Array.isArray(list) ? list.map((r) => (isObj(r) ? withoutEmpty(r, ['values']) : r)) : list;
  const terms = selector.nodeSelectorTerms.map((term) => {
    if (!isObj(term)) return term;
    const typed = withoutEmpty(term, ['matchExpressions', 'matchFields']);
    for (const field of ['matchExpressions', 'matchFields'])
      if (typed[field] !== undefined) typed[field] = requirements(typed[field]);
    return typed;
  });
  return { ...selector, nodeSelectorTerms: terms };
}

/** The object less the `omitempty` fields Go would leave out: null, "", and empty lists. */
function withoutEmpty(object: Obj, omitempty: readonly string[]): Obj {
  const out: Obj = {};
  for (const [key, value] of Object.entries(object)) {
    const empty = value === null || value === '' || (Array.isArray(value) && value.length === 0);
    if (!(empty && omitempty.includes(key))) out[key] = value;
  }
  return out;
}

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
