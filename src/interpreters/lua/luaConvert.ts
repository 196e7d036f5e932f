// Values crossing between JavaScript and the Lua VM the way Karmada's luavm moves them: arguments go in as
// decodeValue does (JSON → gopher-json Decode), results come out as ConvertLuaResultInto does (gopher-json
// Encode → empty-table repair against the references → json.Unmarshal into the Go type the hook returns).
import type { LuaWasm } from 'wasmoon';
import { parseQuantity, type Quantity } from '../../quantities/parseQuantity.ts';
import { typedNodeClaim } from '../replicaRequirements.ts';

export type Json = null | boolean | number | string | Json[] | JsonObject;
export type JsonObject = { [key: string]: Json };

/** A pointer to a lua_State inside the wasm module. */
export type LuaState = number;

/** A conversion failed; the message is the one Karmada's Go code would give. */
export class LuaConvertError extends Error {
  override name = 'LuaConvertError';
}

const TYPE_NIL = 0;
const TYPE_BOOLEAN = 1;
const TYPE_NUMBER = 3;
const TYPE_STRING = 4;
const TYPE_TABLE = 5;

/** gopher-lua's names for value types, used in Karmada's "expect … but got <type>" errors. */
export function luaTypeName(type: number): string {
  return (
    ['nil', 'boolean', 'userdata', 'number', 'string', 'table', 'function', 'userdata', 'thread'][type] ?? 'no value'
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------------------------
// JavaScript → Lua

/** Byte length is passed explicitly so a string with an embedded NUL arrives whole. */
export function pushString(lua: LuaWasm, L: LuaState, text: string): void {
  lua.lua_pushlstring(L, text, lua.module.lengthBytesUTF8(text));
}

/**
 * decodeValue: Karmada marshals the argument to JSON and decodes it with gopher-json, whose LTable.Append and
 * RawSetString drop nils: a null array element closes the gap, a null field is absent. Integral numbers become Lua
 * integers so they print without a fraction, as gopher-lua prints an integral float64.
 */
export function pushValue(lua: LuaWasm, L: LuaState, value: unknown): void {
  if (value === null || value === undefined) {
    lua.lua_pushnil(L);
    return;
  }
  switch (typeof value) {
    case 'boolean':
      lua.lua_pushboolean(L, value ? 1 : 0);
      return;
    case 'number':
      if (Number.isSafeInteger(value)) lua.lua_pushinteger(L, BigInt(value));
      else lua.lua_pushnumber(L, value);
      return;
    case 'bigint':
      lua.lua_pushinteger(L, value);
      return;
    case 'string':
      pushString(lua, L, value);
      return;
    case 'object':
      break;
    default:
      throw new LuaConvertError(`json Marshal obj ${typeof value} error: unsupported type`);
  }
  if (lua.lua_checkstack(L, 3) === 0) throw new LuaConvertError('lua stack overflow while converting an argument');
  if (Array.isArray(value)) {
    lua.lua_createtable(L, value.length, 0);
    let n = 0;
    for (const item of value) {
      if (item === null || item === undefined) continue;
      pushValue(lua, L, item);
      lua.lua_rawseti(L, -2, BigInt(++n));
    }
    return;
  }
  const json = 'toJSON' in value && typeof value.toJSON === 'function' ? value.toJSON() : value;
  if (json !== value) {
    pushValue(lua, L, json);
    return;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== null && v !== undefined);
  lua.lua_createtable(L, 0, entries.length);
  for (const [key, item] of entries) {
    pushString(lua, L, key);
    pushValue(lua, L, item);
    lua.lua_rawset(L, -3);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Lua → JavaScript

/** size_t cells lua_tolstring writes a length into, one per wasm module (every engine shares one). */
const lengthCells = new WeakMap<object, number>();

/**
 * A Lua string by its length: wasmoon's lua_tolstring reads a C string, which ends at the first NUL, where
 * gopher-lua's strings are Go strings that keep it. Must only be called on a string value: on a number it converts
 * the stack slot in place.
 */
export function readString(lua: LuaWasm, L: LuaState, index: number): string {
  return goUtf8Text(readBytes(lua, L, index));
}

/** The bytes of the string at index, a view into the VM's memory valid until the VM next runs. */
export function readBytes(lua: LuaWasm, L: LuaState, index: number): Uint8Array {
  const module = lua.module as unknown as {
    _malloc(size: number): number;
    _lua_tolstring(L: number, index: number, length: number): number;
    HEAPU8: Uint8Array;
    HEAPU32: Uint32Array;
  };
  let cell = lengthCells.get(module);
  if (cell === undefined) {
    cell = module._malloc(4);
    lengthCells.set(module, cell);
  }
  const pointer = module._lua_tolstring(L, index, cell);
  if (pointer === 0) return new Uint8Array(0);
  const length = module.HEAPU32[cell >>> 2] as number;
  return module.HEAPU8.subarray(pointer, pointer + length);
}

/** Pushes bytes as they are, where pushString would encode a JavaScript string as UTF-8. */
export function pushBytes(lua: LuaWasm, L: LuaState, bytes: Uint8Array): void {
  const module = lua.module as unknown as {
    _malloc(size: number): number;
    _free(p: number): void;
    _lua_pushlstring(L: number, s: number, length: number): number;
    HEAPU8: Uint8Array;
  };
  const pointer = module._malloc(Math.max(bytes.length, 1));
  try {
    module.HEAPU8.set(bytes, pointer);
    // wasmoon's wrapper would decode the returned copy as UTF-8 text, complaining about any byte that is not.
    module._lua_pushlstring(L, pointer, bytes.length);
  } finally {
    module._free(pointer);
  }
}

/**
 * The text encoding/json writes for a Go string's bytes: well-formed UTF-8 as it is, and each byte that does not
 * start a well-formed sequence as U+FFFD (utf8.DecodeRuneInString's RuneError of width 1), where TextDecoder would
 * replace a truncated sequence with a single U+FFFD.
 */
export function goUtf8Text(bytes: Uint8Array): string {
  let out = '';
  let plainFrom = 0;
  let i = 0;
  const flush = (to: number) => {
    if (to > plainFrom) out += Buffer.from(bytes.buffer, bytes.byteOffset + plainFrom, to - plainFrom).toString('utf8');
  };
  while (i < bytes.length) {
    const width = utf8SequenceWidth(bytes, i);
    if (width > 0) {
      i += width;
      continue;
    }
    flush(i);
    out += '\uFFFD';
    plainFrom = ++i;
  }
  flush(i);
  return out;
}

/** The length of the well-formed UTF-8 sequence at `at` (Unicode's table 3-7, as Go's acceptRanges), or 0. */
function utf8SequenceWidth(bytes: Uint8Array, at: number): number {
  const b = bytes[at] as number;
  if (b < 0x80) return 1;
  const width = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (width === 0 || at + width > bytes.length) return 0;
  const second = bytes[at + 1] as number;
  const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
  const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
  if (second < low || second > high) return 0;
  for (let k = 2; k < width; k++) {
    const next = bytes[at + k] as number;
    if (next < 0x80 || next > 0xbf) return 0;
  }
  return width;
}

/** One value a hook returned, read off the stack before the stack is cleared. */
export type LuaValue =
  | { type: 'nil' }
  | { type: 'boolean'; value: boolean }
  | { type: 'number'; value: number }
  | { type: 'string'; value: string }
  /** The gopher-json encoding of the table, or why it has none. */
  | { type: 'table'; json: Json; error?: undefined }
  | { type: 'table'; json?: undefined; error: string }
  | { type: 'function' | 'userdata' | 'thread' };

export function readValue(lua: LuaWasm, L: LuaState, index: number): LuaValue {
  const type = lua.lua_type(L, index);
  switch (type) {
    case TYPE_NIL:
    case -1:
      return { type: 'nil' };
    case TYPE_BOOLEAN:
      return { type: 'boolean', value: lua.lua_toboolean(L, index) !== 0 };
    case TYPE_NUMBER:
      return { type: 'number', value: readNumber(lua, L, index) };
    case TYPE_STRING:
      return { type: 'string', value: readString(lua, L, index) };
    case TYPE_TABLE:
      try {
        return { type: 'table', json: encodeValue(lua, L, index, new Set()) };
      } catch (err) {
        if (err instanceof LuaConvertError) return { type: 'table', error: err.message };
        throw err;
      }
    default:
      return { type: luaTypeName(type) as 'function' | 'userdata' | 'thread' };
  }
}

function readNumber(lua: LuaWasm, L: LuaState, index: number): number {
  if (lua.lua_isinteger(L, index)) return Number(lua.lua_tointegerx(L, index, null));
  return lua.lua_tonumberx(L, index, null);
}

/**
 * gopher-json's Encode: an empty table is `[]`; a table whose keys are all strings is an object; one whose keys are
 * all numbers must be the sequence 1..n; anything else fails. Its visited set is never cleared, so a table reached
 * twice fails as "nested" even when it is only shared.
 */
export function encodeValue(lua: LuaWasm, L: LuaState, index: number, visited: Set<number>): Json {
  const type = lua.lua_type(L, index);
  switch (type) {
    case TYPE_NIL:
      return null;
    case TYPE_BOOLEAN:
      return lua.lua_toboolean(L, index) !== 0;
    case TYPE_NUMBER: {
      const n = readNumber(lua, L, index);
      if (!Number.isFinite(n)) {
        const text = Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
        throw new LuaConvertError(`encode lua result to json failed: json: unsupported value: ${text}`);
      }
      return n === 0 ? 0 : n;
    }
    case TYPE_STRING:
      return readString(lua, L, index);
    case TYPE_TABLE:
      return encodeTable(lua, L, lua.lua_absindex(L, index), visited);
    default:
      throw new LuaConvertError(`encode lua result to json failed: cannot encode ${luaTypeName(type)} to JSON`);
  }
}

function encodeTable(lua: LuaWasm, L: LuaState, index: number, visited: Set<number>): Json {
  const pointer = lua.lua_topointer(L, index);
  if (visited.has(pointer))
    throw new LuaConvertError('encode lua result to json failed: cannot encode recursively nested tables to JSON');
  visited.add(pointer);
  if (lua.lua_checkstack(L, 4) === 0) throw new LuaConvertError('encode lua result to json failed: too deep');
  const byName: [string, Json][] = [];
  const byNumber: [number, Json][] = [];
  let invalidKey = false;
  lua.lua_pushnil(L);
  while (lua.lua_next(L, index) !== 0) {
    const keyType = lua.lua_type(L, -2);
    // lua_tolstring on a number key would turn it into a string in place and derail lua_next.
    if (keyType === TYPE_STRING) byName.push([readString(lua, L, -2), encodeValue(lua, L, -1, visited)]);
    else if (keyType === TYPE_NUMBER) byNumber.push([readNumber(lua, L, -2), encodeValue(lua, L, -1, visited)]);
    else invalidKey = true;
    lua.lua_settop(L, -2);
  }
  if (invalidKey || (byName.length > 0 && byNumber.length > 0))
    throw new LuaConvertError('encode lua result to json failed: cannot encode mixed or invalid key types');
  if (byName.length > 0) {
    const out: JsonObject = {};
    for (const [key, value] of byName.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[key] = value;
    return out;
  }
  byNumber.sort(([a], [b]) => a - b);
  if (byNumber.some(([key], i) => key !== i + 1))
    throw new LuaConvertError('encode lua result to json failed: cannot encode sparse array');
  return byNumber.map(([, value]) => value);
}

// ---------------------------------------------------------------------------------------------------------------
// ConvertLuaResultInto

/** What Go type ConvertLuaResultInto unmarshals into: a struct turns an empty root table into {}, a slice into []. */
export type ResultShape = 'struct' | 'slice';

/**
 * convertEmptySliceToEmptyStructPartly: Lua cannot tell {} from [], so every empty table encodes as []. An empty
 * field whose path (field names only, array positions left out) holds {} in a reference becomes {} again, one that
 * holds [] stays, and one found in neither is removed.
 */
export function repairEmptyTables(json: Json, shape: ResultShape, references: readonly unknown[] = []): Json {
  if (Array.isArray(json) && json.length === 0) return shape === 'struct' ? {} : [];
  const slices = new Set<string>();
  const structs = new Set<string>();
  collectEmpty(references, [], slices, structs);
  return repair(json, [], slices, structs);
}

function escapePathKey(key: string): string {
  return key.replaceAll('.', '\\.').replaceAll(':', '\\:');
}

function collectEmpty(value: unknown, path: string[], slices: Set<string>, structs: Set<string>): void {
  const inArray = Array.isArray(value);
  const entries: [string, unknown][] = inArray
    ? value.map((v, i) => [String(i), v])
    : isObject(value)
      ? Object.entries(value)
      : [];
  for (const [key, child] of entries) {
    const childPath = inArray ? path : [...path, escapePathKey(key)];
    if (Array.isArray(child) && child.length === 0) slices.add(childPath.join('.'));
    else if (isObject(child) && Object.keys(child).length === 0) structs.add(childPath.join('.'));
    else if (Array.isArray(child) || isObject(child)) collectEmpty(child, childPath, slices, structs);
  }
}

function repair(value: Json, path: string[], slices: Set<string>, structs: Set<string>): Json {
  const fix = (child: Json, childPath: string[]): Json | undefined => {
    if (Array.isArray(child) && child.length === 0) {
      const key = childPath.join('.');
      if (structs.has(key)) return {};
      return slices.has(key) ? [] : undefined;
    }
    return Array.isArray(child) || isObject(child) ? repair(child, childPath, slices, structs) : child;
  };
  if (Array.isArray(value)) {
    const out: Json[] = [];
    for (const child of value) {
      const fixed = fix(child, path);
      if (fixed !== undefined) out.push(fixed);
    }
    return out;
  }
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    const fixed = fix(child, [...path, escapePathKey(key)]);
    if (fixed !== undefined) out[key] = fixed;
  }
  return out;
}

/** ConvertLuaResultToInt: any number, truncated to int32 as Go's conversion does. */
export function toInt32(value: LuaValue): number {
  if (value.type !== 'number') throw new LuaConvertError(`result type ${value.type} is not number`);
  if (!Number.isFinite(value.value)) return -2147483648;
  const truncated = Math.trunc(value.value);
  return truncated > 2147483647 || truncated < -2147483648 ? -2147483648 : truncated;
}

/** ConvertLuaResultToBool: only a boolean; Lua's truthiness does not count. */
export function toBool(value: LuaValue): boolean {
  if (value.type !== 'boolean') throw new LuaConvertError(`result type ${value.type} is not bool`);
  return value.value;
}

/** The table's JSON, or the encoding error as Karmada reports it. */
export function tableJson(value: LuaValue & { type: 'table' }): Json {
  if (value.error !== undefined) throw new LuaConvertError(value.error);
  return value.json;
}

function jsonTypeName(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'boolean' ? 'bool' : typeof value === 'object' ? 'object' : typeof value;
}

function unmarshalError(value: Json, where: string, goType: string): LuaConvertError {
  return new LuaConvertError(
    `json unmarshal obj failed: json: cannot unmarshal ${jsonTypeName(value)} into Go ${where} of type ${goType}`,
  );
}

/** Unstructured.UnmarshalJSON: a JSON object with a non-empty string kind. */
export function toUnstructured(json: Json): JsonObject {
  if (!isObject(json)) throw unmarshalError(json, 'value', 'map[string]interface {}');
  if (typeof json.kind !== 'string' || json.kind === '')
    throw new LuaConvertError(`json unmarshal obj failed: Object 'Kind' is missing in '${JSON.stringify(json)}'`);
  return json;
}

/** encoding/json matches a struct field by its exact tag first, then case-insensitively. */
function structFields<K extends string>(json: JsonObject, names: readonly K[]): Partial<Record<K, Json>> {
  const out: Partial<Record<K, Json>> = {};
  for (const [key, value] of Object.entries(json)) {
    const name = names.find((n) => n === key) ?? names.find((n) => n.toLowerCase() === key.toLowerCase());
    if (name !== undefined) out[name] = value;
  }
  return out;
}

function stringField(value: Json | undefined, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw unmarshalError(value, `struct field ${where}`, 'string');
  return value;
}

function objectField(value: Json | undefined, where: string, goType: string): JsonObject | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw unmarshalError(value, `struct field ${where}`, goType);
  return value;
}

/** workv1alpha2.ReplicaRequirements as Karmada marshals it: empty fields left out, quantities canonical. */
export function toReplicaRequirements(json: Json): JsonObject {
  if (!isObject(json)) throw unmarshalError(json, 'value', 'v1alpha2.ReplicaRequirements');
  const fields = structFields(json, ['nodeClaim', 'resourceRequest', 'namespace', 'priorityClassName'] as const);
  const out: JsonObject = {};
  const claim = objectField(fields.nodeClaim, 'ReplicaRequirements.nodeClaim', 'v1alpha2.NodeClaim');
  if (claim) {
    const c = structFields(claim, ['hardNodeAffinity', 'nodeSelector', 'tolerations'] as const);
    const nodeClaim: JsonObject = {};
    const affinity = objectField(
      c.hardNodeAffinity,
      'ReplicaRequirements.nodeClaim.hardNodeAffinity',
      'v1.NodeSelector',
    );
    if (affinity) nodeClaim.hardNodeAffinity = affinity;
    const selector = objectField(c.nodeSelector, 'ReplicaRequirements.nodeClaim.nodeSelector', 'map[string]string');
    if (selector) {
      for (const [key, value] of Object.entries(selector))
        stringField(value, `ReplicaRequirements.nodeClaim.nodeSelector.${key}`);
      if (Object.keys(selector).length > 0) nodeClaim.nodeSelector = selector;
    }
    if (c.tolerations !== undefined && c.tolerations !== null) {
      if (!Array.isArray(c.tolerations))
        throw unmarshalError(
          c.tolerations,
          'struct field ReplicaRequirements.nodeClaim.tolerations',
          '[]v1.Toleration',
        );
      if (c.tolerations.length > 0) nodeClaim.tolerations = c.tolerations;
    }
    out.nodeClaim = typedNodeClaim(nodeClaim);
  }
  const request = objectField(fields.resourceRequest, 'ReplicaRequirements.resourceRequest', 'v1.ResourceList');
  if (request && Object.keys(request).length > 0) {
    const list: JsonObject = {};
    for (const name of Object.keys(request).sort()) {
      const value = request[name] as Json;
      if (typeof value !== 'string' && typeof value !== 'number')
        throw unmarshalError(value, `struct field ReplicaRequirements.resourceRequest.${name}`, 'resource.Quantity');
      list[name] = formatGoQuantity(parseGoQuantity(typeof value === 'number' ? String(value) : value));
    }
    out.resourceRequest = list;
  }
  const namespace = stringField(fields.namespace, 'ReplicaRequirements.namespace');
  if (namespace) out.namespace = namespace;
  const priority = stringField(fields.priorityClassName, 'ReplicaRequirements.priorityClassName');
  if (priority) out.priorityClassName = priority;
  return out;
}

/** configv1alpha1.DependentObjectReference, one per list entry: apiVersion and kind always, the rest when set. */
export interface DependentObjectReference {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name?: string;
  labelSelector?: JsonObject;
}

export function toDependencies(json: Json): DependentObjectReference[] {
  if (!Array.isArray(json)) throw unmarshalError(json, 'value', '[]v1alpha1.DependentObjectReference');
  return json.map((entry) => {
    if (!isObject(entry)) throw unmarshalError(entry, 'value', 'v1alpha1.DependentObjectReference');
    const f = structFields(entry, ['apiVersion', 'kind', 'namespace', 'name', 'labelSelector'] as const);
    const ref: DependentObjectReference = {
      apiVersion: stringField(f.apiVersion, 'DependentObjectReference.apiVersion') ?? '',
      kind: stringField(f.kind, 'DependentObjectReference.kind') ?? '',
    };
    const namespace = stringField(f.namespace, 'DependentObjectReference.namespace');
    if (namespace) ref.namespace = namespace;
    const name = stringField(f.name, 'DependentObjectReference.name');
    if (name) ref.name = name;
    const selector = objectField(f.labelSelector, 'DependentObjectReference.labelSelector', 'v1.LabelSelector');
    if (selector) ref.labelSelector = selector;
    return ref;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// resource.Quantity as Go parses and prints it

type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** A parsed resource.Quantity: its exact value (rounded up to nano units, as ParseQuantity does) and its format. */
export interface GoQuantity {
  value: Quantity;
  format: QuantityFormat;
}

const GO_QUANTITY = /^[+-]?[0-9.]+[eEinumkKMGTP]*[-+]?[0-9]*$/;

/** resource.MustParse's panic text, which gopher-lua turns into the script's error. */
export function parseGoQuantity(text: string): GoQuantity {
  const q = GO_QUANTITY.test(text) ? parseQuantity(text) : undefined;
  if (!q) {
    throw new LuaConvertError(
      `cannot parse '${text}': quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    );
  }
  const format: QuantityFormat = /[KMGTPE]i$/.test(text)
    ? 'BinarySI'
    : /[eE][-+]?[0-9]+$/.test(text)
      ? 'DecimalExponent'
      : 'DecimalSI';
  return { value: roundUpToNano(q), format };
}

function roundUpToNano(q: Quantity): Quantity {
  const scaled = q.num * 1_000_000_000n;
  const negative = scaled < 0n !== q.den < 0n;
  const a = scaled < 0n ? -scaled : scaled;
  const b = q.den < 0n ? -q.den : q.den;
  const magnitude = (a + b - 1n) / b;
  return { num: negative ? -magnitude : magnitude, den: 1_000_000_000n };
}

export const ZERO_QUANTITY: GoQuantity = { value: { num: 0n, den: 1_000_000_000n }, format: 'DecimalSI' };

/** Quantity.Add: the sum keeps the format of the first addend added while the sum was still zero. */
export function addGoQuantities(a: GoQuantity, b: GoQuantity): GoQuantity {
  const num = a.value.num * b.value.den + b.value.num * a.value.den;
  return {
    value: roundUpToNano({ num, den: a.value.den * b.value.den }),
    format: a.value.num === 0n ? b.format : a.format,
  };
}

/** Quantity.AsApproximateFloat64. */
export function goQuantityNumber(q: GoQuantity): number {
  return Number(q.value.num) / Number(q.value.den);
}

const DECIMAL_SUFFIXES: Record<number, string> = {
  [-9]: 'n',
  [-6]: 'u',
  [-3]: 'm',
  0: '',
  3: 'k',
  6: 'M',
  9: 'G',
  12: 'T',
  15: 'P',
  18: 'E',
};
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/** Quantity.String (CanonicalizeBytes): the smallest mantissa with an exponent that is a multiple of 3 (or 10 for binary). */
export function formatGoQuantity(q: GoQuantity): string {
  const nanos = q.value.num * (1_000_000_000n / q.value.den);
  if (nanos === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    const small = nanos > -1024n * 1_000_000_000n && nanos < 1024n * 1_000_000_000n;
    if (small || nanos % 1_000_000_000n !== 0n) format = 'DecimalSI';
    else {
      let mantissa = nanos / 1_000_000_000n;
      let power = 0;
      while (mantissa % 1024n === 0n && power < BINARY_SUFFIXES.length - 1) {
        mantissa /= 1024n;
        power++;
      }
      return `${mantissa}${BINARY_SUFFIXES[power]}`;
    }
  }
  let mantissa = nanos;
  let exponent = -9;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  const aligned = Math.floor(exponent / 3) * 3;
  mantissa *= 10n ** BigInt(exponent - aligned);
  if (format === 'DecimalExponent') return aligned === 0 ? `${mantissa}` : `${mantissa}e${aligned}`;
  const suffix = DECIMAL_SUFFIXES[aligned];
  return suffix === undefined ? `${mantissa}e${aligned}` : `${mantissa}${suffix}`;
}
