/**
 * Karmada's FederatedHPA refuses to scale pods that more than one FederatedHPA's selector selects
 * (pkg/controllers/federatedhpa/federatedhpa_controller.go validateAndParseSelector, hpasControllingPodsUnderSelector):
 * each of them then sets ScalingActive False AmbiguousSelector and keeps its count. Pure.
 */
import type { LabelSelector } from '../api/policy.ts';
import { matchLabelSelector } from '../labels/matchLabelSelector.ts';

export interface AutoscalerSelector {
  /** `<namespace>/<name>` of the FederatedHPA, as Karmada's selectors.Key prints it. */
  key: string;
  namespace: string;
  /** Its target workload's pod selector. */
  selector: LabelSelector;
}

/**
 * The FederatedHPAs whose selectors select any of these pods (of `namespace`), sorted; the message Karmada's
 * condition carries when there are several, else undefined.
 */
export function ambiguousSelectorMessage(
  selectorText: string,
  namespace: string,
  podLabels: readonly Readonly<Record<string, string>>[],
  autoscalers: readonly AutoscalerSelector[],
): string | undefined {
  const selecting = autoscalers
    .filter((a) => a.namespace === namespace && podLabels.some((labels) => matchLabelSelector(a.selector, labels)))
    .map((a) => a.key)
    .sort();
  if (selecting.length <= 1) return undefined;
  return `pods by selector ${selectorText} are controlled by multiple HPAs: [${selecting.join(' ')}]`;
}
