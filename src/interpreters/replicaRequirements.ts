import type { ResourceList } from '../api/cluster.ts';
import { marshalledAs } from '../api/unknownFields.ts';
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
  return typedNodeClaim({
    ...(hasSelector && Object.keys(selector).length > 0 ? { nodeSelector: selector } : {}),
    ...(tolerations && tolerations.length > 0 ? { tolerations } : {}),
    ...(hasAffinity ? { hardNodeAffinity: required } : {}),
  });
}

/**
 * The node claim as the binding holds it. Its tolerations and required node affinity are corev1.Toleration and
 * corev1.NodeSelector values, whether copied from the pod template or decoded from a Lua GetReplicas result, which Go
 * marshals without the fields their omitempty tags leave out when empty: what the template or the script writes as
 * `value: ""` or `matchFields: []` is not in the binding. Keys keep their order.
 */
export function typedNodeClaim<T extends object>(claim: T): T {
  const typed = { ...claim } as Record<string, unknown>;
  if (Array.isArray(typed.tolerations))
    typed.tolerations = typed.tolerations.map((toleration) => marshalledAs(toleration, 'V1Toleration'));
  if (typed.hardNodeAffinity !== undefined)
    typed.hardNodeAffinity = marshalledAs(typed.hardNodeAffinity, 'V1NodeSelector');
  return typed as T;
}
