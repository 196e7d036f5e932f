import { fieldPathText, strictDecodingError, unknownFields, type UnknownField } from '../../api/unknownFields.ts';
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
  how: { apply?: { namespace?: string; name: string }; known?: unknown } = {},
): string[] {
  const unknown = unknownFields(body, apiVersion, kind).filter((u) => !has(how.known, u.path));
  if (unknown.length === 0) return [];
  if (fieldValidation === 'Strict') {
    const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
    if (!how.apply) throw new ApiError(400, 'BadRequest', strictDecodingError(kind, version, unknown));
    // Server-side apply builds a typed object from the applied configuration first, and says so.
    const { namespace, name } = how.apply;
    throw new ApiError(
      400,
      'BadRequest',
      `failed to create typed patch object (${namespace ?? ''}/${name}; ${apiVersion}, Kind=${kind}): ${unknown.map((u) => `.${fieldPathText(u.path)}: field not declared in schema`).join(', ')}`,
    );
  }
  for (const u of unknown) drop(body, u);
  return fieldValidation === 'Ignore' ? [] : unknown.map((u) => `unknown field "${fieldPathText(u.path)}"`);
}

function has(value: unknown, path: readonly (string | number)[]): boolean {
  let at = value;
  for (const part of path) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, part)) return false;
    at = (at as Record<string | number, unknown>)[part];
  }
  return true;
}

function drop(body: Record<string, unknown>, { path }: UnknownField): void {
  let at: unknown = body;
  for (const part of path.slice(0, -1)) at = (at as Record<string | number, unknown>)[part];
  delete (at as Record<string, unknown>)[path[path.length - 1] as string];
}
