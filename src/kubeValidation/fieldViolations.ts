import { DNS1123_SUBDOMAIN } from '../labels/labelFormats.ts';
import { goStringSliceText } from '../text/goSyntax.ts';
import { labelValueDetails, qualifiedNameDetails } from '../labels/objectMetaRules.ts';

// Go's field.Error constructors (k8s.io/apimachinery/pkg/util/validation/field) and the format checks the API
// server's validation builds its messages from (pkg/util/validation), as the kind rules of this folder report them:
// each a path to locate the field in a file, the field as the API server names it, and the body it prints.

// biome-ignore lint/suspicious/noExplicitAny: an API object of any shape, as the API server decodes it
export type Json = any;

export interface KubeViolation {
  /** From the object's root to the offending field (for locating it in a file). */
  path: (string | number)[];
  /** The field as the API server names it: `spec.ports[0].name`, `data[a b]`. */
  field: string;
  type:
    | 'FieldValueRequired'
    | 'FieldValueInvalid'
    | 'FieldValueNotSupported'
    | 'FieldValueDuplicate'
    | 'FieldValueNotFound'
    | 'FieldValueForbidden'
    | 'FieldValueTooMany'
    | 'FieldValueTooLong';
  /** The API server's error body, after the field: `Invalid value: -1: must be greater than or equal to 0`. */
  detail: string;
}

/** Where a violation sits: the path located in the file, and the field's name when it differs from the path's. */
export type At = (string | number)[] | { path: (string | number)[]; field: string };

export const isSet = (value: unknown): boolean => value !== undefined && value !== null;
export const list = (value: unknown): Json[] => (Array.isArray(value) ? value : []);
export const isObject = (value: unknown): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const entries = (map: unknown): [string, Json][] => (isObject(map) ? Object.entries(map) : []);

/** A field value as field.Error prints it: numbers and bools bare, strings quoted, anything else as JSON. */
export function shown(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value ?? null);
}

/** A dotted field path from path segments, list indexes in brackets. */
export function fieldOf(path: readonly (string | number)[]): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function violation(at: At, type: KubeViolation['type'], detail: string): KubeViolation {
  return Array.isArray(at) ? { path: at, field: fieldOf(at), type, detail } : { ...at, type, detail };
}

export const required = (at: At, detail = '') =>
  violation(at, 'FieldValueRequired', detail ? `Required value: ${detail}` : 'Required value');
/** field.Invalid; `raw` is the value already printed as Go prints it. An empty detail is left out, as Go does. */
export const invalid = (at: At, value: unknown, detail: string, raw?: string) =>
  violation(at, 'FieldValueInvalid', `Invalid value: ${raw ?? shown(value)}${detail ? `: ${detail}` : ''}`);
/** field.NotSupported; `raw` is the value already printed as Go prints it. */
export const notSupported = (at: At, value: unknown, supported: readonly string[], raw?: string) =>
  violation(
    at,
    'FieldValueNotSupported',
    `Unsupported value: ${raw ?? shown(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
  );
export const duplicate = (at: At, value: unknown, raw?: string) =>
  violation(at, 'FieldValueDuplicate', `Duplicate value: ${raw ?? shown(value)}`);
export const notFound = (at: At, value: unknown) => violation(at, 'FieldValueNotFound', `Not found: ${shown(value)}`);
export const forbidden = (at: At, detail: string) => violation(at, 'FieldValueForbidden', `Forbidden: ${detail}`);
export const tooLong = (at: At, most: number) =>
  violation(at, 'FieldValueTooLong', `Too long: may not be more than ${most} bytes`);
export const tooMany = (at: At, actual: number, most: number) =>
  violation(at, 'FieldValueTooMany', `Too many: ${actual}: must have at most ${most} items`);

/** Go's %#v of a map[string]string: keys sorted, as fmt prints maps. */
export function goStringMapText(map: unknown): string {
  if (!isObject(map)) return 'map[string]string(nil)';
  const entries = Object.keys(map)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(String(map[k]))}`);
  return `map[string]string{${entries.join(', ')}}`;
}

/** Go's %#v of a pointer field of `type`: nil when unset, else an address, which varies, elided. */
export const goPointerText = (type: string, value: unknown): string => `(*${type})(${isSet(value) ? '0x…' : 'nil'})`;

/** A metav1.LabelSelector as Go's %#v prints it in the API server's messages. */
export function labelSelectorText(selector: unknown): string {
  const s = isObject(selector) ? selector : {};
  const expressions = Array.isArray(s.matchExpressions)
    ? `[]v1.LabelSelectorRequirement{${s.matchExpressions
        .map(
          (e: Json) =>
            `v1.LabelSelectorRequirement{Key:${JSON.stringify(String(e?.key ?? ''))}, Operator:${JSON.stringify(String(e?.operator ?? ''))}, Values:${goStringSliceText(e?.values)}}`,
        )
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${goStringMapText(s.matchLabels)}, MatchExpressions:${expressions}}`;
}

/** The field name of a map entry as the API server prints it: `data[key]`. */
export const keyed = (path: (string | number)[], key: string): { path: (string | number)[]; field: string } => ({
  path: [...path, key],
  field: `${fieldOf(path)}[${key}]`,
});

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

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

const WILDCARD_DNS1123_SUBDOMAIN = /^\*\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** IsWildcardDNS1123Subdomain's messages. */
export function wildcardSubdomainProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 253) problems.push('must be no more than 253 characters');
  if (!WILDCARD_DNS1123_SUBDOMAIN.test(value))
    problems.push(
      "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
  return problems;
}

/** IsValidPathSegmentName's messages: a name that can be one segment of a URL path. */
export function pathSegmentProblems(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

const HTTP_PATH = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/;

/** IsDomainPrefixedPath, as a Job's managedBy and an IngressClass's controller are checked. */
export function domainPrefixedPathErrors(path: (string | number)[], value: string): KubeViolation[] {
  if (value.length === 0) return [required(path)];
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host === '' || rest === '')
    return [invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errors: KubeViolation[] = [];
  if (host.length > 253) errors.push(invalid(path, host, 'must be no more than 253 characters'));
  if (!DNS1123_SUBDOMAIN.test(host))
    errors.push(
      invalid(
        path,
        host,
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ),
    );
  if (!HTTP_PATH.test(rest))
    errors.push(invalid(path, rest, "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"));
  return errors;
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

/** ValidatePortNumOrName: a port given as a number or an IANA name. */
export function portNumOrNameViolations(at: (string | number)[], port: unknown): KubeViolation[] {
  if (typeof port === 'string') return portNameProblems(port).map((p) => invalid(at, port, p));
  const problem = portNumberProblem(port);
  return problem ? [invalid(at, port ?? 0, problem)] : [];
}

/** ValidateQualifiedName. */
export const qualifiedNameViolations = (at: At, value: string) =>
  qualifiedNameDetails(value).map((p) => invalid(at, value, p));

/** A name part at most 63 characters long: valid as a label value and, without a prefix, as a qualified name. */
const PLAIN_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;

/** ValidateLabels: each key a qualified name, each value a label value, reported at the map's own field. */
export function labelsViolations(path: (string | number)[], labels: unknown): KubeViolation[] {
  if (!isObject(labels)) return [];
  const errors: KubeViolation[] = [];
  for (const key in labels) {
    const value = String(labels[key] ?? '');
    // Most keys and values are plain names: the detailed checks run on the others only.
    if (PLAIN_NAME.test(key) && (value === '' || PLAIN_NAME.test(value))) continue;
    const at = { path: [...path, key], field: fieldOf(path) };
    for (const p of qualifiedNameDetails(key)) errors.push(invalid(at, key, p));
    for (const p of labelValueDetails(value)) errors.push(invalid(at, value, p));
  }
  return errors;
}

/** metav1validation.ValidateLabelSelector with label values held to the label value format. */
export function labelSelectorViolations(path: (string | number)[], selector: unknown): KubeViolation[] {
  if (!isObject(selector)) return [];
  const errors = labelsViolations([...path, 'matchLabels'], selector.matchLabels);
  list(selector.matchExpressions).forEach((req, i) => {
    const at = [...path, 'matchExpressions', i];
    const values = list(req?.values);
    switch (req?.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0)
          errors.push(required([...at, 'values'], "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0)
          errors.push(
            forbidden([...at, 'values'], "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
          );
        break;
      default:
        errors.push(invalid([...at, 'operator'], req?.operator ?? '', 'not a valid selector operator'));
    }
    errors.push(...qualifiedNameViolations([...at, 'key'], String(req?.key ?? '')));
    values.forEach((value, j) => {
      for (const p of labelValueDetails(String(value))) errors.push(invalid([...at, 'values', j], String(value), p));
    });
  });
  return errors;
}

/** ValidatePositiveIntOrPercent, and IsNotMoreThan100Percent unless `capped` is false (a Deployment's maxSurge may exceed 100%). */
export function intOrPercentViolations(path: (string | number)[], value: unknown, capped = true): KubeViolation[] {
  if (!isSet(value)) return [];
  if (typeof value === 'string') {
    if (!/^[0-9]+%$/.test(value))
      return [
        invalid(
          path,
          value,
          "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        ),
      ];
    return capped && Number.parseInt(value, 10) > 100 ? [invalid(path, value, 'must not be greater than 100%')] : [];
  }
  return typeof value === 'number' && value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
}

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;

/** IsConfigMapKey's messages: a ConfigMap or Secret data key, or the key an env var or volume item names in one. */
export function configMapKeyProblems(key: string): string[] {
  const problems: string[] = [];
  if (key.length > 253) problems.push('must be no more than 253 characters');
  if (!CONFIG_KEY.test(key))
    problems.push(
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    );
  if (key === '.') problems.push("must not be '.'");
  else if (key === '..') problems.push("must not be '..'");
  else if (key.startsWith('..')) problems.push("must not start with '..'");
  return problems;
}
