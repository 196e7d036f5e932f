// The value of a Work's policy.karmada.io/applied-overrides and applied-cluster-overrides annotations, byte for byte as
// Karmada writes it (pkg/util/overridemanager/shadow.go AppliedOverrides.MarshalJSON, recorded by
// pkg/controllers/binding/common.go RecordAppliedOverrides): one item per rule applied, sorted by policy name, each
// with the rule's whole Overriders as Go's encoding/json marshals pkg/apis/policy/v1alpha1/override_types.go.
import { goJsonText } from '../patches/goJson.ts';
import type { Overriders } from '../api/policy.ts';
import { OVERRIDERS } from '../api/policyGoTypes.ts';
import { byBytes, stringifyJsonLikeGo } from '../patches/patchJsonText.ts';
import { goSort } from '../sorting/goSort.ts';

export interface AppliedOverrideItem {
  /** The policy's name alone (Karmada's OverridePolicyShadow.PolicyName): no kind, no namespace. */
  policyName: string;
  overriders: Overriders;
}

/** undefined for no item: Karmada then writes no annotation at all. */
export function appliedOverridesAnnotation(items: readonly AppliedOverrideItem[]): string | undefined {
  if (items.length === 0) return undefined;
  // Karmada's sort.Slice keeps a policy's rules in their order only up to 12 items; past that Go's sort moves them.
  const sorted = [...items];
  goSort(sorted, (a, b) => byBytes(a.policyName, b.policyName) < 0);
  return `[${sorted.map((i) => `{"policyName":${stringifyJsonLikeGo(i.policyName)},"overriders":${goJsonText(i.overriders, OVERRIDERS)}}`).join(',')}]`;
}
