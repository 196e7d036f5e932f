import { isDeepStrictEqual } from 'node:util';
import type { FieldError } from '../ApiError.ts';
import type { KubeObject } from '../types.ts';
import { configMapViolations, secretViolations } from '../../kubeValidation/coreRules.ts';
import type { KubeViolation } from '../../kubeValidation/fieldViolations.ts';

// Validation of Secrets and ConfigMaps as the API server runs it on update (pkg/apis/core/validation
// ValidateSecretUpdate, ValidateConfigMapUpdate): an immutable type, and `immutable: true` freezing the data; then
// what every write is held to (kubeValidation/coreRules.ts: key names, the 1 MiB limit, each Secret type's keys).

const frozen = (field: string): FieldError => ({
  type: 'FieldValueForbidden',
  field,
  body: 'Forbidden: field is immutable when `immutable` is set',
});

const entries = (map: unknown): [string, unknown][] =>
  map && typeof map === 'object' && !Array.isArray(map) ? Object.entries(map) : [];
const asFieldError = (v: KubeViolation): FieldError => ({ type: v.type, field: v.field, body: v.detail });

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
  return [...errors, ...(kind === 'Secret' ? secretViolations(next) : configMapViolations(next)).map(asFieldError)];
}
