import { podSpecAt } from '../api/podSpecPaths.ts';
import type { OwnerReference } from '../api/metadataShapes.ts';
import { DNS1123_SUBDOMAIN, labelValueProblems, qualifiedNameProblems } from './labelFormats.ts';
import { goStringSliceText } from '../text/goSyntax.ts';

// What kube-apiserver's ValidateObjectMeta (k8s.io/apimachinery/pkg/api/validation/objectmeta.go) refuses in an
// object's labels, annotations, ownerReferences and finalizers, for every kind, custom resources included: Karmada's
// API server refuses such a template at creation, and every member the object it would propagate. The wording and
// field paths are Kubernetes 1.32's, the version the member emulator reports (1.34 indexes owner references and
// words their empty fields as Required).

/** Keys and values of all annotations together (apimachinery's TotalAnnotationSizeLimitB). */
export const TOTAL_ANNOTATION_BYTES = 256 * 1024;

export interface MetaViolation {
  /** From the object's root to the offending key or list item (for locating it in a file). */
  path: (string | number)[];
  /** The field as the API server names it: `metadata.labels`, `metadata.ownerReferences.uid`. */
  field: string;
  type: 'FieldValueInvalid' | 'FieldValueTooLong';
  /** The API server's detail, after the field: `Invalid value: "x": name part must…`. */
  detail: string;
  /** The same for people, and what to do. */
  message: string;
  fix: string;
}

const NAME_REGEX = "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'";
const NAME_PART = `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is ${NAME_REGEX})`;
const PREFIX_PART =
  "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** IsValidLabelValue's messages, in its words. */
export function labelValueDetails(value: string): string[] {
  const out: string[] = [];
  if (value.length > 63) out.push('must be no more than 63 characters');
  if (value !== '' && !QUALIFIED_NAME.test(value)) out.push(LABEL_VALUE);
  return out;
}

/** IsQualifiedName's messages, in its words. */
export function qualifiedNameDetails(value: string): string[] {
  const parts = value.split('/');
  if (parts.length > 2)
    return [
      `a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is ${NAME_REGEX}) with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  const out: string[] = [];
  const name = parts.length === 2 ? parts[1]! : value;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix.length === 0) out.push('prefix part must be non-empty');
    else {
      if (prefix.length > 253) out.push('prefix part must be no more than 253 characters');
      if (!DNS1123_SUBDOMAIN.test(prefix)) out.push(PREFIX_PART);
    }
  }
  if (name.length === 0) out.push('name part must be non-empty');
  else if (name.length > 63) out.push('name part must be no more than 63 characters');
  if (!QUALIFIED_NAME.test(name)) out.push(NAME_PART);
  return out;
}

/**
 * The violations of one ObjectMeta (`at` is where it sits: ['metadata'], or a pod template's). A pod template's
 * metadata is held to the label and annotation rules alone (ValidatePodTemplateSpec): its owner references and
 * finalizers are never validated there.
 */
export function objectMetaViolations(
  metadata: unknown,
  at: readonly (string | number)[] = ['metadata'],
  scope: 'object' | 'podTemplate' = 'object',
): MetaViolation[] {
  if (!isObject(metadata)) return [];
  const base = at.filter((s) => typeof s === 'string').join('.');
  const out: MetaViolation[] = [];
  const labels = metadata.labels;
  if (isObject(labels))
    for (const [key, value] of Object.entries(labels)) {
      for (const detail of qualifiedNameDetails(key))
        out.push({
          path: [...at, 'labels', key],
          field: `${base}.labels`,
          type: 'FieldValueInvalid',
          detail: `Invalid value: ${JSON.stringify(key)}: ${detail}`,
          message: `label key ${JSON.stringify(key)} is not valid: ${qualifiedNameProblems(key).join('; ')}`,
          fix: 'use a key such as app.kubernetes.io/name: an optional DNS prefix and "/", then at most 63 letters, digits, "-", "_" and "."',
        });
      if (typeof value !== 'string') continue;
      const problem = labelValueProblems(value)[0];
      if (problem)
        out.push({
          path: [...at, 'labels', key],
          field: `${base}.labels`,
          type: 'FieldValueInvalid',
          detail: `Invalid value: ${JSON.stringify(value)}: ${value.length > 63 ? 'must be no more than 63 characters' : LABEL_VALUE}`,
          message: `label ${key} is ${JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value)}, which is not a valid label value: ${problem}`,
          fix: 'shorten it to at most 63 letters, digits, "-", "_" and "." (put free text in an annotation instead)',
        });
    }
  const annotations = metadata.annotations;
  if (isObject(annotations)) {
    let bytes = 0;
    for (const [key, value] of Object.entries(annotations)) {
      bytes += Buffer.byteLength(key) + (typeof value === 'string' ? Buffer.byteLength(value) : 0);
      // The API server checks annotation keys lower-cased: `Example.com/Owner` passes.
      for (const detail of qualifiedNameDetails(key.toLowerCase()))
        out.push({
          path: [...at, 'annotations', key],
          field: `${base}.annotations`,
          type: 'FieldValueInvalid',
          detail: `Invalid value: ${JSON.stringify(key)}: ${detail}`,
          message: `annotation key ${JSON.stringify(key)} is not valid: ${qualifiedNameProblems(key.toLowerCase()).join('; ')}`,
          fix: 'use a key such as example.com/owner: an optional DNS prefix and "/", then at most 63 letters, digits, "-", "_" and "."',
        });
    }
    if (bytes > TOTAL_ANNOTATION_BYTES)
      out.push({
        path: [...at, 'annotations'],
        field: `${base}.annotations`,
        type: 'FieldValueTooLong',
        // field.TooLong's wording from Kubernetes 1.32 on, the version the member emulator reports (1.31 said "must have at most").
        detail: `Too long: may not be more than ${TOTAL_ANNOTATION_BYTES} bytes`,
        message: `the annotations hold ${bytes} bytes of keys and values: Kubernetes takes at most ${TOTAL_ANNOTATION_BYTES} (256 KiB)`,
        fix: 'keep large data in a ConfigMap (or the object itself) and refer to it from a short annotation',
      });
  }
  if (scope === 'podTemplate') return out;
  out.push(
    ...ownerReferenceViolations(metadata.ownerReferences, [...at, 'ownerReferences'], `${base}.ownerReferences`),
  );
  const finalizers = metadata.finalizers;
  if (Array.isArray(finalizers)) {
    finalizers.forEach((finalizer, i) => {
      if (typeof finalizer !== 'string') return;
      for (const detail of qualifiedNameDetails(finalizer))
        out.push({
          path: [...at, 'finalizers', i],
          // ValidateFinalizers passes each name the list's path, unindexed.
          field: `${base}.finalizers`,
          type: 'FieldValueInvalid',
          detail: `Invalid value: ${JSON.stringify(finalizer)}: ${detail}`,
          message: `finalizer ${JSON.stringify(finalizer)} is not valid: ${qualifiedNameProblems(finalizer).join('; ')}`,
          fix: 'name finalizers like example.com/cleanup: an optional DNS prefix and "/", then at most 63 letters, digits, "-", "_" and "."',
        });
    });
    const foreground = finalizers.indexOf('foregroundDeletion');
    if (finalizers.includes('orphan') && foreground >= 0)
      out.push({
        path: [...at, 'finalizers', foreground],
        field: `${base}.finalizers`,
        type: 'FieldValueInvalid',
        detail: `Invalid value: ${goStringSliceText(finalizers)}: finalizer orphan and foregroundDeletion cannot be both set`,
        message:
          'the finalizers orphan and foregroundDeletion are both set: the garbage collector cannot both keep and delete the dependents',
        fix: 'keep one of them (or neither: the delete request chooses with its propagationPolicy)',
      });
  }
  return out;
}

/**
 * The violations of an object's own metadata and, for a built-in workload, of its pod template's (ValidatePodTemplateSpec
 * checks its labels and annotations too). `apiVersion` and `kind` default to the object's own.
 */
export function objectAndTemplateMetaViolations(
  object: Record<string, unknown>,
  apiVersion: unknown = object.apiVersion,
  kind: unknown = object.kind,
): MetaViolation[] {
  const pod = podSpecAt(object, apiVersion, kind);
  const template = pod && pod.path.length > 1 ? [...pod.path.slice(0, -1), 'metadata'] : undefined;
  let templateMeta: unknown = object;
  for (const step of template ?? []) templateMeta = isObject(templateMeta) ? templateMeta[step] : undefined;
  return [
    ...objectMetaViolations(object.metadata),
    ...(template ? objectMetaViolations(templateMeta, template, 'podTemplate') : []),
  ];
}

/** The owner kinds apimachinery bans (BannedOwners): an Event may own nothing. */
const BANNED_OWNERS = new Set(['/v1, Kind=Event']);

/** ValidateOwnerReferences, in Kubernetes 1.32's words: each field unindexed, and one controller at most. */
function ownerReferenceViolations(references: unknown, at: (string | number)[], field: string): MetaViolation[] {
  // A list the decoder cannot read into []OwnerReference is a 400 before validation (metadataShapes.ts reports it).
  if (!Array.isArray(references) || !references.every(decodable)) return [];
  // What the API server decoded: a null item is a zero OwnerReference, and the value errors quote the Go struct.
  const refs = references.map(asOwnerReference);
  const out: MetaViolation[] = [];
  let firstController = '';
  refs.forEach((ref, i) => {
    const item = references[i];
    const gvk = groupVersionKind(ref.apiVersion, ref.kind);
    const empty = (key: 'apiVersion' | 'kind' | 'name' | 'uid', detail: string) =>
      out.push({
        path: [...at, i, key],
        field: `${field}.${key}`,
        type: 'FieldValueInvalid',
        detail: `Invalid value: ${JSON.stringify(ref[key])}: ${detail}`,
        message: `ownerReferences[${i}] has no ${key === 'apiVersion' ? 'version in its apiVersion' : key}: Kubernetes needs the owner's apiVersion, kind, name and uid`,
        fix: "copy the owner's apiVersion, kind, metadata.name and metadata.uid, or drop the reference (a template from Git has no owner the members know: the uid is the live object's)",
      });
    if (gvk.version === '') empty('apiVersion', 'version must not be empty');
    if (gvk.kind === '') empty('kind', 'kind must not be empty');
    if (ref.name === '') empty('name', 'name must not be empty');
    if (ref.uid === '') empty('uid', 'uid must not be empty');
    const gvkText = `${gvk.group}/${gvk.version}, Kind=${gvk.kind}`;
    if (BANNED_OWNERS.has(gvkText))
      out.push({
        path: [...at, i],
        field,
        type: 'FieldValueInvalid',
        detail: `Invalid value: ${goJson(ref)}: ${gvkText} is disallowed from being an owner`,
        message: `ownerReferences[${i}] names an Event (${gvkText}) as the owner: Kubernetes lets no Event own anything`,
        fix: 'name the object that owns this one, or drop the reference',
      });
    if (ref.controller !== true) return;
    const name = `${ref.kind}/${ref.name}`;
    if (firstController === '') {
      firstController = name;
      return;
    }
    out.push({
      path: [...at, i, ...(isObject(item) ? ['controller'] : [])],
      field,
      type: 'FieldValueInvalid',
      detail: `Invalid value: ${goJson(refs)}: Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${name}`,
      message: `ownerReferences[${i}] (${name}) sets controller: true, as ${firstController} already does: an object has one controller at most`,
      fix: `set controller: true on one owner reference only (drop it from ${name} or from ${firstController})`,
    });
  });
  return out;
}

function decodable(item: unknown): boolean {
  if (item === null) return true;
  if (!isObject(item)) return false;
  const types = {
    apiVersion: 'string',
    kind: 'string',
    name: 'string',
    uid: 'string',
    controller: 'boolean',
    blockOwnerDeletion: 'boolean',
  };
  return Object.entries(types).every(
    ([key, type]) => item[key] === undefined || item[key] === null || typeof item[key] === type,
  );
}

/** The fields in metav1.OwnerReference's order, the pointers left out when unset (omitempty), as json.Marshal writes it. */
function asOwnerReference(item: unknown): OwnerReference {
  const o = isObject(item) ? item : {};
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const ref: OwnerReference = {
    apiVersion: text(o.apiVersion),
    kind: text(o.kind),
    name: text(o.name),
    uid: text(o.uid),
  };
  if (typeof o.controller === 'boolean') ref.controller = o.controller;
  if (typeof o.blockOwnerDeletion === 'boolean') ref.blockOwnerDeletion = o.blockOwnerDeletion;
  return ref;
}

/** schema.FromAPIVersionAndKind: an apiVersion with two '/' parses to no group and no version. */
function groupVersionKind(apiVersion: string, kind: string): { group: string; version: string; kind: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '', kind };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion, kind };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]!, kind };
  return { group: '', version: '', kind };
}

/** Go's json.Marshal of plain data: JSON.stringify with '<', '>', '&', U+2028 and U+2029 escaped. */
function goJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
