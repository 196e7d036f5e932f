import type { Placement } from '../api/policy.ts';
import { PLACEMENT } from '../api/policyGoTypes.ts';
import { goJsonText } from '../patches/goJson.ts';

/**
 * The applied-placement annotation's text: Karmada's scheduler records json.Marshal(*rb.Spec.Placement)
 * (pkg/scheduler/scheduler.go), so struct order, empty omitempty fields left out and undeclared fields gone.
 */
export function placementJson(placement: Placement): string {
  return goJsonText(placement, PLACEMENT);
}
