import { KIND_TYPES, TYPE_FIELDS } from './apiFields.generated.ts';
import { KARMADA_KIND_TYPES, KARMADA_TYPE_FIELDS } from './karmadaCrdFields.ts';

/** What a built-in type declares of one field: a plain value (null), or objects of `type` held as `shape`. */
export interface NestedField {
  /** '' an object, '[' a list of them, '{' a map of them. */
  shape: '' | '[' | '{';
  type: string;
}

/** The Go type a plain field's value decodes into, where kube-apiserver holds it to one: boolean and numeric fields. */
export type ScalarType = 'bool' | 'int32' | 'int64' | 'float64';

const parsed = new Map<string, ReadonlyMap<string, NestedField | null>>();
const scalars = new Map<string, ReadonlyMap<string, ScalarType>>();

/**
 * The fields a built-in type (a client-node model name, `V1ServiceSpec`) or a type of Karmada's CRDs
 * (`KarmadaWorkloadRebalancerSpec`) declares; empty for an unknown type.
 */
export function fieldsOfType(type: string): ReadonlyMap<string, NestedField | null> {
  let fields = parsed.get(type);
  if (!fields) {
    fields = new Map(
      (TYPE_FIELDS[type] ?? KARMADA_TYPE_FIELDS[type] ?? '')
        .split(' ')
        .filter(Boolean)
        .map((entry) => {
          const colon = entry.indexOf(':');
          if (colon < 0) return [entry.split('=')[0]!, null] as const;
          const shape = entry[colon + 1];
          const nested = shape === '[' || shape === '{';
          return [
            entry.slice(0, colon),
            { shape: nested ? shape : '', type: entry.slice(colon + (nested ? 2 : 1)) } as NestedField,
          ] as const;
        }),
    );
    parsed.set(type, fields);
  }
  return fields;
}

/** The boolean and numeric fields a built-in type declares, with their Go types (`paused` → bool). */
export function scalarFieldsOfType(type: string): ReadonlyMap<string, ScalarType> {
  let fields = scalars.get(type);
  if (!fields) {
    fields = new Map(
      (TYPE_FIELDS[type] ?? '')
        .split(' ')
        .filter((entry) => entry.includes('='))
        .map((entry) => entry.split('=') as [string, ScalarType]),
    );
    scalars.set(type, fields);
  }
  return fields;
}

/** The type a built-in kind's objects decode into (`apps/v1`, `Deployment` → `V1Deployment`); undefined for others. */
export function builtinTypeOf(apiVersion: string, kind: string): string | undefined {
  return KIND_TYPES[`${apiVersion}/${kind}`];
}

/** The type of a Karmada CRD's objects Flotilla reads beside policies (FederatedHPA, WorkloadRebalancer, ...). */
export function karmadaTypeOf(apiVersion: string, kind: string): string | undefined {
  return KARMADA_KIND_TYPES[`${apiVersion}/${kind}`];
}
