import { fieldPathText, strictDecodingError, unknownFields, type UnknownField } from '../../api/unknownFields.ts';
import type { GoJsonScan } from '../../api/goJsonScan.ts';
import { byBytes, storedJsonText } from '../../patches/patchJsonText.ts';
import { ApiError } from '../ApiError.ts';

/**
 * kube-apiserver's field validation of a built-in kind's body (the `fieldValidation` parameter): `Strict` (what
 * kubectl sends) refuses fields the kind's type does not declare with a 400, `Warn` (the default) and `Ignore` drop
 * them, `Warn` with one warning each. Returns the warnings; the body loses the dropped fields in place.
 * `known` is the object the write starts from (a patch's live object): fields it already has are not the body's.
 */
export function validateFieldNames(
  apiVersion: string,
  kind: string,
  body: Record<string, unknown>,
  fieldValidation: string,
  how: {
    known?: unknown;
    /** A JSON or merge patch's result: the patch's own strict errors come first, then the patched object's. */
    patch?: { errors: string[]; invalidValue?: string };
    /** The body's bytes as Go read them: keys written twice are strict errors too, met in document order. */
    scan?: GoJsonScan;
    /**
     * A custom resource's unknown fields, in the order its decoder names them, already pruned from the body: its
     * schema, not a Go type, says which fields it has.
     */
    pruned?: readonly Pick<UnknownField, 'path'>[];
  } = {},
): string[] {
  const unknown = how.pruned
    ? [...how.pruned]
    : unknownFields(body, apiVersion, kind).filter((u) => !has(how.known, u.path));
  if (!how.patch && how.scan && how.scan.duplicates.length > 0) {
    // A custom resource's pruning runs after the JSON decoder, whose repeated keys it names first.
    const errors = how.pruned
      ? [...strictErrorsInOrder([], how.scan), ...unknown.map((u) => `unknown field "${fieldPathText(u.path)}"`)]
      : strictErrorsInOrder(unknown, how.scan);
    if (fieldValidation === 'Strict') {
      const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
      throw new ApiError(
        400,
        'BadRequest',
        `${kind} in version "${version}" cannot be handled as a ${kind}: strict decoding error: ${errors.join(', ')}`,
      );
    }
    for (const u of unknown) drop(body, u);
    return fieldValidation === 'Ignore' ? [] : errors;
  }
  if (how.patch) {
    // The patched object is decoded from Go's JSON of a map, so its unknown fields come in sorted key order.
    if (!how.pruned) unknown.sort((a, b) => comparePaths(a.path, b.path));
    if (fieldValidation === 'Ignore') return [];
    const errors = [...how.patch.errors, ...unknown.map((u) => `unknown field "${fieldPathText(u.path)}"`)];
    if (errors.length > 0 && fieldValidation === 'Strict') {
      // encoding/json's Marshal of the decoded map: keys sorted by bytes, <, > and & escaped.
      const value = how.patch.invalidValue ?? storedJsonText(body);
      const detail = `Invalid value: ${JSON.stringify(value)}: strict decoding error: ${errors.join(', ')}`;
      throw new ApiError(422, 'Invalid', ` "" is invalid: patch: ${detail}`, {
        causes: [{ type: 'FieldValueInvalid', message: detail, field: 'patch' }],
      });
    }
    for (const u of unknown) drop(body, u);
    return errors;
  }
  if (unknown.length === 0) return [];
  if (fieldValidation === 'Strict') {
    const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
    throw new ApiError(400, 'BadRequest', strictDecodingError(kind, version, unknown));
  }
  for (const u of unknown) drop(body, u);
  return fieldValidation === 'Ignore' ? [] : unknown.map((u) => `unknown field "${fieldPathText(u.path)}"`);
}

/**
 * sigs.k8s.io/json's strict errors for a typed body: each unknown field where it is first met, each repeated key where
 * it is repeated, none inside a field the type lacks, whose value the decoder skips unread.
 */
export function strictErrorsInOrder(
  unknown: readonly Pick<UnknownField, 'path'>[],
  scan: GoJsonScan,
  prefix = '',
): string[] {
  const under = (path: readonly (string | number)[], field: readonly (string | number)[]) =>
    field.length <= path.length && field.every((part, i) => part === path[i]);
  const found = [
    ...unknown.map((u) => ({
      at: scan.firstSeen.get(fieldPathText(u.path)) ?? Number.MAX_SAFE_INTEGER,
      text: `unknown field "${fieldPathText(u.path)}"`,
    })),
    ...scan.duplicates
      .filter((d) => !unknown.some((u) => under(d.path, u.path)))
      .map((d) => ({ at: d.offset, text: `duplicate field "${fieldPathText(d.path)}"` })),
  ];
  return found.sort((a, b) => a.at - b.at).map((f) => `${prefix}${f.text}`);
}

/**
 * fmt's %+v of a patch decoded into map[string]interface{} (sigs.k8s.io/json, integers kept as int64): what the
 * strategic patch handler shows as the invalid value.
 */
export function goFormatValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goFormatValue).join(' ')}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value).sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    return `map[${keys.map((k) => `${k}:${goFormatValue((value as Record<string, unknown>)[k])}`).join(' ')}]`;
  }
  if (typeof value === 'number' && !Number.isInteger(value)) {
    // %v of a float64 is %g with the shortest digits, in exponent form from 1e6 or below 1e-4 (strconv's precision 6 for shortest).
    const exponent = Math.floor(Math.log10(Math.abs(value)));
    if (exponent < -4 || exponent >= 6)
      return value.toExponential().replace(/e([+-])(\d)$/, (_, sign, digit) => `e${sign}0${digit}`);
  }
  return String(value);
}

function comparePaths(a: readonly (string | number)[], b: readonly (string | number)[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i]!, b[i]!];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return byBytes(String(x), String(y));
  }
  return a.length - b.length;
}

function has(value: unknown, path: readonly (string | number)[]): boolean {
  let at = value;
  for (const part of path) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, part)) return false;
    at = (at as Record<string | number, unknown>)[part];
  }
  return true;
}

function drop(body: Record<string, unknown>, { path }: Pick<UnknownField, 'path'>): void {
  let at: unknown = body;
  for (const part of path.slice(0, -1)) at = (at as Record<string | number, unknown> | undefined)?.[part];
  if (at !== null && typeof at === 'object') delete (at as Record<string, unknown>)[path[path.length - 1] as string];
}
