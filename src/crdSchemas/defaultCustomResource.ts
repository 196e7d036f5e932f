// A custom resource as kube-apiserver stores it after decoding: the nulls of non-nullable fields without a default
// dropped (defaulting/prunenulls.go), then every default its schema declares applied (defaulting/algorithm.go): a
// property's default where the property is absent, or null and not nullable; inside objects and arrays only where
// they are present (a defaulted object gets the defaults of its own properties too); an array's and a map's null
// items their items' default. Karmada's API server stores a template so, and builds its Works from that. Pure.
import { type CompiledSchema, fieldSchema } from './compileCrdSchema.ts';

/** The object with its schema's defaults applied; the object itself when nothing changes. */
export function defaultCustomResource<T>(object: T, schema: CompiledSchema): T {
  if (!touches(object, schema)) return object;
  const copy = structuredClone(object);
  pruneNulls(copy, schema);
  applyDefaults(copy, schema);
  return copy;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const nonNullableNull = (value: unknown, s: CompiledSchema | undefined) =>
  value === null && s !== undefined && !s.nullable;

function pruneNulls(value: unknown, s: CompiledSchema | undefined): void {
  if (Array.isArray(value)) {
    for (const item of value) pruneNulls(item, s?.items);
    return;
  }
  if (!isObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const schema = fieldSchema(key, s);
    if (nonNullableNull(child, schema) && !schema!.default) delete value[key];
    else pruneNulls(child, schema);
  }
}

function applyDefaults(value: unknown, s: CompiledSchema | undefined): void {
  if (!s) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (nonNullableNull(value[i], s.items) && s.items?.default) value[i] = structuredClone(s.items.default.value);
      applyDefaults(value[i], s.items);
    }
    return;
  }
  if (!isObject(value)) return;
  for (const [key, property] of s.properties ?? []) {
    if (!property.default) continue;
    if (!Object.hasOwn(value, key) || nonNullableNull(value[key], property))
      value[key] = structuredClone(property.default.value);
  }
  const extra = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  for (const key of Object.keys(value)) {
    const property = s.properties?.get(key);
    if (property) applyDefaults(value[key], property);
    else if (extra) {
      if (nonNullableNull(value[key], extra) && extra.default) value[key] = structuredClone(extra.default.value);
      applyDefaults(value[key], extra);
    }
  }
}

/** Whether defaulting can change the object: a null anywhere a schema reaches, or a default its walk meets. */
function touches(value: unknown, s: CompiledSchema | undefined): boolean {
  if (!s) return false;
  if (Array.isArray(value)) return value.some((item) => item === null || touches(item, s.items));
  if (!isObject(value)) return false;
  for (const [key, property] of s.properties ?? []) if (property.default && !Object.hasOwn(value, key)) return true;
  for (const [key, child] of Object.entries(value)) {
    const schema = fieldSchema(key, s);
    if (child === null ? schema !== undefined : touches(child, schema)) return true;
  }
  return false;
}
