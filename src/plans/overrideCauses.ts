// Which OverridePolicy or ClusterOverridePolicy rules a change of one object on one cluster comes from, read from the
// Work's applied-overrides annotations on both sides (Karmada's overridemanager/shadow.go: one item per rule applied,
// {policyName, overriders}), and the changed policies that change nothing.
import type { Located } from '../api/model.ts';
import type { OverridePolicy, Overriders } from '../api/policy.ts';
import { OVERRIDERS } from '../api/policyGoTypes.ts';
import {
  APPLIED_CLUSTER_OVERRIDES_ANNOTATION,
  APPLIED_OVERRIDES_ANNOTATION,
} from '../branches/rendered/workOnlyAnnotations.ts';
import { goJsonText } from '../patches/goJson.ts';
import { parseYamlValue } from '../yaml/blockYaml.ts';

/** One rule whose effect on the object differs between base and head. */
export interface OverrideCause {
  /** "OverridePolicy default/nginx-op" or "ClusterOverridePolicy name". */
  policy: string;
  /** Index in spec.overrideRules; -1 for the deprecated spec-level overriders; undefined when no rule has them. */
  rule?: number;
  /** file:line of the policy on the side that defines the rule (head, else base). */
  source?: string;
  change: 'now applies' | 'changed' | 'no longer applies';
}

/** A policy the change adds or edits that no change of the plan comes from. */
export interface QuietOverride {
  policy: string;
  source: string;
  message: string;
}

type Kind = OverridePolicy['kind'];
interface Item {
  kind: Kind;
  name: string;
  /** Overriders as JSON, normalised so that the annotation's and the policy's compare byte for byte. */
  overriders: string;
}

const ANNOTATIONS: readonly [Kind, string][] = [
  ['ClusterOverridePolicy', APPLIED_CLUSTER_OVERRIDES_ANNOTATION],
  ['OverridePolicy', APPLIED_OVERRIDES_ANNOTATION],
];

/**
 * The rules applied on one side and not the other, named as the policies of that side define them. A rule whose
 * overriders were edited is applied on both sides with different overriders: it is one "changed" cause.
 */
export function overrideCauses(
  before: string | undefined,
  after: string | undefined,
  namespace: string,
  basePolicies: readonly Located<OverridePolicy>[],
  headPolicies: readonly Located<OverridePolicy>[],
): OverrideCause[] {
  const old = appliedItems(before);
  const now = appliedItems(after);
  const onlyOld = without(old, now).map((i) => locate(i, namespace, basePolicies));
  const onlyNow = without(now, old).map((i) => locate(i, namespace, headPolicies));
  const causes: OverrideCause[] = [];
  for (const n of onlyNow) {
    const was = onlyOld.findIndex((o) => o.policy === n.policy && o.rule === n.rule);
    if (was >= 0) onlyOld.splice(was, 1);
    causes.push({ ...n, change: was >= 0 ? 'changed' : 'now applies' });
  }
  for (const o of onlyOld) {
    const defined = headPolicies.find((p) => describePolicy(p.object) === o.policy);
    const source = defined ? sourceOf(defined) : o.source;
    causes.push({ ...o, ...(source ? { source } : {}), change: 'no longer applies' });
  }
  return causes;
}

/**
 * Policies the head adds or edits that no cause names: the reviewer would otherwise read "No change" and not know
 * whether the policy is wrong. `appliedAnywhere` says whether a head manifest records the policy at all.
 */
export function quietOverrides(
  basePolicies: readonly Located<OverridePolicy>[],
  headPolicies: readonly Located<OverridePolicy>[],
  named: ReadonlySet<string>,
  appliedAnywhere: (kind: Kind, namespace: string, name: string) => boolean,
): QuietOverride[] {
  const before = new Map(basePolicies.map((p) => [describePolicy(p.object), JSON.stringify(p.object)]));
  const out: QuietOverride[] = [];
  for (const p of headPolicies) {
    const policy = describePolicy(p.object);
    if (named.has(policy) || before.get(policy) === JSON.stringify(p.object)) continue;
    const applied = appliedAnywhere(p.object.kind, namespaceOf(p.object), p.object.metadata.name);
    out.push({
      policy,
      source: sourceOf(p),
      message: applied
        ? `${before.has(policy) ? 'changed' : 'added'}, but no object any member gets changes: its rules give what they gave before`
        : `${before.has(policy) ? 'changed' : 'added'}, but it overrides nothing: no rule applies to any object on any cluster (its resourceSelectors select no template, or no rule's targetCluster a cluster they are on)`,
    });
  }
  return out.sort((a, b) => (a.policy < b.policy ? -1 : a.policy > b.policy ? 1 : 0));
}

/** `"policyName":"<name>"` as the annotation writes it: a cheap test of a whole tree before parsing anything. */
export function appliedNameNeedle(name: string): string {
  return `"policyName":${JSON.stringify(name)}`;
}

export function describePolicy(p: OverridePolicy): string {
  const ns = namespaceOf(p);
  return `${p.kind} ${ns ? `${ns}/` : ''}${p.metadata.name}`;
}

function namespaceOf(p: OverridePolicy): string {
  return p.kind === 'ClusterOverridePolicy' ? '' : p.metadata.namespace || 'default';
}

function sourceOf(p: Located<OverridePolicy>): string {
  return `${p.source.file}:${p.source.line}`;
}

function appliedItems(text: string | undefined): Item[] {
  if (text === undefined || !text.includes('policy.karmada.io/applied-')) return [];
  let annotations: Record<string, unknown> | undefined;
  try {
    annotations = (parseYamlValue(text) as { metadata?: { annotations?: Record<string, unknown> } } | null)?.metadata
      ?.annotations;
  } catch {
    return [];
  }
  const items: Item[] = [];
  for (const [kind, key] of ANNOTATIONS) {
    const value = annotations?.[key];
    if (typeof value !== 'string') continue;
    try {
      for (const i of JSON.parse(value) as { policyName: string; overriders: unknown }[])
        items.push({ kind, name: i.policyName, overriders: JSON.stringify(i.overriders) });
    } catch {
      // not Karmada's format: nothing to name
    }
  }
  return items;
}

/** The items of `a` that `b` lacks, counted as a multiset: a policy may apply two identical rules. */
function without(a: readonly Item[], b: readonly Item[]): Item[] {
  const left = [...b];
  return a.filter((i) => {
    const at = left.findIndex((j) => j.kind === i.kind && j.name === i.name && j.overriders === i.overriders);
    if (at < 0) return true;
    left.splice(at, 1);
    return false;
  });
}

/** The policy an item names (its namespace the object's, for an OverridePolicy) and the rule with its overriders. */
function locate(
  item: Item,
  namespace: string,
  policies: readonly Located<OverridePolicy>[],
): Omit<OverrideCause, 'change'> {
  const ns = item.kind === 'ClusterOverridePolicy' ? '' : namespace;
  const policy = `${item.kind} ${ns ? `${ns}/` : ''}${item.name}`;
  const defined = policies.find((p) => describePolicy(p.object) === policy);
  if (!defined) return { policy };
  const rules: [number, Overriders | undefined][] = defined.object.spec.overrideRules?.length
    ? defined.object.spec.overrideRules.map((r, i) => [i, r.overriders])
    : [[-1, defined.object.spec.overriders]];
  const rule = rules.find(([, o]) => normalised(o) === item.overriders)?.[0];
  return { policy, ...(rule !== undefined ? { rule } : {}), source: sourceOf(defined) };
}

function normalised(overriders: Overriders | undefined): string {
  return JSON.stringify(JSON.parse(goJsonText(overriders ?? {}, OVERRIDERS)));
}

/** How a cause reads in the plan: `OverridePolicy default/nginx-op rule 1 (policies/op.yaml:1) changed`. */
export function describeCause(c: OverrideCause): string {
  const rule = c.rule === undefined ? '' : c.rule < 0 ? ' spec.overriders' : ` rule ${c.rule}`;
  return `${c.policy}${rule}${c.source ? ` (${c.source})` : ''} ${c.change}`;
}
