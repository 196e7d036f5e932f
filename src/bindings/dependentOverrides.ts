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
  const present = presentNames(overridePolicies);
  const namespace = policy.kind === 'PropagationPolicy' ? (policy.metadata.namespace ?? '') : CLUSTER_WIDE;
  return names.filter((name) => !present.get(namespace)?.has(name));
}

/** ClusterOverridePolicies' place in presentNames: no namespace can have this name. */
const CLUSTER_WIDE = '/';

/**
 * Namespace → the names of its OverridePolicies (CLUSTER_WIDE: the ClusterOverridePolicies), made once per model: a
 * render asks for every template its policy claims, and a policy may claim a fleet.
 */
const presentByModel = new WeakMap<
  ConfigModel['overridePolicies'],
  { length: number; present: Map<string, Set<string>> }
>();
function presentNames(overridePolicies: ConfigModel['overridePolicies']): Map<string, Set<string>> {
  // The list is filled in place while a model is assembled: made again if it grew since.
  const kept = presentByModel.get(overridePolicies);
  if (kept?.length === overridePolicies.length) return kept.present;
  const present = new Map<string, Set<string>>();
  for (const { object } of overridePolicies) {
    const at = object.kind === 'OverridePolicy' ? (object.metadata.namespace ?? '') : CLUSTER_WIDE;
    let names = present.get(at);
    if (!names) present.set(at, (names = new Set()));
    names.add(object.metadata.name);
  }
  presentByModel.set(overridePolicies, { length: overridePolicies.length, present });
  return present;
}
