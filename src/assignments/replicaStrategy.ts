// Which assignment strategy a placement asks for (Karmada assignment.go#newAssignState and
// propagation_helper.go#ReplicaSchedulingType), and the places where the strategy switches steps off.
import type { Placement } from '../api/policy.ts';

export type AssignStrategy = 'Duplicated' | 'Aggregated' | 'StaticWeight' | 'DynamicWeight';

/**
 * A nil replicaScheduling counts as Duplicated. Inside a replicaScheduling the CRD default (Divided) and
 * the webhook default (Weighted) apply when the fields are missing.
 */
export function replicaSchedulingType(placement: Placement): 'Duplicated' | 'Divided' {
  const rs = placement.replicaScheduling;
  if (!rs) return 'Duplicated';
  return rs.replicaSchedulingType ?? 'Divided';
}

/**
 * Undefined for Divided without a division preference: the webhook gives Divided a Weighted one, but a type written
 * "" is stored Divided without it (src/documents/storedPolicy.ts), and newAssignState then picks no strategy.
 */
export function assignStrategyOf(placement: Placement): AssignStrategy | undefined {
  if (replicaSchedulingType(placement) === 'Duplicated') return 'Duplicated';
  const preference = placement.replicaScheduling?.replicaDivisionPreference;
  if (preference === 'Aggregated') return 'Aggregated';
  if (preference !== 'Weighted') return undefined;
  return placement.replicaScheduling?.weightPreference?.dynamicWeight ? 'DynamicWeight' : 'StaticWeight';
}

/** Static weighting ignores spread constraints: Weighted with no weightPreference, or a static list without dynamicWeight. */
export function shouldIgnoreSpreadConstraint(placement: Placement): boolean {
  const rs = placement.replicaScheduling;
  if (!rs || replicaSchedulingType(placement) !== 'Divided' || rs.replicaDivisionPreference !== 'Weighted')
    return false;
  const wp = rs.weightPreference;
  return !wp || ((wp.staticWeightList?.length ?? 0) > 0 && !wp.dynamicWeight);
}

/** Duplicated placements (nil replicaScheduling included) select clusters without looking at capacity. */
export function shouldIgnoreAvailableResource(placement: Placement): boolean {
  return replicaSchedulingType(placement) === 'Duplicated';
}
