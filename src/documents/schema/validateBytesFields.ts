// A Secret's data (not stringData), a ConfigMap's binaryData and a webhook's caBundle are bytes, which kube-apiserver
// reads as base64: `password: hunter2` under data is refused by Karmada's API server and every member's.
import { invalidBase64Values } from '../../api/bytesFields.ts';
import type { SchemaIssue } from './validateAgainstSchema.ts';

/** Issues for the template's bytes-typed fields that are not base64; the value is never shown (a Secret's). */
export function validateBytesFields(manifest: Record<string, unknown>): SchemaIssue[] {
  const apiVersion = typeof manifest.apiVersion === 'string' ? manifest.apiVersion : '';
  const kind = typeof manifest.kind === 'string' ? manifest.kind : '';
  return invalidBase64Values(manifest, apiVersion, kind).map(({ path, offset, what }) => ({
    path,
    code: 'INVALID_VALUE',
    message: `${kind} ${what} is not base64 (illegal base64 data at input byte ${offset}): the API server decodes it as base64 and refuses the ${kind}`,
    fix:
      path[0] === 'data'
        ? `move it under stringData, which takes the text as it is, or base64-encode it (printf %s 'the value' | base64 -w0)`
        : path[0] === 'binaryData'
          ? 'base64-encode it (base64 -w0 < file), or move it under data if it is text'
          : 'give the PEM certificate base64-encoded (base64 -w0 < ca.crt)',
  }));
}
