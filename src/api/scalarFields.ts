import { builtinTypeOf, type ScalarType, scalarFieldsOfType } from './builtinTypes.ts';
import { eachField, typeName } from './unknownFields.ts';

// The boolean and numeric fields of the built-in kinds, as kube-apiserver decodes them into Go types: `paused: nope`,
// `minReadySeconds: "5"`, `hostNetwork: maybe` or `replicas: 1.5` cannot be read ("json: cannot unmarshal string into
// Go struct field DeploymentSpec.spec.paused of type bool"), a 400 before any validation. The types are client-node's,
// generated from Kubernetes' OpenAPI document (apiFields.generated.ts).

/** A boolean or numeric field holding something else. */
export interface NonScalarValue {
  path: (string | number)[];
  value: unknown;
  type: ScalarType;
  /** The Go struct declaring the field (`DeploymentSpec`), as the decode error names it. */
  struct: string;
}

/** Every such field of a built-in kind's object, metadata aside (metadataShapes.ts), in document order. */
export function nonScalarValues(manifest: Record<string, unknown>): NonScalarValue[] {
  const type = builtinTypeOf(String(manifest.apiVersion), String(manifest.kind));
  if (!type) return [];
  const out: NonScalarValue[] = [];
  eachField(manifest, type, [], (object, key, _, at, parent) => {
    if ((parent[0] ?? key) === 'metadata') return;
    const scalar = scalarFieldsOfType(at).get(key);
    if (scalar && !holds(object[key], scalar))
      out.push({ path: [...parent, key], value: object[key], type: scalar, struct: typeName(at) });
  });
  return out;
}

/** The API server's 400 for the first such field (`Deployment in version "v1" cannot be handled as a Deployment: …`). */
export function scalarFieldDecodeError(
  kind: string,
  version: string,
  found: readonly NonScalarValue[],
): string | undefined {
  const [first] = found;
  if (!first) return undefined;
  return `${kind} in version "${version}" cannot be handled as a ${kind}: json: ${unmarshalText(first)}`;
}

/** `cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool`, as encoding/json says it. */
export function unmarshalText({ path, value, type, struct }: NonScalarValue): string {
  const field = path.filter((s) => typeof s === 'string').join('.');
  return `cannot unmarshal ${goJsonKind(value)} into Go struct field ${struct}.${field} of type ${type}`;
}

/** How encoding/json names a JSON value it cannot put into a field: `string`, `number 1.5`, `bool`, `array`, `object`. */
export function goJsonKind(value: unknown): string {
  if (typeof value === 'number') return `number ${value}`;
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : 'string';
}

/** Whether a value decodes into the type: null is the zero value; a whole number must fit (OverflowInt). */
function holds(value: unknown, type: ScalarType): boolean {
  if (value === null || value === undefined) return true;
  if (type === 'bool') return typeof value === 'boolean';
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  if (type === 'float64') return true;
  const bound = type === 'int32' ? 2 ** 31 : 2 ** 63;
  return Number.isInteger(value) && value >= -bound && value < bound;
}
