import type { ResourceBinding } from '../api/binding.ts';

/**
 * The labels and annotations a policy's claim puts on a template and its binding, by the policy's kind (Karmada's
 * detector/claim.go: propagationPolicyClaimLabels and the rest). They go again when the policy lets go.
 */
export const POLICY_CLAIM_KEYS = {
  PropagationPolicy: {
    labels: ['propagationpolicy.karmada.io/permanent-id'],
    annotations: ['propagationpolicy.karmada.io/namespace', 'propagationpolicy.karmada.io/name'],
  },
  ClusterPropagationPolicy: {
    labels: ['clusterpropagationpolicy.karmada.io/permanent-id'],
    annotations: ['clusterpropagationpolicy.karmada.io/name'],
  },
} as const;

/** A MultiClusterService's claim on its Service's binding, which its retrieveService takes off when it lets go. */
const MULTI_CLUSTER_SERVICE_CLAIM = {
  labels: ['binding.karmada.io/managed-by', 'multiclusterservice.karmada.io/permanent-id'],
  annotations: ['multiclusterservice.karmada.io/name', 'multiclusterservice.karmada.io/namespace'],
} as const;

const CLAIM_LABELS = new Set<string>([
  ...POLICY_CLAIM_KEYS.PropagationPolicy.labels,
  ...POLICY_CLAIM_KEYS.ClusterPropagationPolicy.labels,
  ...MULTI_CLUSTER_SERVICE_CLAIM.labels,
]);
const CLAIM_ANNOTATIONS = new Set<string>([
  ...POLICY_CLAIM_KEYS.PropagationPolicy.annotations,
  ...POLICY_CLAIM_KEYS.ClusterPropagationPolicy.annotations,
  ...MULTI_CLUSTER_SERVICE_CLAIM.annotations,
]);

/** Whether a policy's claim is on the binding: a binding its policy let go of (withoutPolicyClaim) has none. */
export function hasPolicyClaim(binding: ResourceBinding): boolean {
  const keys = (record: Record<string, string> | undefined, claim: ReadonlySet<string>) =>
    Object.keys(record ?? {}).some((k) => claim.has(k));
  return keys(binding.metadata.labels, CLAIM_LABELS) || keys(binding.metadata.annotations, CLAIM_ANNOTATIONS);
}

/**
 * The binding of a template its policy let go of (deleted, or no longer selecting it), as Karmada's detector leaves
 * it: the same binding, without the policy's claim (CleanupPPClaimMetadata / CleanupCPPClaimMetadata, before the
 * template's own), or a MultiClusterService's (mcs_controller.go retrieveService). The same object when it carries none. Flotilla's own `flotilla.io/policy` stays: it records which
 * policy placed the template last, and the render reads it to keep the template's output where it ran.
 */
export function withoutPolicyClaim(binding: ResourceBinding): ResourceBinding {
  if (!hasPolicyClaim(binding)) return binding;
  // Field by field, in their order: the binding's text changes by the claim's lines only.
  const metadata: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(binding.metadata)) {
    const claim = field === 'labels' ? CLAIM_LABELS : field === 'annotations' ? CLAIM_ANNOTATIONS : undefined;
    if (!claim) {
      metadata[field] = value;
      continue;
    }
    const left = Object.entries(value as Record<string, string>).filter(([k]) => !claim.has(k));
    if (left.length > 0) metadata[field] = Object.fromEntries(left);
  }
  return { ...binding, metadata: metadata as unknown as ResourceBinding['metadata'] };
}

/** Both policy kinds' claims, which a MultiClusterService takes off the Service it claims. */
const EVERY_POLICY_CLAIM = {
  labels: [...POLICY_CLAIM_KEYS.PropagationPolicy.labels, ...POLICY_CLAIM_KEYS.ClusterPropagationPolicy.labels],
  annotations: [
    ...POLICY_CLAIM_KEYS.PropagationPolicy.annotations,
    ...POLICY_CLAIM_KEYS.ClusterPropagationPolicy.annotations,
  ],
} as const;

/**
 * The other policy kind's claim that a template brings in its own metadata (one exported from a Karmada control
 * plane), which Karmada's detector has taken off the template by the time the binding's policy claims it, so no Work
 * carries it. A PropagationPolicy's claim drops a ClusterPropagationPolicy's whose permanent-id label is there
 * (ClaimPolicyForObject's excludeClusterPolicy); a ClusterPropagationPolicy claims only after the detector found a
 * complete PropagationPolicy claim whose policy is not there and cleaned it up (getAndApplyPolicy); a
 * MultiClusterService's claim drops both kinds' whatever they hold (claimMultiClusterServiceForService). Undefined
 * when nothing goes, which is nearly always.
 */
export function supersededClaimKeys(
  binding: ResourceBinding,
  labels: Readonly<Record<string, string>> | undefined,
  annotations: Readonly<Record<string, string>> | undefined,
): { labels: readonly string[]; annotations: readonly string[] } | undefined {
  const claimedBy = binding.metadata.labels ?? {};
  const [pp, cpp] = [POLICY_CLAIM_KEYS.PropagationPolicy, POLICY_CLAIM_KEYS.ClusterPropagationPolicy];
  if (claimedBy[MULTI_CLUSTER_SERVICE_CLAIM.labels[0]] !== undefined) {
    const holds = (keys: readonly string[], map: Readonly<Record<string, string>> | undefined) =>
      keys.some((k) => map !== undefined && Object.hasOwn(map, k));
    return holds(EVERY_POLICY_CLAIM.labels, labels) || holds(EVERY_POLICY_CLAIM.annotations, annotations)
      ? EVERY_POLICY_CLAIM
      : undefined;
  }
  if (claimedBy[pp.labels[0]] !== undefined) {
    return labels && Object.hasOwn(labels, cpp.labels[0]) ? cpp : undefined;
  }
  if (claimedBy[cpp.labels[0]] !== undefined) {
    const complete = !!labels?.[pp.labels[0]] && pp.annotations.every((k) => !!annotations?.[k]);
    return complete ? pp : undefined;
  }
  return undefined;
}
