import type { ConfigModel } from '../api/model.ts';
import type { PropagationPolicy } from '../api/policy.ts';

/**
 * The OverridePolicies a policy's spec.dependentOverrides names that the commit lacks (Karmada's
 * IsDependentOverridesPresent: a PropagationPolicy's in its own namespace, a ClusterPropagationPolicy's
 * ClusterOverridePolicies). While any is missing, Karmada's detector does not apply the policy to a template: the
 * template waits, its last binding untouched.
 */
export function missingDependentOverrides(
  policy: PropagationPolicy,
  overridePolicies: ConfigModel['overridePolicies'],
): string[] {
  const names = policy.spec.dependentOverrides ?? [];
  if (names.length === 0) return [];
  const namespaced = policy.kind === 'PropagationPolicy';
  const present = new Set(
    overridePolicies
      .map((o) => o.object)
      .filter((o) =>
        namespaced
          ? o.kind === 'OverridePolicy' && o.metadata.namespace === policy.metadata.namespace
          : o.kind === 'ClusterOverridePolicy',
      )
      .map((o) => o.metadata.name),
  );
  return names.filter((name) => !present.has(name));
}
