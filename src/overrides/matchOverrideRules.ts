// Which override rules apply to one object on one cluster, in the order Karmada applies them
// (pkg/util/overridemanager/overridemanager.go#getOverridersFromOverridePolicies).
import type { Cluster } from '../api/cluster.ts';
import { CLUSTER_SCOPED_KINDS } from '../api/kinds.ts';
import type { OverridePolicy, Overriders, RuleWithCluster } from '../api/policy.ts';
import { matchClusterAffinity } from '../selectors/matchClusterAffinity.ts';
import { bestSelectorMatch, ImplicitPriority } from '../selectors/matchResourceSelector.ts';

/** The object overrides are computed for. */
export interface OverrideTarget {
  apiVersion: string;
  kind: string;
  /** '' for cluster-scoped objects, which then only get ClusterOverridePolicies. */
  namespace: string;
  name: string;
  labels?: Record<string, string>;
}

export interface MatchedOverrideRule {
  policy: OverridePolicy;
  /** Index in spec.overrideRules; -1 for the deprecated spec-level targetCluster + overriders pair. */
  ruleIndex: number;
  overriders: Overriders;
}

/** Namespace a policy without metadata.namespace lives in, as kubectl would create it. */
export const DEFAULT_NAMESPACE = 'default';

/**
 * The target of a manifest: metadata.namespace, else '' for a built-in cluster-scoped kind and 'default' for
 * anything else. Callers that know a custom kind is cluster-scoped pass their own target instead.
 */
export function overrideTargetOf(manifest: Record<string, unknown>): OverrideTarget {
  const apiVersion = typeof manifest.apiVersion === 'string' ? manifest.apiVersion : '';
  const kind = typeof manifest.kind === 'string' ? manifest.kind : '';
  const metadata = (
    typeof manifest.metadata === 'object' && manifest.metadata !== null ? manifest.metadata : {}
  ) as Record<string, unknown>;
  const namespace =
    typeof metadata.namespace === 'string' && metadata.namespace !== ''
      ? metadata.namespace
      : CLUSTER_SCOPED_KINDS.has(`${apiVersion}/${kind}`)
        ? ''
        : DEFAULT_NAMESPACE;
  const target: OverrideTarget = {
    apiVersion,
    kind,
    namespace,
    name: typeof metadata.name === 'string' ? metadata.name : '',
  };
  if (typeof metadata.labels === 'object' && metadata.labels !== null)
    target.labels = metadata.labels as Record<string, string>;
  return target;
}

export function policyNamespace(policy: OverridePolicy): string {
  if (policy.kind === 'ClusterOverridePolicy') return '';
  return policy.metadata.namespace || DEFAULT_NAMESPACE;
}

/**
 * The rules of one kind of policy for the object as it is now: Karmada applies ClusterOverridePolicies, then matches
 * OverridePolicies (of the object's namespace; none for a cluster-scoped object) against what they made of it
 * (overridemanager.go ApplyOverridePolicies), so the caller asks for the second group with the changed labels.
 * A policy matches when its resourceSelectors are nil or empty (match-all) or one of them matches. The group is
 * ordered by implicit priority ascending (match-all, labelSelector, name), then by policy name, so the most
 * specific policy is applied last. Within a policy, rules keep their order and apply when targetCluster is nil
 * or matches the cluster; a policy without overrideRules uses its spec-level targetCluster + overriders.
 */
export function matchOverrideRules(
  target: OverrideTarget,
  cluster: Cluster,
  policies: readonly OverridePolicy[],
  kind: OverridePolicy['kind'],
): MatchedOverrideRule[] {
  const group =
    kind === 'ClusterOverridePolicy'
      ? policies.filter((p) => p.kind === 'ClusterOverridePolicy')
      : target.namespace === ''
        ? []
        : policies.filter((p) => p.kind === 'OverridePolicy' && policyNamespace(p) === target.namespace);
  return rulesOf(orderByPriority(group, target), cluster);
}

function orderByPriority(policies: readonly OverridePolicy[], target: OverrideTarget): OverridePolicy[] {
  return policies
    .map((policy) => ({ policy, priority: implicitPriority(policy, target) }))
    .filter((entry) => entry.priority !== ImplicitPriority.NotMatched)
    .sort((a, b) => a.priority - b.priority || compareNames(a.policy.metadata.name, b.policy.metadata.name))
    .map((entry) => entry.policy);
}

function implicitPriority(policy: OverridePolicy, target: OverrideTarget): ImplicitPriority {
  const selectors = policy.spec.resourceSelectors;
  if (!selectors || selectors.length === 0) return ImplicitPriority.MatchAll;
  return bestSelectorMatch(selectors, target);
}

function rulesOf(policies: readonly OverridePolicy[], cluster: Cluster): MatchedOverrideRule[] {
  const matched: MatchedOverrideRule[] = [];
  for (const policy of policies) {
    for (const { rule, ruleIndex } of rulesWithIndex(policy)) {
      if (rule.targetCluster && !matchClusterAffinity(rule.targetCluster, cluster)) continue;
      matched.push({ policy, ruleIndex, overriders: rule.overriders ?? {} });
    }
  }
  return matched;
}

function rulesWithIndex(policy: OverridePolicy): { rule: RuleWithCluster; ruleIndex: number }[] {
  const rules = policy.spec.overrideRules ?? [];
  if (rules.length > 0) return rules.map((rule, ruleIndex) => ({ rule, ruleIndex }));
  const rule: RuleWithCluster = { overriders: policy.spec.overriders ?? {} };
  if (policy.spec.targetCluster) rule.targetCluster = policy.spec.targetCluster;
  return [{ rule, ruleIndex: -1 }];
}

/** Byte order, as Go compares strings. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
