import { isDeepStrictEqual } from 'node:util';
import type { FieldError } from '../ApiError.ts';
import type { KubeObject } from '../types.ts';

// Validation of Secrets and ConfigMaps as the API server runs it on create and update (pkg/apis/core/validation
// ValidateSecret, ValidateSecretUpdate, ValidateConfigMap, ValidateConfigMapUpdate): key names, the 1 MiB
// size limit, the keys each Secret type requires, an immutable type, and `immutable: true` freezing the data.

const MAX_SIZE = 1024 * 1024;
const KEY_PATTERN = /^[-._a-zA-Z0-9]+$/;
const KEY_MESSAGE =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

const required = (field: string): FieldError => ({ type: 'FieldValueRequired', field, body: 'Required value' });
const invalidValue = (field: string, value: string, detail: string): FieldError => ({
  type: 'FieldValueInvalid',
  field,
  body: `Invalid value: ${JSON.stringify(value)}: ${detail}`,
});
const frozen = (field: string): FieldError => ({
  type: 'FieldValueForbidden',
  field,
  body: 'Forbidden: field is immutable when `immutable` is set',
});

/** IsConfigMapKey's messages for one key. */
function keyProblems(key: string): string[] {
  const problems: string[] = [];
  if (key.length > 253) problems.push('must be no more than 253 characters');
  if (!KEY_PATTERN.test(key)) problems.push(KEY_MESSAGE);
  if (key === '.') problems.push("must not be '.'");
  else if (key === '..') problems.push("must not be '..'");
  else if (key.startsWith('..')) problems.push("must not start with '..'");
  return problems;
}

const entries = (map: unknown): [string, unknown][] =>
  map && typeof map === 'object' && !Array.isArray(map) ? Object.entries(map) : [];
const decodedLength = (value: unknown) => Buffer.from(String(value ?? ''), 'base64').length;

function secretErrors(secret: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const data = Object.fromEntries(entries(secret.data));
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const problem of keyProblems(key)) errors.push(invalidValue(`data[${key}]`, key, problem));
    size += decodedLength(value);
  }
  if (size > MAX_SIZE)
    errors.push({ type: 'FieldValueTooLong', field: 'data', body: `Too long: may not be more than ${MAX_SIZE} bytes` });
  const has = (key: string) => Object.hasOwn(data, key);
  const jsonProblem = (key: string): FieldError | undefined => {
    try {
      const parsed = JSON.parse(Buffer.from(String(data[key] ?? ''), 'base64').toString('utf8'));
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new Error('json: cannot unmarshal into Go value of type map[string]interface {}');
      return undefined;
    } catch (error) {
      return {
        type: 'FieldValueInvalid',
        field: `data[${key}]`,
        body: `Invalid value: "<secret contents redacted>": ${(error as Error).message}`,
      };
    }
  };
  switch (secret.type) {
    case 'kubernetes.io/service-account-token':
      if (!secret.metadata.annotations?.['kubernetes.io/service-account.name'])
        errors.push(required('metadata.annotations[kubernetes.io/service-account.name]'));
      break;
    case 'kubernetes.io/dockercfg':
    case 'kubernetes.io/dockerconfigjson': {
      const key = secret.type === 'kubernetes.io/dockercfg' ? '.dockercfg' : '.dockerconfigjson';
      const problem = has(key) ? jsonProblem(key) : required(`data[${key}]`);
      if (problem) errors.push(problem);
      break;
    }
    // The API server builds these two paths from a literal "data[%s]", and so they read.
    case 'kubernetes.io/basic-auth':
      if (!has('username') && !has('password'))
        errors.push(required('data[%s][username]'), required('data[%s][password]'));
      break;
    case 'kubernetes.io/ssh-auth':
      if (decodedLength(data['ssh-privatekey']) === 0) errors.push(required('data[%s][ssh-privatekey]'));
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) errors.push(required('data[tls.crt]'));
      if (!has('tls.key')) errors.push(required('data[tls.key]'));
      break;
  }
  return errors;
}

function configMapErrors(configMap: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  let size = 0;
  const dataKeys = new Set<string>();
  for (const [key, value] of entries(configMap.data)) {
    for (const problem of keyProblems(key)) errors.push(invalidValue(`data[${key}]`, key, problem));
    dataKeys.add(key);
    size += Buffer.byteLength(String(value ?? ''));
  }
  for (const [key, value] of entries(configMap.binaryData)) {
    for (const problem of keyProblems(key)) errors.push(invalidValue(`binaryData[${key}]`, key, problem));
    if (dataKeys.has(key)) errors.push(invalidValue(`binaryData[${key}]`, key, 'duplicate of key present in data'));
    size += decodedLength(value);
  }
  if (size > MAX_SIZE)
    errors.push({ type: 'FieldValueTooLong', field: '', body: `Too long: may not be more than ${MAX_SIZE} bytes` });
  return errors;
}

/** What is wrong with a Secret or ConfigMap being written (`previous` on update); other kinds pass. */
export function validateConfigData(kind: string, next: KubeObject, previous?: KubeObject): FieldError[] {
  if (kind !== 'Secret' && kind !== 'ConfigMap') return [];
  const errors: FieldError[] = [];
  if (previous) {
    if (kind === 'Secret' && (previous.type ?? '') !== (next.type ?? '')) {
      errors.push({
        type: 'FieldValueInvalid',
        field: 'type',
        body: `Invalid value: ${JSON.stringify(next.type ?? '')}: field is immutable`,
      });
    }
    if (previous.immutable === true) {
      if (next.immutable !== true) errors.push(frozen('immutable'));
      const frozenFields = kind === 'Secret' ? ['data'] : ['data', 'binaryData'];
      // An empty map and none read back the same, so they compare equal.
      const normalized = (value: unknown) => (entries(value).length === 0 ? undefined : value);
      for (const field of frozenFields)
        if (!isDeepStrictEqual(normalized(previous[field]), normalized(next[field]))) errors.push(frozen(field));
    }
  }
  return [...errors, ...(kind === 'Secret' ? secretErrors(next) : configMapErrors(next))];
}
