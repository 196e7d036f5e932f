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

/** Per side, the policies by describePolicy and each one's rules' overriders as the annotations write them. */
interface PolicyIndex {
  byName: ReadonlyMap<string, Located<OverridePolicy>>;
  rules: Map<Located<OverridePolicy>, [number, string][]>;
}

/**
 * The rules applied on one side and not the other, named as the policies of that side define them. A rule whose
 * overriders were edited is applied on both sides with different overriders: it is one "changed" cause.
 *
 * Made once per plan: a policy that touches every Deployment of a fleet puts the same annotation on tens of thousands
 * of changed manifests, so each annotation value is parsed once, and an object whose annotations are the same on both
 * sides (its change is not an override's) costs a scan of its metadata lines only.
 */
export function overrideExplainer(
  basePolicies: readonly Located<OverridePolicy>[],
  headPolicies: readonly Located<OverridePolicy>[],
): (before: string | undefined, after: string | undefined, namespace: string) => OverrideCause[] {
  const base = indexPolicies(basePolicies);
  const head = indexPolicies(headPolicies);
  const parsed = new Map<string, Item[]>();
  const itemsOf = (kind: Kind, raw: string | undefined): Item[] => {
    if (raw === undefined) return [];
    const key = `${kind}\n${raw}`;
    let items = parsed.get(key);
    if (!items) parsed.set(key, (items = appliedItems(kind, raw)));
    return items;
  };
  return (before, after, namespace) => {
    const was = appliedAnnotations(before);
    const is = appliedAnnotations(after);
    const old: Item[] = [];
    const now: Item[] = [];
    // A kind whose annotation reads the same on both sides names the same rules there: nothing differs.
    for (const [i, [kind]] of ANNOTATIONS.entries())
      if (was[i] !== is[i]) {
        old.push(...itemsOf(kind, was[i]));
        now.push(...itemsOf(kind, is[i]));
      }
    if (old.length === 0 && now.length === 0) return [];
    const onlyOld = without(old, now).map((i) => locate(i, namespace, base));
    const onlyNow = without(now, old).map((i) => locate(i, namespace, head));
    const causes: OverrideCause[] = [];
    for (const n of onlyNow) {
      const at = onlyOld.findIndex((o) => o.policy === n.policy && o.rule === n.rule);
      if (at >= 0) onlyOld.splice(at, 1);
      causes.push({ ...n, change: at >= 0 ? 'changed' : 'now applies' });
    }
    for (const o of onlyOld) {
      const defined = head.byName.get(o.policy);
      const source = defined ? sourceOf(defined) : o.source;
      causes.push({ ...o, ...(source ? { source } : {}), change: 'no longer applies' });
    }
    return causes;
  };
}

/**
 * Policies the head adds or edits that no cause names: the reviewer would otherwise read "No change" and not know
 * whether the policy is wrong. `appliedAnywhere` says whether a head manifest records the policy at all.
 */
export function quietOverrides(
  basePolicies: readonly Located<OverridePolicy>[],
  headPolicies: readonly Located<OverridePolicy>[],
  named: ReadonlySet<string>,
  appliedAnywhere: (policy: string) => boolean,
): QuietOverride[] {
  const before = new Map(basePolicies.map((p) => [describePolicy(p.object), JSON.stringify(p.object)]));
  const out: QuietOverride[] = [];
  for (const p of headPolicies) {
    const policy = describePolicy(p.object);
    if (named.has(policy) || before.get(policy) === JSON.stringify(p.object)) continue;
    const applied = appliedAnywhere(policy);
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

/**
 * Every policy a rendered tree's manifests record as applied, named as describePolicy names it (an OverridePolicy in
 * the namespace of the object it applies to, its folder): one pass, each distinct annotation value parsed once.
 */
export function appliedPolicies(files: ReadonlyMap<string, string>): Set<string> {
  const out = new Set<string>();
  const seen = new Set<string>();
  for (const [path, text] of files) {
    if (!path.startsWith('clusters/')) continue;
    const raws = appliedAnnotations(text);
    for (const [i, [kind]] of ANNOTATIONS.entries()) {
      const raw = raws[i];
      if (raw === undefined) continue;
      const ns = kind === 'ClusterOverridePolicy' ? '' : (path.split('/')[2] ?? '');
      const key = `${ns}\n${kind}\n${raw}`;
      if (seen.has(key)) continue;
      seen.add(key);
      for (const item of appliedItems(kind, raw)) out.add(`${kind} ${ns ? `${ns}/` : ''}${item.name}`);
    }
  }
  return out;
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

/**
 * The raw values (YAML scalars, as written) of the two annotations, in ANNOTATIONS' order, read from the lines of
 * metadata.annotations alone: the rendered branch writes a manifest in block style, an annotation on one line at four
 * spaces (manifestYaml.ts, lineWidth 0), and the same key elsewhere in the object is its own data.
 */
export function appliedAnnotations(text: string | undefined): readonly (string | undefined)[] {
  const out: (string | undefined)[] = ANNOTATIONS.map(() => undefined);
  if (text === undefined) return out;
  let at = text.startsWith('metadata:\n') ? 0 : text.indexOf('\nmetadata:\n') + 1;
  if (at === 0 && !text.startsWith('metadata:\n')) return out;
  at += 'metadata:\n'.length;
  let inAnnotations = false;
  // Up to the next top-level key; an empty line is a block scalar's (another annotation's multi-line value).
  while (at < text.length && (text.charCodeAt(at) === SPACE || text.charCodeAt(at) === NEWLINE)) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    if (end === at) {
      at += 1;
      continue;
    }
    if (text.charCodeAt(at + 2) !== SPACE) inAnnotations = text.startsWith('  annotations:\n', at);
    else if (inAnnotations && text.charCodeAt(at + 3) === SPACE && text.startsWith(APPLIED_PREFIX, at + 4))
      for (const [i, [, key]] of ANNOTATIONS.entries())
        if (text.startsWith(`${key}: `, at + 4)) out[i] = text.slice(at + 4 + key.length + 2, end);
    at = end + 1;
  }
  return out;
}

const APPLIED_PREFIX = 'policy.karmada.io/applied-';
const SPACE = 32;
const NEWLINE = 10;

/** The items of one annotation's raw YAML scalar: Karmada's JSON list of {policyName, overriders}. */
function appliedItems(kind: Kind, raw: string): Item[] {
  // The rendered branch single-quotes a JSON list; any other spelling goes through the YAML reader.
  let value: unknown;
  try {
    value =
      raw.length > 1 && raw.startsWith("'") && raw.endsWith("'")
        ? raw.slice(1, -1).replaceAll("''", "'")
        : parseYamlValue(raw);
  } catch {
    return [];
  }
  if (typeof value !== 'string') return [];
  try {
    return (JSON.parse(value) as { policyName: string; overriders: unknown }[]).map((i) => ({
      kind,
      name: i.policyName,
      overriders: JSON.stringify(i.overriders),
    }));
  } catch {
    return []; // not Karmada's format: nothing to name
  }
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
function locate(item: Item, namespace: string, policies: PolicyIndex): Omit<OverrideCause, 'change'> {
  const ns = item.kind === 'ClusterOverridePolicy' ? '' : namespace;
  const policy = `${item.kind} ${ns ? `${ns}/` : ''}${item.name}`;
  const defined = policies.byName.get(policy);
  if (!defined) return { policy };
  let rules = policies.rules.get(defined);
  if (!rules) {
    rules = defined.object.spec.overrideRules?.length
      ? defined.object.spec.overrideRules.map((r, i) => [i, normalised(r.overriders)])
      : [[-1, normalised(defined.object.spec.overriders)]];
    policies.rules.set(defined, rules);
  }
  const rule = rules.find(([, o]) => o === item.overriders)?.[0];
  return { policy, ...(rule !== undefined ? { rule } : {}), source: sourceOf(defined) };
}

function indexPolicies(policies: readonly Located<OverridePolicy>[]): PolicyIndex {
  const byName = new Map<string, Located<OverridePolicy>>();
  // The first of a name, as a linear search found it.
  for (const p of policies) if (!byName.has(describePolicy(p.object))) byName.set(describePolicy(p.object), p);
  return { byName, rules: new Map() };
}

function normalised(overriders: Overriders | undefined): string {
  return JSON.stringify(JSON.parse(goJsonText(overriders ?? {}, OVERRIDERS)));
}

/** How a cause reads in the plan: `OverridePolicy default/nginx-op rule 1 (policies/op.yaml:1) changed`. */
export function describeCause(c: OverrideCause): string {
  const rule = c.rule === undefined ? '' : c.rule < 0 ? ' spec.overriders' : ` rule ${c.rule}`;
  return `${c.policy}${rule}${c.source ? ` (${c.source})` : ''} ${c.change}`;
}
