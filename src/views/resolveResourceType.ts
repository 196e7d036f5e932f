import { BUILTIN_RESOURCE_NAMES, type BuiltinResourceName } from '../api/builtinResourceNames.ts';
import { defaultPlural, groupOf } from '../api/kinds.ts';
import type { PolicyKind } from './policyViews.ts';

/** What `flotilla get WORD` lists. Templates are matched by kind and, when the word names one, group. */
export type ResourceType =
  | { type: 'clusters' }
  | { type: 'bindings'; scope: 'namespaced' | 'cluster' }
  | { type: 'works' }
  /** Karmada's FederatedHPAs: spec from the source, status from their decisions on the status branch. */
  | { type: 'federatedhpas' }
  /** Karmada's FederatedResourceQuotas: spec from the source, status from the status branch. */
  | { type: 'federatedresourcequotas' }
  /** Karmada's policies, read from the source commit. */
  | { type: 'policies'; kind: PolicyKind; plural: string }
  | { type: 'templates'; kind: string; group: string | undefined; plural: string };

/** Whether an object of this kind is of the templates type: its kind, and its group when the word named one. Pure. */
export function takesKind(
  type: Extract<ResourceType, { type: 'templates' }>,
  k: { apiVersion: string; kind: string },
): boolean {
  return k.kind === type.kind && (type.group === undefined || groupOf(k.apiVersion) === type.group);
}

// kubectl's plural and short names for the built-in kinds (metrics-server's, which share pods and nodes, are no
// templates).
const BUILT_IN = BUILTIN_RESOURCE_NAMES.filter((n) => n.group !== 'metrics.k8s.io');

// Karmada's CRDs' short names (kubebuilder shortName markers in pkg/apis) for the kinds a config repo holds as
// templates, matched like a custom kind's name when the repo has that kind.
const KARMADA_SHORT: Record<string, { kind: string; group: string }> = {
  cronfhpa: { kind: 'CronFederatedHPA', group: 'autoscaling.karmada.io' },
  mcs: { kind: 'MultiClusterService', group: 'networking.karmada.io' },
  mci: { kind: 'MultiClusterIngress', group: 'networking.karmada.io' },
};

// Karmada's policy CRDs (pkg/apis/policy/v1alpha1 kubebuilder:resource markers): plural, short names.
const POLICIES: { kind: PolicyKind; plural: string; short: string[] }[] = [
  { kind: 'PropagationPolicy', plural: 'propagationpolicies', short: ['pp'] },
  { kind: 'ClusterPropagationPolicy', plural: 'clusterpropagationpolicies', short: ['cpp'] },
  { kind: 'OverridePolicy', plural: 'overridepolicies', short: ['op'] },
  { kind: 'ClusterOverridePolicy', plural: 'clusteroverridepolicies', short: ['cop'] },
  { kind: 'ClusterTaintPolicy', plural: 'clustertaintpolicies', short: [] },
];
const POLICY_GROUP = 'policy.karmada.io';

/**
 * kubectl's resource words: plural, singular, short name or Kind, optionally `.group` (`deployments.apps`).
 * `apiVersions` are those of the templates in the repo, so custom kinds resolve by their lower-cased kind
 * and its plural too. Pure; undefined when nothing matches.
 */
export function resolveResourceType(
  word: string,
  kinds: ReadonlyArray<{ apiVersion: string; kind: string }>,
): ResourceType | undefined {
  const lower = word.toLowerCase();
  if (['clusters', 'cluster'].includes(lower)) return { type: 'clusters' };
  if (['bindings', 'binding', 'rb', 'resourcebinding', 'resourcebindings'].includes(lower))
    return { type: 'bindings', scope: 'namespaced' };
  if (['crb', 'clusterresourcebinding', 'clusterresourcebindings'].includes(lower))
    return { type: 'bindings', scope: 'cluster' };
  if (['works', 'work', 'wk'].includes(lower)) return { type: 'works' };
  if (
    [
      'federatedhpas',
      'federatedhpa',
      'fhpa',
      'federatedhpas.autoscaling.karmada.io',
      'federatedhpa.autoscaling.karmada.io',
    ].includes(lower)
  )
    return { type: 'federatedhpas' };
  // Its CRD declares no short name.
  if (
    [
      'federatedresourcequotas',
      'federatedresourcequota',
      'federatedresourcequotas.policy.karmada.io',
      'federatedresourcequota.policy.karmada.io',
    ].includes(lower)
  )
    return { type: 'federatedresourcequotas' };
  const dot = lower.indexOf('.');
  const base = dot >= 0 ? lower.slice(0, dot) : lower;
  const group = dot >= 0 ? lower.slice(dot + 1) : undefined;
  const policy = POLICIES.find(
    (p) =>
      (group === undefined && p.short.includes(base)) ||
      ((group === undefined || group === POLICY_GROUP) && (base === p.plural || base === p.kind.toLowerCase())),
  );
  if (policy) return { type: 'policies', kind: policy.kind, plural: policy.plural };
  const names = (k: BuiltinResourceName) => [k.plural, k.kind.toLowerCase(), ...k.short];
  const known = BUILT_IN.find((k) => names(k).includes(base) && (group === undefined || k.group === group));
  if (known) return { type: 'templates', kind: known.kind, group: known.group, plural: known.plural };
  const short = Object.hasOwn(KARMADA_SHORT, base) ? KARMADA_SHORT[base] : undefined;
  for (const { apiVersion, kind } of kinds) {
    const k = kind.toLowerCase();
    const plural = pluralOf(k);
    const named = base === k || base === plural || (short?.kind === kind && short.group === groupOf(apiVersion));
    if (named && (group === undefined || groupOf(apiVersion) === group)) {
      return { type: 'templates', kind, group: groupOf(apiVersion), plural };
    }
  }
  return undefined;
}

/** The plural kubectl would print for a kind it knows nothing of (the API server's default rule). */
export function pluralOf(kind: string): string {
  const k = kind.toLowerCase();
  const builtIn = BUILT_IN.find((b) => b.kind.toLowerCase() === k);
  return builtIn ? builtIn.plural : defaultPlural(k);
}
