import type { PropagationPolicy } from '../api/policy.ts';
import { storedPolicy } from './storedPolicy.ts';

/**
 * Karmada's CRD and mutating-webhook defaults for PP/CPP (pkg/webhook/propagationpolicy/mutating.go), with the
 * webhook's JSON round trip (storedPolicy), applied once at parse time so every later stage sees what Karmada would
 * have stored.
 */
export function applyPolicyDefaults(policy: PropagationPolicy): PropagationPolicy {
  const stored = storedPolicy(policy.kind, policy) as PropagationPolicy;
  if (stored.kind !== 'PropagationPolicy' || stored.metadata.namespace) return stored;
  return { ...stored, metadata: { ...stored.metadata, namespace: 'default' } };
}
