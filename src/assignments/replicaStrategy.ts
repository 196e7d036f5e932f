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

export function assignStrategyOf(placement: Placement): AssignStrategy {
  if (replicaSchedulingType(placement) === 'Duplicated') return 'Duplicated';
  const rs = placement.replicaScheduling;
  if ((rs?.replicaDivisionPreference ?? 'Weighted') === 'Aggregated') return 'Aggregated';
  return rs?.weightPreference?.dynamicWeight ? 'DynamicWeight' : 'StaticWeight';
}

/** Static weighting ignores spread constraints: Weighted with no weightPreference, or a static list without dynamicWeight. */
export function shouldIgnoreSpreadConstraint(placement: Placement): boolean {
  const rs = placement.replicaScheduling;
  if (
    !rs ||
    replicaSchedulingType(placement) !== 'Divided' ||
    (rs.replicaDivisionPreference ?? 'Weighted') !== 'Weighted'
  )
    return false;
  const wp = rs.weightPreference;
  return !wp || ((wp.staticWeightList?.length ?? 0) > 0 && !wp.dynamicWeight);
}

/** Duplicated placements (nil replicaScheduling included) select clusters without looking at capacity. */
export function shouldIgnoreAvailableResource(placement: Placement): boolean {
  return replicaSchedulingType(placement) === 'Duplicated';
}
