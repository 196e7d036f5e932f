// Applies OverridePolicies and ClusterOverridePolicies to one manifest for one cluster, as Karmada's override
// manager does while rendering a Work (pkg/util/overridemanager). Pure: the input manifest is never mutated (and is
// returned as it is when no rule changes it).
import type { Cluster } from '../api/cluster.ts';
import type { OverridePolicy, Overriders } from '../api/policy.ts';
import { applyCommandArgsOverriders } from './overrideCommandArgs.ts';
import { applyFieldOverriders } from './overrideField.ts';
import { applyImageOverriders } from './overrideImage.ts';
import { applyLabelAnnotationOverriders } from './overrideLabelsAnnotations.ts';
import { applyPlaintextOverriders } from './overridePlaintext.ts';
import { identityChanges, type IdentityChange } from './overrideIdentity.ts';
import type { Manifest, OverrideStep } from './overrideStep.ts';
import { matchOverrideRules, overrideTargetOf, policyNamespace, type OverrideTarget } from './matchOverrideRules.ts';

export type { OverrideTarget } from './matchOverrideRules.ts';

export interface AppliedOverride {
  /** "OverridePolicy default/nginx-op" or "ClusterOverridePolicy name". */
  policy: string;
  kind: OverridePolicy['kind'];
  /** The policy's name alone, which Karmada's applied-overrides annotations record a rule by. */
  policyName: string;
  /** Index in spec.overrideRules; -1 for the deprecated spec-level targetCluster + overriders pair. */
  ruleIndex: number;
  /** The rule's overriders as written, recorded whole (appliedOverridesAnnotation.ts). */
  overriders: Overriders;
}

/** A rule that would have changed which object this is (overrideIdentity.ts): not applied. */
export interface RefusedOverride {
  policy: OverridePolicy;
  ruleIndex: number;
  changes: IdentityChange[];
}

export type OverrideOutcome =
  | { ok: true; manifest: Record<string, unknown>; applied: AppliedOverride[]; refused: RefusedOverride[] }
  | {
      ok: false;
      policy: { kind: 'OverridePolicy' | 'ClusterOverridePolicy'; namespace: string; name: string };
      ruleIndex: number;
      /** Which overrider failed, e.g. "imageOverrider[0]", "plaintext[1]", "fieldOverrider[0].yaml[2]". */
      overrider: string;
      message: string;
    };

/**
 * Selects and orders the policies that apply (see matchOverrideRules) and applies every matching rule. The first
 * failure stops everything and names the policy, the rule and the overrider; the caller then keeps that
 * cluster's previous output. A rule that would change apiVersion, kind, namespace or name is not applied and is
 * listed in `refused`; the other rules still are. `target` defaults to overrideTargetOf(manifest).
 */
export function applyOverrides(
  manifest: Record<string, unknown>,
  cluster: Cluster,
  policies: readonly OverridePolicy[],
  target: OverrideTarget = overrideTargetOf(manifest),
): OverrideOutcome {
  // Not copied first: each overrider returns a new manifest when it changes one (a JSON patch applies to a copy), so
  // the input is never modified, and a cluster no rule targets shares it with the others (a render lays out a shared
  // part once: manifestYaml's `parts`).
  let current: Manifest = manifest;
  const applied: AppliedOverride[] = [];
  const refused: RefusedOverride[] = [];
  for (const kind of ['ClusterOverridePolicy', 'OverridePolicy'] as const) {
    // OverridePolicies are matched against what ClusterOverridePolicies made of the object: one selecting a label a
    // ClusterOverridePolicy set applies, one selecting a label it removed does not.
    const matched = kind === 'OverridePolicy' ? withLabelsOf(target, current) : target;
    for (const { policy, ruleIndex, overriders } of matchOverrideRules(matched, cluster, policies, kind)) {
      const step = applyOverriders(current, overriders);
      const namespace = policyNamespace(policy);
      if (!step.ok) {
        return {
          ok: false,
          policy: { kind: policy.kind, namespace, name: policy.metadata.name },
          ruleIndex,
          overrider: step.overrider,
          message: step.message,
        };
      }
      const changes = identityChanges(current, step.manifest);
      if (changes.length > 0) {
        refused.push({ policy, ruleIndex, changes });
        continue;
      }
      current = step.manifest;
      applied.push({
        policy: `${policy.kind} ${namespace ? `${namespace}/` : ''}${policy.metadata.name}`,
        kind: policy.kind,
        policyName: policy.metadata.name,
        ruleIndex,
        overriders,
      });
    }
  }
  return { ok: true, manifest: current, applied, refused };
}

/** The target with the object's labels as they are now (none when absent or not a map). */
function withLabelsOf(target: OverrideTarget, manifest: Manifest): OverrideTarget {
  const { labels: _, ...rest } = target;
  const labels = (manifest.metadata as { labels?: unknown } | undefined)?.labels;
  return typeof labels === 'object' && labels !== null ? { ...rest, labels: labels as Record<string, string> } : rest;
}

/** One rule's overriders, in Karmada's order. */
export function applyOverriders(manifest: Manifest, overriders: Overriders): OverrideStep {
  const steps: ((m: Manifest) => OverrideStep)[] = [
    (m) => applyImageOverriders(m, overriders.imageOverrider),
    (m) => applyCommandArgsOverriders(m, 'command', overriders.commandOverrider),
    (m) => applyCommandArgsOverriders(m, 'args', overriders.argsOverrider),
    (m) => applyLabelAnnotationOverriders(m, 'labels', overriders.labelsOverrider),
    (m) => applyLabelAnnotationOverriders(m, 'annotations', overriders.annotationsOverrider),
    (m) => applyFieldOverriders(m, overriders.fieldOverrider),
    (m) => applyPlaintextOverriders(m, overriders.plaintext),
  ];
  let current = manifest;
  for (const step of steps) {
    const result = step(current);
    if (!result.ok) return result;
    current = result.manifest;
  }
  return { ok: true, manifest: current };
}
