// The Go values a template works on: what k8s.io/apimachinery's json.Unmarshal makes of an object (maps, slices,
// strings, bools, nil, int64 for whole numbers and float64 for the rest) and what templates make of them (int
// constants, len's int, a string's uint8 bytes).

export type GoIntType = 'int' | 'int64' | 'int32' | 'uint8';

export interface GoInt {
  kind: 'int';
  type: GoIntType;
  value: bigint;
}

export interface GoFloat {
  kind: 'float64';
  value: number;
}

/** map[string]interface{} */
export interface GoMap {
  kind: 'map';
  entries: Map<string, GoData>;
}

/** []interface{} */
export interface GoSlice {
  kind: 'slice';
  items: GoData[];
}

/** A Go value; null is the nil interface{}. */
export type GoData = string | boolean | null | GoInt | GoFloat | GoMap | GoSlice;

export const goInt = (value: bigint | number, type: GoIntType = 'int'): GoInt => ({
  kind: 'int',
  type,
  value: BigInt(value),
});

export const isUnsigned = (type: GoIntType) => type === 'uint8';

/**
 * apimachinery's json.Unmarshal into map[string]interface{}: a number whose JSON text is a whole int64 becomes an
 * int64 (`3`, `1000000`), any other a float64 (`0.5`, `1e+21`). Pure.
 */
export function fromJson(value: unknown): GoData {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number')
    return Number.isInteger(value) && Math.abs(value) < 2 ** 63
      ? { kind: 'int', type: 'int64', value: BigInt(value) }
      : { kind: 'float64', value };
  if (typeof value === 'bigint') return { kind: 'int', type: 'int64', value };
  if (Array.isArray(value)) return { kind: 'slice', items: value.map(fromJson) };
  if (typeof value === 'object')
    return {
      kind: 'map',
      entries: new Map(
        Object.entries(value as Record<string, unknown>)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, fromJson(v)]),
      ),
    };
  return null;
}

/** The value's Go type as reflect names it (`map[string]interface {}`, `int64`); `<nil>` for nil. */
export function goTypeName(data: GoData): string {
  if (data === null) return '<nil>';
  if (typeof data === 'string') return 'string';
  if (typeof data === 'boolean') return 'bool';
  switch (data.kind) {
    case 'int':
      return data.type;
    case 'float64':
      return 'float64';
    case 'map':
      return 'map[string]interface {}';
    case 'slice':
      return '[]interface {}';
  }
}

/** The bytes of a Go string, as len, index and slice count them. */
export const utf8Bytes = (s: string) => Buffer.from(s, 'utf8');
