import type { Placement } from '../api/policy.ts';
import { PLACEMENT } from '../api/policyGoTypes.ts';
import { goJsonText } from '../patches/goJson.ts';

/**
 * The applied-placement annotation's text: Karmada's scheduler records json.Marshal(*rb.Spec.Placement)
 * (pkg/scheduler/scheduler.go), so struct order, empty omitempty fields left out and undeclared fields gone.
 * Kept per placement object: a policy's placement is written on every binding it claims, and nothing modifies it.
 */
const texts = new WeakMap<Placement, string>();
export function placementJson(placement: Placement): string {
  let text = texts.get(placement);
  if (text === undefined) texts.set(placement, (text = goJsonText(placement, PLACEMENT)));
  return text;
}
