// What kube-apiserver refuses of a custom resource, against its CRD version's compiled schema, in its own words:
// the fields strict decoding calls unknown (pruning's walk, pkg/apiserver/schema/pruning), kube-openapi's schema
// validation as apiextensions turns it into field errors (pkg/apiserver/validation/validation.go), the embedded
// resources' apiVersion, kind and metadata (schema/objectmeta) and list-type set and map uniqueness
// (schema/listtype). Run on the defaulted object, as the API server validates after decoding and defaulting.
// An update's checks are ratcheted as 1.30+ does (CRDValidationRatcheting, pkg/apiserver/validation/ratcheting.go).
// CEL rules (x-kubernetes-validations) are not evaluated. Pure.
import { fieldsOfType } from '../api/builtinTypes.ts';
import { fieldPathText } from '../api/unknownFields.ts';
import { objectMetaViolations } from '../labels/objectMetaRules.ts';
import { type CompiledSchema, fieldSchema } from './compileCrdSchema.ts';
import { fieldValue, goFloat, goNumber, goPlain } from './goValues.ts';

export type Path = (string | number)[];

export interface FieldError {
  /** From the object's root to the field. */
  path: Path;
  /** kube-apiserver's text of the error: `spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`. */
  message: string;
  /** One concrete instruction for the author of the object. */
  fix: string;
}

/** The object's root as the API server reads it: typed, its own metadata left to ObjectMeta. */
const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * The fields kube-apiserver's strict decoding refuses (`strict decoding error: unknown field "spec.bogus"`), in
 * document order: pruning's walk (a field no property or additionalProperties declares, except under
 * x-kubernetes-preserve-unknown-fields, and apiVersion, kind and metadata of the root and of embedded resources),
 * and the keys of those metadata that ObjectMeta does not declare.
 */
export function unknownFieldPaths(object: unknown, schema: CompiledSchema): Path[] {
  const found: Path[] = [];
  unknownMeta(object, [], found);
  prune(object, { ...schema, embeddedResource: true }, [], found);
  return found;
}

const OBJECT_META = fieldsOfType('V1ObjectMeta');

function unknownMeta(object: unknown, at: Path, found: Path[]): void {
  const metadata = isObject(object) ? object.metadata : undefined;
  if (!isObject(metadata)) return;
  for (const key of Object.keys(metadata)) if (!OBJECT_META.has(key)) found.push([...at, 'metadata', key]);
}

/**
 * Pruning's walk. Under x-kubernetes-preserve-unknown-fields (the schema's own, or `preserving`: an array's items
 * inherit it, as skipPrune's) an undeclared key is kept, not unknown; a declared property's value is pruned again.
 */
function prune(value: unknown, schema: CompiledSchema | undefined, at: Path, found: Path[], preserving = false): void {
  const preserve = preserving || schema?.preserveUnknownFields === true;
  if (preserve && !schema) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => prune(item, schema?.items, [...at, i], found, preserve));
    return;
  }
  if (!isObject(value)) return;
  if (!schema) {
    for (const key of Object.keys(value)) found.push([...at, key]);
    return;
  }
  if (schema.embeddedResource && at.length > 0) unknownMeta(value, at, found);
  for (const [key, child] of Object.entries(value)) {
    if (schema.embeddedResource && META_FIELDS.has(key)) continue;
    const property = schema.properties?.get(key);
    if (property) prune(child, property, [...at, key], found);
    else if (schema.additionalProperties !== undefined && schema.additionalProperties !== false)
      prune(child, additional(schema), [...at, key], found);
    else if (!preserve && (!META_FIELDS.has(key) || at.length > 0)) found.push([...at, key]);
  }
}

/** additionalProperties: true is a structural schema of nothing: what it holds is pruned below it. */
function additional(schema: CompiledSchema): CompiledSchema | undefined {
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
}

/**
 * Every field error kube-apiserver's create returns for the (decoded, defaulted) object, but CEL's: the schema's, then
 * the embedded resources', then the list types'. Empty when it is admitted.
 */
export function validateCustomResource(object: unknown, schema: CompiledSchema): FieldError[] {
  const errors: FieldError[] = [];
  validate(object, schema, [], errors);
  embedded(object, schema, [], errors, true);
  listTypes(object, schema, [], errors);
  return errors;
}

/**
 * What the strategy's ValidateUpdate returns for replacing `old` with `object` (both decoded and defaulted), ratcheted:
 * a schema error in a value the update leaves as it was is not reported, and list-type duplicates are not checked
 * at all when the old object already had some. Embedded resources are checked as on create.
 */
export function validateCustomResourceUpdate(object: unknown, old: unknown, schema: CompiledSchema): FieldError[] {
  const errors: FieldError[] = [];
  validate(object, schema, [], errors, { old, schema });
  embedded(object, schema, [], errors, true);
  errors.push(...ratchetedListTypes(object, old, schema));
  return errors;
}

/**
 * The status subresource's update (statusStrategy.ValidateUpdate): the status against the schema's status property,
 * not ratcheted in 1.32 (its validator is given no old value), only when the object has one; and the whole object's
 * list types, skipped when the old object already broke them. Embedded resources are not checked.
 */
export function validateCustomResourceStatusUpdate(
  object: Record<string, unknown>,
  old: unknown,
  schema: CompiledSchema,
): FieldError[] {
  const errors: FieldError[] = [];
  const status = schema.properties?.get('status');
  if (Object.hasOwn(object, 'status') && status) {
    const onlyStatus: CompiledSchema = {
      nullable: false,
      preserveUnknownFields: false,
      embeddedResource: false,
      intOrString: false,
      exclusiveMaximum: false,
      exclusiveMinimum: false,
      uniqueItems: false,
      properties: new Map([['status', status]]),
    };
    validate({ status: object.status }, onlyStatus, [], errors);
  }
  errors.push(...ratchetedListTypes(object, old, schema));
  return errors;
}

function ratchetedListTypes(object: unknown, old: unknown, schema: CompiledSchema): FieldError[] {
  const before: FieldError[] = [];
  listTypes(old, schema, [], before);
  if (before.length > 0) return [];
  const errors: FieldError[] = [];
  listTypes(object, schema, [], errors);
  return errors;
}

/**
 * The old value an update's value is matched with (common.CorrelatedObject), and the structural schema at that place:
 * the schema, not a combinator's branch being validated, decides which fields and items can be matched.
 */
interface Correlation {
  old: unknown;
  schema: CompiledSchema;
}

function validate(value: unknown, s: CompiledSchema, at: Path, out: FieldError[], was?: Correlation): void {
  // Every error found at or under a value matched with an equal old one is dropped: nothing to report.
  if (was && unchanged(value, was.old, was.schema)) return;
  const name = fieldPathText(at);
  const types = s.intOrString ? ['integer', 'string'] : s.type ? [s.type] : [];
  if (value === null || value === undefined) {
    if (types.length > 0 && !s.nullable)
      out.push(typeError(at, name, types.join(','), 'null', `give ${name || 'it'} a value, or remove it`));
    enumCheck(value, s, at, name, out);
    return;
  }
  const [kind, format] = jsonType(value);
  const fits = (t: string) => t === kind || (t === 'number' && kind === 'integer');
  if (types.length > 0 || s.format) {
    if (kind !== 'string' && kind !== 'array' && s.format && !(types.some(fits) || format === s.format.name))
      out.push(typeError(at, name, s.format.name, format, `write ${name} as a string in the ${s.format.name} format`));
    else if (!(s.format && kind === 'string' && !types.includes('number') && !types.includes('integer')))
      if (types.length > 0 && !types.some(fits))
        out.push(typeError(at, name, types.join(','), kind, typeFix(types, value, name)));
  }
  combinators(value, s, at, name, out, was);
  if (typeof value === 'string') {
    const length = [...value].length;
    if (s.maxLength !== undefined && length > s.maxLength)
      out.push({
        path: at,
        message: `${name}: Too long: may not be more than ${s.maxLength} bytes`,
        fix: `shorten ${name} to at most ${s.maxLength} characters`,
      });
    else if (s.minLength !== undefined && length < s.minLength)
      out.push(
        invalid(
          at,
          value,
          `${name} in body should be at least ${s.minLength} chars long`,
          `lengthen ${name} to at least ${s.minLength} characters`,
        ),
      );
    else if (s.pattern && !s.pattern.regexp.test(value))
      out.push(
        invalid(
          at,
          value,
          `${name} in body should match '${s.pattern.source}'`,
          `change ${name} so that it matches ${s.pattern.source}`,
        ),
      );
    if (s.format && !s.format.check(value))
      out.push(typeError(at, name, s.format.name, value, `write ${name} in the ${s.format.name} format`));
  }
  if (typeof value === 'number') numberChecks(value, s, at, name, out);
  if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < s.minItems)
      out.push(
        invalid(
          at,
          value.length,
          `${name} in body should have at least ${s.minItems} items`,
          `give ${name} at least ${s.minItems} ${s.minItems === 1 ? 'entry' : 'entries'}`,
        ),
      );
    if (s.maxItems !== undefined && value.length > s.maxItems)
      out.push({
        path: at,
        message: `${name}: Too many: ${value.length}: must have at most ${s.maxItems} items`,
        fix: `keep at most ${s.maxItems} entries in ${name}`,
      });
    if (s.items) value.forEach((item, i) => validate(item, s.items!, [...at, i], out, matchItem(was, value, i)));
  }
  enumCheck(value, s, at, name, out);
  if (isObject(value)) objectChecks(value, s, at, name, out, was);
}

function objectChecks(
  value: Record<string, unknown>,
  s: CompiledSchema,
  at: Path,
  name: string,
  out: FieldError[],
  was: Correlation | undefined,
): void {
  const count = Object.keys(value).length;
  if (s.minProperties !== undefined && count < s.minProperties)
    out.push(
      invalid(
        at,
        count,
        `${name} in body should have at least ${s.minProperties} properties`,
        `give ${name} at least ${s.minProperties} keys`,
      ),
    );
  if (s.maxProperties !== undefined && count > s.maxProperties)
    out.push({
      path: at,
      message: `${name}: Too many: ${count}: must have at most ${s.maxProperties} items`,
      fix: `keep at most ${s.maxProperties} keys in ${name}`,
    });
  for (const [key, child] of Object.entries(value)) {
    const field = fieldSchema(key, s);
    // The root's apiVersion and kind are never matched: both objects were converted to the same version.
    const matched =
      at.length === 0 && (key === 'apiVersion' || key === 'kind') ? undefined : matchField(was, value, key);
    if (field) validate(child, field, [...at, key], out, matched);
  }
  for (const key of s.required ?? [])
    if (!Object.hasOwn(value, key)) {
      const field = fieldPathText([...at, key]);
      out.push({
        path: [...at, key],
        message: `${field}: Required value`,
        fix: `add ${field}: the CRD's schema requires it`,
      });
    }
}

function numberChecks(value: number, s: CompiledSchema, at: Path, name: string, out: FieldError[]): void {
  const integer = Number.isInteger(value);
  // An int64 value is compared with the bound cut to an int64, and the message prints that; a float64 with the bound.
  const bound = (b: number) => (integer ? Math.trunc(b) : b);
  const shown = (b: number) => (integer ? goNumber(Math.trunc(b)) : goFloat(b));
  if (s.multipleOf !== undefined && s.multipleOf > 0) {
    const ratio = value / s.multipleOf;
    if (Math.abs(ratio - Math.round(ratio)) > 1e-9)
      out.push(
        invalid(
          at,
          value,
          `${name} in body should be a multiple of ${goFloat(s.multipleOf)}`,
          `use a multiple of ${goFloat(s.multipleOf)} at ${name}`,
        ),
      );
  }
  if (s.minimum !== undefined) {
    const min = bound(s.minimum);
    if (s.exclusiveMinimum ? value <= min : value < min)
      out.push(
        invalid(
          at,
          value,
          `${name} in body should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${shown(s.minimum)}`,
          `set ${name} to ${s.exclusiveMinimum ? 'more than' : 'at least'} ${shown(s.minimum)}`,
        ),
      );
  }
  if (s.maximum !== undefined) {
    const max = bound(s.maximum);
    if (s.exclusiveMaximum ? value >= max : value > max)
      out.push(
        invalid(
          at,
          value,
          `${name} in body should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${shown(s.maximum)}`,
          `set ${name} to ${s.exclusiveMaximum ? 'less than' : 'at most'} ${shown(s.maximum)}`,
        ),
      );
  }
}

function enumCheck(value: unknown, s: CompiledSchema, at: Path, name: string, out: FieldError[]): void {
  if (!s.enum || s.enum.some((e) => deepEqual(e, value))) return;
  const values = s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)));
  out.push({
    path: at,
    message: `${name}: Unsupported value: ${fieldValue(value)}: supported values: ${values.map((v) => JSON.stringify(v)).join(', ')}`,
    fix: `use one of: ${values.join(', ')}`,
  });
}

function combinators(
  value: unknown,
  s: CompiledSchema,
  at: Path,
  name: string,
  out: FieldError[],
  was: Correlation | undefined,
): void {
  // A branch's fields are matched with the old value's as the node's own are, so ratcheting can make a branch pass.
  const run = (schema: CompiledSchema) => {
    const found: FieldError[] = [];
    validate(value, schema, at, found, was);
    return found;
  };
  const composite = (message: string, fix: string) =>
    out.push({ path: at, message: `<nil>: Invalid value: "": ${JSON.stringify(name)} ${message}`, fix });
  if (s.anyOf) {
    const results = s.anyOf.map(run);
    if (!results.some((r) => r.length === 0)) {
      composite(
        'must validate at least one schema (anyOf)',
        `make ${name || 'the object'} match one of the forms the CRD's anyOf allows`,
      );
      out.push(...results[0]!);
    }
  }
  if (s.oneOf) {
    const results = s.oneOf.map(run);
    const valid = results.filter((r) => r.length === 0).length;
    if (valid !== 1) {
      composite(
        `must validate one and only one schema (oneOf). ${valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`}`,
        `make ${name || 'the object'} match exactly one of the forms the CRD's oneOf allows`,
      );
      if (valid === 0) out.push(...results[0]!);
    }
  }
  if (s.allOf) {
    const results = s.allOf.map(run);
    for (const r of results) out.push(...r);
    const valid = results.filter((r) => r.length === 0).length;
    if (valid !== results.length)
      composite(
        `must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}`,
        `make ${name || 'the object'} match every form the CRD's allOf requires`,
      );
  }
  if (s.not && run(s.not).length === 0)
    composite(
      'must not validate the schema (not)',
      `change ${name || 'the object'}: the CRD's schema forbids this form (not)`,
    );
}

/** apiextensions' x-kubernetes-embedded-resource checks: apiVersion and kind set and well formed, metadata valid. */
function embedded(value: unknown, s: CompiledSchema | undefined, at: Path, out: FieldError[], root = false): void {
  if (!s) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => embedded(item, s.items, [...at, i], out));
    return;
  }
  if (!isObject(value)) return;
  if (s.embeddedResource && !root) embeddedResource(value, at, out);
  for (const [key, child] of Object.entries(value)) {
    const field = fieldSchema(key, s);
    if (field) embedded(child, field, [...at, key], out);
  }
}

function embeddedResource(value: Record<string, unknown>, at: Path, out: FieldError[]): void {
  for (const key of ['apiVersion', 'kind'])
    if (!Object.hasOwn(value, key)) {
      const field = fieldPathText([...at, key]);
      out.push({
        path: [...at, key],
        message: `${field}: Required value: must not be empty`,
        fix: `add ${field}: an embedded resource names its ${key}`,
      });
    }
  const { apiVersion, kind, metadata } = value;
  const field = (key: string) => fieldPathText([...at, key]);
  if (apiVersion !== undefined) {
    if (typeof apiVersion !== 'string')
      out.push(
        invalid(
          [...at, 'apiVersion'],
          apiVersion,
          'must be a string',
          `write ${field('apiVersion')} as a string`,
          field('apiVersion'),
        ),
      );
    else if (apiVersion === '')
      out.push(
        invalid(
          [...at, 'apiVersion'],
          apiVersion,
          'must not be empty',
          `set ${field('apiVersion')}, e.g. v1 or apps/v1`,
          field('apiVersion'),
        ),
      );
    else if (apiVersion.split('/').length > 2)
      out.push(
        invalid(
          [...at, 'apiVersion'],
          apiVersion,
          `unexpected GroupVersion string: ${apiVersion}`,
          `write ${field('apiVersion')} as group/version or version`,
          field('apiVersion'),
        ),
      );
  }
  if (kind !== undefined) {
    if (typeof kind !== 'string')
      out.push(invalid([...at, 'kind'], kind, 'must be a string', `write ${field('kind')} as a string`, field('kind')));
    else if (kind === '')
      out.push(invalid([...at, 'kind'], kind, 'must not be empty', `set ${field('kind')}`, field('kind')));
    else if (!/^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(kind.toLowerCase()) || kind.length > 63)
      out.push(
        invalid(
          [...at, 'kind'],
          kind,
          "may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
          `write ${field('kind')} as a kind name, e.g. ConfigMap`,
          field('kind'),
        ),
      );
  }
  if (metadata !== undefined && metadata !== null) {
    if (!isObject(metadata)) {
      out.push(
        invalid(
          [...at, 'metadata'],
          metadata,
          'must be an object',
          `write ${field('metadata')} as key: value pairs`,
          field('metadata'),
        ),
      );
      return;
    }
    if (typeof metadata.name === 'string' && metadata.name !== '') {
      const name = metadata.name;
      const bad =
        name === '.' || name === '..'
          ? `may not be '${name}'`
          : /[/%]/.test(name)
            ? `may not contain '${name.includes('/') ? '/' : '%'}'`
            : undefined;
      if (bad)
        out.push(
          invalid(
            [...at, 'metadata', 'name'],
            name,
            bad,
            `rename ${field('metadata')}.name without '/' or '%'`,
            `${field('metadata')}.name`,
          ),
        );
    }
    for (const v of objectMetaViolations(metadata, [...at, 'metadata']))
      out.push({ path: v.path, message: `${v.field}: ${v.detail}`, fix: v.fix });
  }
}

/** x-kubernetes-list-type set and map: no two equal items, no two items with the same keys (the later is reported). */
function listTypes(value: unknown, s: CompiledSchema | undefined, at: Path, out: FieldError[]): void {
  if (!s) return;
  if (Array.isArray(value)) {
    if (s.listType === 'set') duplicates(value, at, out, (item) => item);
    if (s.listType === 'map') {
      const bad = value.findIndex((item) => item !== null && !isObject(item));
      if (bad >= 0)
        out.push(
          invalid(
            [...at, bad],
            value[bad],
            'must be an object for an array of list-type map',
            `write each entry of ${fieldPathText(at)} as key: value pairs`,
            fieldPathText([...at, bad]),
          ),
        );
      else {
        const keys = s.listMapKeys ?? [];
        duplicates(value, at, out, (item) => {
          const key: Record<string, unknown> = {};
          if (isObject(item)) for (const k of keys) if (Object.hasOwn(item, k)) key[k] = item[k];
          return key;
        });
      }
    }
    if (s.items) value.forEach((item, i) => listTypes(item, s.items, [...at, i], out));
    return;
  }
  if (!isObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const field = fieldSchema(key, s);
    if (field) listTypes(child, field, [...at, key], out);
  }
}

function duplicates(list: unknown[], at: Path, out: FieldError[], keyOf: (item: unknown) => unknown): void {
  if (list.length <= 1) return;
  const seen = new Map<string, number>();
  list.forEach((item, i) => {
    const key = keyOf(item);
    const text = canonicalJson(key);
    const times = seen.get(text) ?? 0;
    seen.set(text, times + 1);
    if (times === 1) {
      const field = fieldPathText([...at, i]);
      out.push({
        path: [...at, i],
        message: `${field}: Duplicate value: ${fieldValue(key)}`,
        fix: `remove the entry or change it: ${fieldPathText(at)} holds ${fieldValue(key)} more than once`,
      });
    }
  });
}

/** The old value of an object's field: present in both, and declared by a property or an additionalProperties schema. */
function matchField(
  was: Correlation | undefined,
  value: Record<string, unknown>,
  key: string,
): Correlation | undefined {
  if (!was || !isObject(was.old) || !Object.hasOwn(was.old, key) || !Object.hasOwn(value, key)) return undefined;
  const schema = fieldSchema(key, was.schema);
  return schema && { old: was.old[key], schema };
}

/**
 * The old item of a list's item: only a map list's, the old item with the same keys (the first such); the items of
 * an atomic or set list are not matched, by index or otherwise.
 */
function matchItem(was: Correlation | undefined, list: unknown[], index: number): Correlation | undefined {
  if (!was || !Array.isArray(was.old) || !was.schema.items) return undefined;
  const old = oldMapItem(was.schema, was.old, list[index]);
  return old === undefined ? undefined : { old, schema: was.schema.items };
}

function oldMapItem(schema: CompiledSchema, old: unknown[], item: unknown): unknown {
  const keys = schema.listMapKeys ?? [];
  if (schema.type !== 'array' || schema.listType !== 'map' || keys.length === 0) return undefined;
  const keyOf = (v: unknown) => {
    if (!isObject(v)) return undefined;
    const values = keys.map((k) => v[k]);
    // Only scalar keys, all present, identify an item.
    if (values.some((k) => typeof k !== 'string' && typeof k !== 'number' && typeof k !== 'boolean')) return undefined;
    return JSON.stringify(values);
  };
  const wanted = keyOf(item);
  return wanted === undefined ? undefined : old.find((o) => keyOf(o) === wanted);
}

/**
 * CorrelatedObject.CachedDeepEqual: equal values, compared through the schema's matching, so an object with a field
 * its schema does not declare, or a map list with an item whose keys the old one lacks, is never unchanged.
 */
function unchanged(value: unknown, old: unknown, schema: CompiledSchema): boolean {
  if (value === null || value === undefined || old === null || old === undefined)
    return (value ?? null) === (old ?? null);
  if (Array.isArray(value) !== Array.isArray(old) || isObject(value) !== isObject(old)) return false;
  if (Array.isArray(value)) {
    const list = old as unknown[];
    if (value.length !== list.length) return false;
    const correlated = schema.type === 'array' && schema.listType === 'map' && (schema.listMapKeys ?? []).length > 0;
    if (schema.listType !== 'map') return deepEqual(value, list);
    if (!correlated || !schema.items) return value.length === 0;
    return value.every((item) => {
      const before = oldMapItem(schema, list, item);
      return before !== undefined && unchanged(item, before, schema.items!);
    });
  }
  if (isObject(value)) {
    const before = old as Record<string, unknown>;
    if (Object.keys(value).length !== Object.keys(before).length) return false;
    return Object.entries(value).every(([key, child]) => {
      const field = fieldSchema(key, schema);
      return field !== undefined && Object.hasOwn(before, key) && unchanged(child, before[key], field);
    });
  }
  return value === old;
}

function typeError(at: Path, name: string, expected: string, actual: string, fix: string): FieldError {
  return {
    path: at,
    message: `${name}: Invalid value: ${JSON.stringify(actual)}: ${name} in body must be of type ${expected}: ${JSON.stringify(actual)}`,
    fix,
  };
}

function invalid(at: Path, value: unknown, detail: string, fix: string, field = fieldPathText(at)): FieldError {
  return { path: at, message: `${field}: Invalid value: ${fieldValue(value)}: ${detail}`, fix };
}

function typeFix(types: string[], value: unknown, name: string): string {
  if (types.includes('integer') && typeof value === 'string' && /^[+-]?\d+$/.test(value.trim()))
    return `remove the quotes: ${name}: ${value.trim()}`;
  if (types.includes('string') && (typeof value === 'number' || typeof value === 'boolean'))
    return `quote the value so YAML reads it as text: ${name}: "${goPlain(value)}"`;
  if (types.includes('boolean') && typeof value === 'string' && /^(true|false)$/i.test(value))
    return `write ${value.toLowerCase()} without quotes`;
  const as: Record<string, string> = {
    object: 'key: value pairs',
    array: 'a list',
    integer: 'a whole number',
    number: 'a number',
    boolean: 'true or false',
    string: 'a string',
  };
  return `write ${name} as ${types.map((t) => as[t] ?? t).join(' or ')}`;
}

/** kube-openapi's JSON type of a decoded value and the format Go gives it (an integral number decodes to int64). */
function jsonType(value: unknown): [string, string] {
  if (typeof value === 'string') return ['string', ''];
  if (typeof value === 'boolean') return ['boolean', ''];
  if (typeof value === 'number') return Number.isInteger(value) ? ['integer', 'int64'] : ['number', 'float64'];
  if (Array.isArray(value)) return ['array', ''];
  return ['object', ''];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
