import type { FieldError } from '../ApiError.ts';
import { portNameProblems, portNumberProblem } from '../../kubeValidation/fieldViolations.ts';

// Go's field.Error constructors (k8s.io/apimachinery/pkg/util/validation/field), rendered as the API server
// renders them: strings quoted, numbers bare, objects and lists as JSON.

const shown = (value: unknown) => (typeof value === 'number' ? String(value) : JSON.stringify(value ?? null));

export const required = (field: string, detail = ''): FieldError => ({
  type: 'FieldValueRequired',
  field,
  body: detail ? `Required value: ${detail}` : 'Required value',
});

export const invalidValue = (field: string, value: unknown, detail: string): FieldError => ({
  type: 'FieldValueInvalid',
  field,
  body: `Invalid value: ${shown(value)}: ${detail}`,
});

export const notSupported = (field: string, value: unknown, supported: readonly string[]): FieldError => ({
  type: 'FieldValueNotSupported',
  field,
  body: `Unsupported value: ${shown(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
});

export const duplicate = (field: string, value: unknown): FieldError => ({
  type: 'FieldValueDuplicate',
  field,
  body: `Duplicate value: ${shown(value)}`,
});

export const notFound = (field: string, value: unknown): FieldError => ({
  type: 'FieldValueNotFound',
  field,
  body: `Not found: ${shown(value)}`,
});

export const forbidden = (field: string, detail: string): FieldError => ({
  type: 'FieldValueForbidden',
  field,
  body: `Forbidden: ${detail}`,
});

export {
  dns1035LabelProblems,
  dns1123LabelProblems,
  dns1123SubdomainProblems,
  portNameProblems,
  portNumberProblem,
} from '../../kubeValidation/fieldViolations.ts';

/** A port given as a number or a name (intstr): its problems, each as a field error. */
export function intOrNamePortErrors(field: string, port: unknown): FieldError[] {
  if (typeof port === 'string') return portNameProblems(port).map((p) => invalidValue(field, port, p));
  const problem = portNumberProblem(port);
  return problem ? [invalidValue(field, port, problem)] : [];
}
