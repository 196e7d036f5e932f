// Which override policies can apply to a template on some cluster, decided without applying any: for the shortcuts
// that pick candidates before rendering (renderWorkManifest's pre-filter, an incremental sync's affected templates).
// A superset is fine; applyOverrides makes the exact decision.
import type { LabelSelector, OverridePolicy, Overriders, ResourceSelector } from '../api/policy.ts';
import { bestSelectorMatch, ImplicitPriority, type SelectableObject } from '../selectors/matchResourceSelector.ts';

/**
 * The labels a claim sets or takes off the template before any override runs (detector/claim.go, the
 * MultiClusterService controller's claim): Karmada's binding controller overrides the template as karmada-apiserver
 * holds it, claimed, whose values (permanent ids) the template in Git does not show.
 */
const CLAIM_LABELS: ReadonlySet<string> = new Set([
  'propagationpolicy.karmada.io/permanent-id',
  'clusterpropagationpolicy.karmada.io/permanent-id',
  'multiclusterservice.karmada.io/permanent-id',
  'resourcetemplate.karmada.io/claimed-by',
]);

/**
 * Whether the policy's selectors take the template as it is, or as its claim may label it, or, for an
 * OverridePolicy selecting by labels, as a ClusterOverridePolicy among `relabelers` may leave it: Karmada matches
 * OverridePolicies against the object the ClusterOverridePolicies changed (overridemanager.go
 * ApplyOverridePolicies), so any labels are then possible.
 */
export function overrideMayApply(
  policy: OverridePolicy,
  template: SelectableObject,
  relabelers: readonly OverridePolicy[],
): boolean {
  const selectors = policy.spec.resourceSelectors;
  if (!selectors || selectors.length === 0) return true;
  if (bestSelectorMatch(selectors, template) !== ImplicitPriority.NotMatched) return true;
  const claimFree = claimFreeSelectors(selectors);
  if (claimFree && bestSelectorMatch(claimFree, template) !== ImplicitPriority.NotMatched) return true;
  if (policy.kind !== 'OverridePolicy' || !selectors.some((s) => s.labelSelector)) return false;
  if (!relabelers.some((c) => overrideMayApply(c, template, []))) return false;
  return bestSelectorMatch(selectors.map(withoutLabelSelector), template) !== ImplicitPriority.NotMatched;
}

/** The ClusterOverridePolicies with a rule that may write metadata.labels. */
export function labelRewritingClusterOverrides(policies: readonly OverridePolicy[]): OverridePolicy[] {
  return policies.filter(
    (p) =>
      p.kind === 'ClusterOverridePolicy' &&
      [...(p.spec.overrideRules ?? []).map((r) => r.overriders), p.spec.overriders].some(
        (o) => o !== undefined && rewritesLabels(o),
      ),
  );
}

function rewritesLabels(o: Overriders): boolean {
  return (
    (o.labelsOverrider?.length ?? 0) > 0 ||
    (o.plaintext ?? []).some((p) => pathReachesLabels(p.path)) ||
    (o.fieldOverrider ?? []).some((f) => pathReachesLabels(f.fieldPath)) ||
    // An image predicate names the field the image is written to, whichever it is.
    (o.imageOverrider ?? []).some((i) => i.predicate !== undefined && pathReachesLabels(i.predicate.path))
  );
}

/** The root (""), metadata, its labels or one of them; or a path without the leading "/", which JSON patch reads its own way. */
function pathReachesLabels(path: string): boolean {
  if (!path.startsWith('/')) return true;
  const [first, second] = path.slice(1).split('/');
  return first === 'metadata' && (second === undefined || second === 'labels');
}

/**
 * The selectors with each label selector that reads a claim label taken off (any claim may satisfy it); undefined when
 * none reads one. Made once per policy: every template of its namespace asks, on every cluster.
 */
const claimFree = new WeakMap<readonly ResourceSelector[], readonly ResourceSelector[] | null>();
function claimFreeSelectors(selectors: readonly ResourceSelector[]): readonly ResourceSelector[] | undefined {
  let known = claimFree.get(selectors);
  if (known === undefined) {
    known = selectors.some((s) => s.labelSelector && readsClaimLabel(s.labelSelector))
      ? selectors.map((s) => (s.labelSelector && readsClaimLabel(s.labelSelector) ? withoutLabelSelector(s) : s))
      : null;
    claimFree.set(selectors, known);
  }
  return known ?? undefined;
}

function readsClaimLabel(selector: LabelSelector): boolean {
  return (
    Object.keys(selector.matchLabels ?? {}).some((key) => CLAIM_LABELS.has(key)) ||
    (selector.matchExpressions ?? []).some((e) => CLAIM_LABELS.has(e.key))
  );
}

function withoutLabelSelector({ labelSelector: _, ...selector }: ResourceSelector): ResourceSelector {
  return selector;
}
