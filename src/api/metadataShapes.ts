import { podSpecPathOf } from './podSpecPaths.ts';
import { isTypedGroup } from './stringFields.ts';

// kube-apiserver decodes every object's metadata into ObjectMeta (k8s.io/apimachinery/pkg/apis/meta/v1/types.go):
// Go types for a built-in kind, and for a custom resource too, since the request decoder of apiextensions-apiserver
// (customresource_handler.go, schemaCoercingDecoder with dropInvalidMetadata false) round-trips `metadata` through
// JSON into ObjectMeta (pkg/apiserver/schema/objectmeta/coerce.go GetObjectMetaWithOptions). A field of another JSON
// type than its Go type (`labels: [a, b]`, `labels: j`, `namespace: 5`, `finalizers: x`) is a 400 before any
// validation, at Karmada's API server for the template as at every member's.

/** A field of one ObjectMeta that its Go type cannot take. */
export interface MalformedMeta {
  /** From the manifest's root to the value. */
  path: (string | number)[];
  value: unknown;
  /** The Go type the decoder wanted (`map[string]string`, `int64`), as its error names it. */
  goType: string;
  /** The Go struct that declares the field, as the decoder's error names it. */
  struct: 'ObjectMeta' | 'OwnerReference' | 'ManagedFieldsEntry';
  /** What a person would look for: `metadata.labels`, `metadata.ownerReferences[0].uid`. */
  field: string;
  /** What the field takes, for people: `a mapping of strings`. */
  takes: string;
}

type Shape = 'string' | 'int' | 'time' | 'stringMap' | 'stringList' | 'objectList';

const OBJECT_META: Record<string, Shape> = {
  name: 'string',
  generateName: 'string',
  namespace: 'string',
  selfLink: 'string',
  uid: 'string',
  resourceVersion: 'string',
  generation: 'int',
  creationTimestamp: 'time',
  deletionTimestamp: 'time',
  deletionGracePeriodSeconds: 'int',
  labels: 'stringMap',
  annotations: 'stringMap',
  finalizers: 'stringList',
  ownerReferences: 'objectList',
  managedFields: 'objectList',
};

const OWNER_REFERENCE: Record<string, 'string' | 'bool'> = {
  apiVersion: 'string',
  kind: 'string',
  name: 'string',
  uid: 'string',
  controller: 'bool',
  blockOwnerDeletion: 'bool',
};

const GO_TYPES: Record<Shape | 'bool', string> = {
  string: 'string',
  int: 'int64',
  time: 'string',
  stringMap: 'map[string]string',
  stringList: '[]string',
  objectList: '[]v1.OwnerReference',
  bool: 'bool',
};

const TAKES: Record<Shape | 'bool', string> = {
  string: 'a string',
  int: 'a whole number',
  time: 'an RFC 3339 time (2024-01-31T12:00:00Z)',
  stringMap: 'a mapping of strings',
  stringList: 'a list of strings',
  objectList: 'a list of mappings',
  bool: 'true or false',
};

/** What Go's time.Parse(time.RFC3339) takes (metav1.Time.UnmarshalJSON). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Every field of the object's metadata, and of a built-in workload's pod and job templates, that ObjectMeta cannot
 * decode, in document order. `null` is no value, as for the decoder. The values inside labels, annotations and
 * finalizers of a built-in kind are stringFields.ts's (nonStringValues); those of a custom resource are here.
 */
export function malformedMetadata(
  manifest: unknown,
  apiVersion: unknown = (manifest as { apiVersion?: unknown } | null)?.apiVersion,
  kind: unknown = (manifest as { kind?: unknown } | null)?.kind,
): MalformedMeta[] {
  if (!isObject(manifest)) return [];
  const typed = typeof apiVersion === 'string' && isTypedGroup(apiVersion);
  const out: MalformedMeta[] = [];
  objectMeta(manifest.metadata, ['metadata'], !typed, out);
  for (const path of templateMetaPaths(apiVersion, kind)) {
    const meta = at(manifest, path);
    if (meta !== undefined && meta !== null && !isObject(meta))
      out.push({
        path,
        value: meta,
        goType: 'v1.ObjectMeta',
        struct: 'ObjectMeta',
        field: path.join('.'),
        takes: 'a mapping',
      });
    else objectMeta(meta, path, false, out);
  }
  return out;
}

function objectMeta(metadata: unknown, at: (string | number)[], values: boolean, out: MalformedMeta[]): void {
  if (!isObject(metadata)) return;
  const base = at.filter((s) => typeof s === 'string').join('.');
  for (const [key, shape] of Object.entries(OBJECT_META)) {
    const value = metadata[key];
    if (value === undefined || value === null) continue;
    const path = [...at, key];
    const field = `${base}.${key}`;
    const bad = (v: unknown, p: (string | number)[], f: string, s: Shape | 'bool', struct: MalformedMeta['struct']) =>
      out.push({ path: p, value: v, goType: GO_TYPES[s], struct, field: f, takes: TAKES[s] });
    switch (shape) {
      case 'string':
        if (typeof value !== 'string') bad(value, path, field, shape, 'ObjectMeta');
        break;
      case 'int':
        if (typeof value !== 'number' || !Number.isInteger(value)) bad(value, path, field, shape, 'ObjectMeta');
        break;
      case 'time':
        if (typeof value !== 'string' || !RFC3339.test(value)) bad(value, path, field, shape, 'ObjectMeta');
        break;
      case 'stringMap':
        if (!isObject(value)) bad(value, path, field, shape, 'ObjectMeta');
        else if (values)
          for (const [k, v] of Object.entries(value))
            if (v !== null && typeof v !== 'string') bad(v, [...path, k], `${field}.${k}`, 'string', 'ObjectMeta');
        break;
      case 'stringList':
        if (!Array.isArray(value)) bad(value, path, field, shape, 'ObjectMeta');
        else if (values)
          value.forEach((v, i) => {
            if (v !== null && typeof v !== 'string') bad(v, [...path, i], `${field}[${i}]`, 'string', 'ObjectMeta');
          });
        break;
      case 'objectList': {
        const itemType = key === 'ownerReferences' ? 'OwnerReference' : 'ManagedFieldsEntry';
        if (!Array.isArray(value)) {
          out.push({
            path,
            value,
            goType: `[]v1.${itemType}`,
            struct: 'ObjectMeta',
            field,
            takes: TAKES.objectList,
          });
          break;
        }
        value.forEach((item, i) => {
          if (item === null) return;
          if (!isObject(item)) {
            out.push({
              path: [...path, i],
              value: item,
              goType: `v1.${itemType}`,
              struct: 'ObjectMeta',
              field: `${field}[${i}]`,
              takes: 'a mapping',
            });
            return;
          }
          if (key !== 'ownerReferences') return;
          for (const [k, type] of Object.entries(OWNER_REFERENCE)) {
            const v = item[k];
            if (v === undefined || v === null) continue;
            if (type === 'string' ? typeof v !== 'string' : typeof v !== 'boolean')
              bad(v, [...path, i, k], `${field}[${i}].${k}`, type, 'OwnerReference');
          }
        });
        break;
      }
    }
  }
}

/** Where a built-in workload keeps the ObjectMeta of its templates (ValidatePodTemplateSpec decodes them too). */
function templateMetaPaths(apiVersion: unknown, kind: unknown): string[][] {
  const pod = podSpecPathOf(apiVersion, kind);
  if (!pod || pod.length < 2) return [];
  const templates: string[][] = [[...pod.slice(0, -1), 'metadata']];
  if (`${apiVersion}/${kind}` === 'batch/v1/CronJob') templates.unshift(['spec', 'jobTemplate', 'metadata']);
  return templates;
}

function at(value: unknown, path: readonly (string | number)[]): unknown {
  let here = value;
  for (const step of path) here = isObject(here) ? here[step as string] : undefined;
  return here;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** metav1.OwnerReference: who owns an object, for the garbage collector. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}
