import type { FieldError } from '../ApiError.ts';
import { DNS1123_SUBDOMAIN } from '../../labels/labelFormats.ts';

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

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** IsDNS1123Label's messages. */
export function dns1123LabelProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push('must be no more than 63 characters');
  if (!DNS1123_LABEL.test(value))
    problems.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
  return problems;
}

const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** IsDNS1035Label's messages. */
export function dns1035LabelProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push('must be no more than 63 characters');
  if (!DNS1035_LABEL.test(value))
    problems.push(
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    );
  return problems;
}

/** IsDNS1123Subdomain's messages. */
export function dns1123SubdomainProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 253) problems.push('must be no more than 253 characters');
  if (!DNS1123_SUBDOMAIN.test(value))
    problems.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
  return problems;
}

/** IsValidPortName's messages: an IANA_SVC_NAME. */
export function portNameProblems(name: string): string[] {
  const problems: string[] = [];
  if (name.length < 1 || name.length > 15) problems.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name))
    problems.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) problems.push('must contain at least one letter (a-z)');
  if (name.includes('--')) problems.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) problems.push('must not begin or end with a hyphen');
  return problems;
}

/** IsValidPortNum's message, or undefined. */
export function portNumberProblem(port: unknown): string | undefined {
  return Number.isInteger(port) && (port as number) >= 1 && (port as number) <= 65535
    ? undefined
    : 'must be between 1 and 65535, inclusive';
}

/** A port given as a number or a name (intstr): its problems, each as a field error. */
export function intOrNamePortErrors(field: string, port: unknown): FieldError[] {
  if (typeof port === 'string') return portNameProblems(port).map((p) => invalidValue(field, port, p));
  const problem = portNumberProblem(port);
  return problem ? [invalidValue(field, port, problem)] : [];
}
