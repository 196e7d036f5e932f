// A CustomResourceDefinition version's openAPIV3Schema, compiled once into what kube-apiserver's apiextensions
// reads of it: the structural schema (types, properties, items, additionalProperties, defaults, the
// x-kubernetes-* extensions) that prunes, defaults and types the object, and the value validations kube-openapi
// checks (pkg/apiserver/validation: formats other than its supported ones are dropped). Pure.
// x-kubernetes-validations (CEL rules) are kept out: they are not evaluated.
import { stringFormatCheck } from './stringFormats.ts';

export interface CompiledSchema {
  /** object, array, string, integer, number, boolean; absent when the schema leaves it open. */
  type?: string;
  nullable: boolean;
  properties?: ReadonlyMap<string, CompiledSchema>;
  /** A schema for the other keys, true for any value, false for none; absent: not said (any, unchecked). */
  additionalProperties?: CompiledSchema | boolean;
  items?: CompiledSchema;
  /** Set when the schema declares a default (JSON, copied where it applies). */
  default?: { value: unknown };
  preserveUnknownFields: boolean;
  embeddedResource: boolean;
  intOrString: boolean;
  listType?: string;
  listMapKeys?: readonly string[];
  format?: { name: string; check: (value: string) => boolean };
  enum?: readonly unknown[];
  pattern?: { source: string; regexp: RegExp };
  maximum?: number;
  exclusiveMaximum: boolean;
  minimum?: number;
  exclusiveMinimum: boolean;
  multipleOf?: number;
  maxLength?: number;
  minLength?: number;
  maxItems?: number;
  minItems?: number;
  uniqueItems: boolean;
  maxProperties?: number;
  minProperties?: number;
  required?: readonly string[];
  allOf?: readonly CompiledSchema[];
  anyOf?: readonly CompiledSchema[];
  oneOf?: readonly CompiledSchema[];
  not?: CompiledSchema;
}

/** A custom resource's kind as served: the schema of each served version, by version name. */
export interface CompiledCrd {
  group: string;
  kind: string;
  plural: string;
  scope: 'Namespaced' | 'Cluster';
  /** Served versions only: an object of another version is not served at all. */
  versions: ReadonlyMap<string, CompiledSchema>;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * The apiextensions.k8s.io/v1 CRD's served versions compiled; undefined for anything else (v1beta1 CRDs are not
 * served since Kubernetes 1.22) or a CRD without group, kind or versions.
 */
export function compileCrd(crd: Json): CompiledCrd | undefined {
  if (crd.apiVersion !== 'apiextensions.k8s.io/v1' || crd.kind !== 'CustomResourceDefinition') return undefined;
  const spec = crd.spec;
  if (!isObject(spec) || typeof spec.group !== 'string' || !isObject(spec.names)) return undefined;
  const { kind, plural } = spec.names;
  if (typeof kind !== 'string' || !Array.isArray(spec.versions)) return undefined;
  const versions = new Map<string, CompiledSchema>();
  for (const v of spec.versions) {
    if (!isObject(v) || typeof v.name !== 'string' || v.served !== true) continue;
    const schema = isObject(v.schema) ? v.schema.openAPIV3Schema : undefined;
    versions.set(v.name, compileSchema(isObject(schema) ? schema : {}));
  }
  return {
    group: spec.group,
    kind,
    plural: typeof plural === 'string' ? plural : '',
    scope: spec.scope === 'Cluster' ? 'Cluster' : 'Namespaced',
    versions,
  };
}

/** One JSONSchemaProps node and everything under it. */
export function compileSchema(s: Json): CompiledSchema {
  const out: CompiledSchema = {
    nullable: s.nullable === true,
    preserveUnknownFields: s['x-kubernetes-preserve-unknown-fields'] === true,
    embeddedResource: s['x-kubernetes-embedded-resource'] === true,
    intOrString: s['x-kubernetes-int-or-string'] === true,
    exclusiveMaximum: s.exclusiveMaximum === true,
    exclusiveMinimum: s.exclusiveMinimum === true,
    uniqueItems: s.uniqueItems === true,
  };
  if (typeof s.type === 'string' && s.type !== '') out.type = s.type;
  if (isObject(s.properties)) {
    const properties = new Map<string, CompiledSchema>();
    for (const [name, p] of Object.entries(s.properties)) properties.set(name, compileSchema(isObject(p) ? p : {}));
    out.properties = properties;
  }
  if (s.additionalProperties === true || s.additionalProperties === false)
    out.additionalProperties = s.additionalProperties;
  else if (isObject(s.additionalProperties)) out.additionalProperties = compileSchema(s.additionalProperties);
  if (isObject(s.items)) out.items = compileSchema(s.items);
  if (s.default !== undefined) out.default = { value: s.default };
  if (typeof s['x-kubernetes-list-type'] === 'string') out.listType = s['x-kubernetes-list-type'];
  const keys = s['x-kubernetes-list-map-keys'];
  if (Array.isArray(keys)) out.listMapKeys = keys.filter((k): k is string => typeof k === 'string');
  if (typeof s.format === 'string') {
    const check = stringFormatCheck(s.format);
    if (check) out.format = { name: s.format, check };
  }
  if (Array.isArray(s.enum) && s.enum.length > 0) out.enum = s.enum;
  if (typeof s.pattern === 'string' && s.pattern !== '') {
    const regexp = goRegExp(s.pattern);
    if (regexp) out.pattern = { source: s.pattern, regexp };
  }
  for (const key of [
    'maximum',
    'minimum',
    'multipleOf',
    'maxLength',
    'minLength',
    'maxItems',
    'minItems',
    'maxProperties',
    'minProperties',
  ] as const) {
    const value = num(s[key]);
    if (value !== undefined) out[key] = value;
  }
  if (Array.isArray(s.required)) out.required = s.required.filter((r): r is string => typeof r === 'string');
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[key];
    if (Array.isArray(list) && list.length > 0) out[key] = list.map((n) => compileSchema(isObject(n) ? n : {}));
  }
  if (isObject(s.not)) out.not = compileSchema(s.not);
  return out;
}

/** The schema of an object's field: its property's, else additionalProperties' where that is a schema. */
export function fieldSchema(key: string, s: CompiledSchema | undefined): CompiledSchema | undefined {
  if (!s) return undefined;
  return s.properties?.get(key) ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
}

/**
 * A Go RE2 pattern as a JavaScript RegExp (unanchored, as regexp.MatchString searches), with RE2's leading inline
 * flags; undefined when JavaScript cannot read it (then it is not checked here: kube-apiserver accepted it).
 */
function goRegExp(pattern: string): RegExp | undefined {
  // Go's RE2 matches in linear time; JavaScript's engine backtracks, and a repeated group that itself repeats or
  // alternates (`^(a+)+$`) takes exponential time on a value that almost matches: a CRD and an object of a pull
  // request would hold the render for ever. Such a pattern is left unchecked, as one JavaScript cannot read.
  if (mayBacktrackExponentially(pattern)) return undefined;
  let source = pattern;
  let flags = 'u';
  const inline = /^\(\?([imsU]+)\)/.exec(source);
  if (inline) {
    if (inline[1]!.includes('U')) return undefined;
    flags += inline[1]!.replace(/[^ims]/g, '');
    source = source.slice(inline[0].length);
  }
  // RE2's \z is JavaScript's end of input without the multiline flag.
  source = source.replaceAll('\\z', '$');
  try {
    return new RegExp(source, flags);
  } catch {
    try {
      return new RegExp(source, flags.replace('u', ''));
    } catch {
      return undefined;
    }
  }
}

/**
 * Whether a pattern has a group repeated without bound (`*`, `+`, `{n,}`, `{n,m}` with m > 1) that holds a quantifier
 * or an alternation: the shape that makes a backtracking engine exponential. Escapes and character classes are
 * skipped; a group repeated at most once (`?`, `{0,1}`) is not counted. Pure.
 */
export function mayBacktrackExponentially(pattern: string): boolean {
  const open: boolean[] = []; // per open group: whether it holds a quantifier or `|`
  const repeatsAt = (i: number): boolean => {
    const c = pattern[i];
    if (c === '*' || c === '+') return true;
    if (c !== '{') return false;
    const bound = /^\{(\d*)(,(\d*))?\}/.exec(pattern.slice(i));
    if (!bound) return false;
    if (bound[2] === undefined) return Number(bound[1]) > 1;
    return bound[3] === '' || Number(bound[3]) > 1;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      // A class ends at the first `]` past its first character (`[]a]` holds `]`), escapes skipped.
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j;
      continue;
    }
    if (c === '(') open.push(false);
    else if (c === ')') {
      const inner = open.pop() ?? false;
      if (inner && repeatsAt(i + 1)) return true;
      // What the group held, and the group itself when quantified, count for the group around it.
      if (open.length > 0 && (inner || /^[*+?{]/.test(pattern[i + 1] ?? ''))) open[open.length - 1] = true;
    } else if (c === '|' || c === '*' || c === '+' || c === '?' || c === '{') {
      if (open.length > 0) open[open.length - 1] = true;
    }
  }
  return false;
}
