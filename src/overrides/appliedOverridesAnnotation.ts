// The value of a Work's policy.karmada.io/applied-overrides and applied-cluster-overrides annotations, byte for byte as
// Karmada writes it (pkg/util/overridemanager/shadow.go AppliedOverrides.MarshalJSON, recorded by
// pkg/controllers/binding/common.go RecordAppliedOverrides): one item per rule applied, sorted by policy name, each
// with the rule's whole Overriders as Go's encoding/json marshals pkg/apis/policy/v1alpha1/override_types.go.
import type {
  CommandArgsOverrider,
  FieldOverrider,
  ImageOverrider,
  LabelAnnotationOverrider,
  Overriders,
  PlaintextOverrider,
} from '../api/policy.ts';
import { stringifyJsonLikeGo } from '../patches/patchJsonText.ts';

export interface AppliedOverrideItem {
  /** The policy's name alone (Karmada's OverridePolicyShadow.PolicyName): no kind, no namespace. */
  policyName: string;
  overriders: Overriders;
}

/** undefined for no item: Karmada then writes no annotation at all. */
export function appliedOverridesAnnotation(items: readonly AppliedOverrideItem[]): string | undefined {
  if (items.length === 0) return undefined;
  // sort.Slice over a handful of items is an insertion sort, which keeps a policy's rules in their order.
  const sorted = [...items].sort((a, b) => byBytes(a.policyName, b.policyName));
  return `[${sorted.map((i) => `{"policyName":${str(i.policyName)},"overriders":${overridersJson(i.overriders)}}`).join(',')}]`;
}

/** Struct fields in declaration order; every list is `omitempty`, so an empty one is left out like a missing one. */
function overridersJson(o: Overriders): string {
  return object([
    ['plaintext', list(o.plaintext, plaintextJson)],
    ['imageOverrider', list(o.imageOverrider, imageJson)],
    ['commandOverrider', list(o.commandOverrider, commandArgsJson)],
    ['argsOverrider', list(o.argsOverrider, commandArgsJson)],
    ['labelsOverrider', list(o.labelsOverrider, labelAnnotationJson)],
    ['annotationsOverrider', list(o.annotationsOverrider, labelAnnotationJson)],
    ['fieldOverrider', list(o.fieldOverrider, fieldJson)],
  ]);
}

function plaintextJson(p: PlaintextOverrider): string {
  return object([
    ['path', str(p.path)],
    ['operator', str(p.operator)],
    ['value', rawJson(p.value)],
  ]);
}

function imageJson(i: ImageOverrider): string {
  return object([
    ['predicate', i.predicate ? object([['path', str(i.predicate.path)]]) : undefined],
    ['component', str(i.component)],
    ['operator', str(i.operator)],
    ['value', i.value ? str(i.value) : undefined],
  ]);
}

function commandArgsJson(c: CommandArgsOverrider): string {
  return object([
    ['containerName', str(c.containerName)],
    ['operator', str(c.operator)],
    ['value', c.value && c.value.length > 0 ? `[${c.value.map(str).join(',')}]` : undefined],
  ]);
}

/** `value` is a map[string]string without omitempty: null when unset, its keys sorted as Go sorts a map's. */
function labelAnnotationJson(l: LabelAnnotationOverrider): string {
  return object([
    ['operator', str(l.operator)],
    ['value', rawJson(l.value)],
  ]);
}

function fieldJson(f: FieldOverrider): string {
  const operation = (op: { subPath: string; operator: string; value?: unknown }) =>
    object([
      ['subPath', str(op.subPath)],
      ['operator', str(op.operator)],
      ['value', rawJson(op.value)],
    ]);
  return object([
    ['fieldPath', str(f.fieldPath)],
    ['json', list(f.json, operation)],
    ['yaml', list(f.yaml, operation)],
  ]);
}

/**
 * An apiextensions JSON value (its `omitempty` never omits a struct): the raw bytes the API server holds, else null.
 * Those bytes are the value as stored from an unstructured object, whose maps Go writes with their keys sorted.
 */
function rawJson(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(rawJson).join(',')}]`;
  // Written out here, not through an object: JavaScript would put keys like "10" first whatever order they are given.
  if (typeof value === 'object')
    return `{${Object.keys(value)
      .sort(byBytes)
      .map((k) => `${str(k)}:${rawJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return stringifyJsonLikeGo(value);
}

function object(fields: readonly (readonly [string, string | undefined])[]): string {
  return `{${fields
    .filter((f): f is readonly [string, string] => f[1] !== undefined)
    .map(([k, v]) => `"${k}":${v}`)
    .join(',')}}`;
}

function list<T>(items: readonly T[] | undefined, each: (item: T) => string): string | undefined {
  return items && items.length > 0 ? `[${items.map(each).join(',')}]` : undefined;
}

function str(s: string | undefined): string {
  return stringifyJsonLikeGo(s ?? '');
}

/** Go compares strings by their UTF-8 bytes. */
function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
