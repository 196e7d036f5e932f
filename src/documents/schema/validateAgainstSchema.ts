// Structural validation: walks a parsed YAML value against a Schema and reports EVERY problem (unknown
// field, missing field, wrong type, value out of range) with the full path and a concrete fix.
// Pure: no I/O, never throws on user input.
import type { ProblemCode } from '../../errors/codes.ts';
import type { ObjectSchema, Schema } from './types.ts';
import { formatPath } from './formatPath.ts';
import { suggestName } from '../../text/suggestName.ts';

export type SchemaIssueCode = Extract<
  ProblemCode,
  'UNKNOWN_FIELD' | 'MISSING_FIELD' | 'INVALID_VALUE' | 'INLINE_CREDENTIALS'
>;

export interface SchemaIssue {
  /** Path from the document root, e.g. ['spec', 'resourceSelectors', 0, 'kind']. */
  path: (string | number)[];
  code: SchemaIssueCode;
  /** Names the full path: `unknown field spec.placement.clusterAfinity; did you mean clusterAffinity?` */
  message: string;
  /** One concrete instruction: `rename it to clusterAffinity`. */
  fix: string;
  /** Reported, but the object stays valid: Karmada admits it, and what it would break fails where it is applied. */
  warning?: true;
}

/** Where each field name is defined in a schema, as paths relative to the schema root ('[]' = any index). */
type FieldIndex = Map<string, string[][]>;

interface Walk {
  issues: SchemaIssue[];
  root: Schema;
  rootPath: (string | number)[];
  index?: FieldIndex;
}

/**
 * Checks `value` against `schema`. `rootPath` is prepended to every reported path, for validating a
 * fragment (e.g. a spec) in place. Returns an empty list when the value conforms.
 */
export function validateAgainstSchema(
  value: unknown,
  schema: Schema,
  rootPath: (string | number)[] = [],
): SchemaIssue[] {
  const walk: Walk = { issues: [], root: schema, rootPath };
  check(value, schema, [...rootPath], walk);
  return walk.issues;
}

function check(value: unknown, schema: Schema, path: (string | number)[], walk: Walk): void {
  switch (schema.type) {
    case 'object':
      return checkObject(value, schema, path, walk);
    case 'array':
      if (!Array.isArray(value))
        return wrongType(
          value,
          'a list',
          path,
          walk,
          `write ${formatPath(path)} as a list: one entry per line, each starting with "- "`,
        );
      if (schema.minItems !== undefined && value.length < schema.minItems) {
        walk.issues.push({
          path,
          code: 'INVALID_VALUE',
          message: `${formatPath(path)} must have at least ${schema.minItems} ${schema.minItems === 1 ? 'entry' : 'entries'}, but it is empty`,
          fix: `add at least ${schema.minItems === 1 ? 'one entry' : `${schema.minItems} entries`} to ${formatPath(path)}`,
        });
      }
      value.forEach((item, i) => check(item, schema.items, [...path, i], walk));
      return;
    case 'string':
      return checkString(value, schema, path, walk);
    case 'integer':
      return checkInteger(value, schema, path, walk);
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value))
        return wrongType(value, 'a number', path, walk, `write a number without quotes at ${formatPath(path)}`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') {
        const hint =
          typeof value === 'string' && /^(true|false)$/i.test(value)
            ? `write ${value.toLowerCase()} without quotes`
            : 'write true or false';
        return wrongType(value, 'true or false', path, walk, hint);
      }
      return;
    case 'intOrString':
      if (typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value))) return;
      return wrongType(
        value,
        'a whole number or a string',
        path,
        walk,
        `write a whole number or a quoted string at ${formatPath(path)}`,
      );
    case 'quantity':
      if (typeof value === 'number' && Number.isFinite(value)) return;
      if (typeof value === 'string' && QUANTITY.test(value)) return;
      if (typeof value === 'string') {
        walk.issues.push({
          path,
          code: 'INVALID_VALUE',
          message: `${formatPath(path)} is ${preview(value)}, which is not a Kubernetes quantity`,
          fix: 'write a quantity such as 4, "500m", "16Gi" or "1e3"',
        });
        return;
      }
      return wrongType(value, 'a quantity', path, walk, 'write a quantity such as 4, "500m", "16Gi" or "1e3"');
    case 'any':
      return;
  }
}

// resource.Quantity: signed decimal number, optional exponent or binary/decimal SI suffix.
const QUANTITY = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/;

function checkObject(value: unknown, schema: ObjectSchema, path: (string | number)[], walk: Walk): void {
  if (!isPlainObject(value))
    return wrongType(
      value,
      'a mapping (key: value pairs)',
      path,
      walk,
      `write ${formatPath(path)} as key: value pairs`,
    );
  for (const name of schema.required ?? []) {
    if (value[name] === undefined || value[name] === null) {
      const fieldPath = [...path, name];
      const fieldSchema = schema.fields[name];
      walk.issues.push({
        path: fieldPath,
        code: 'MISSING_FIELD',
        message: `${formatPath(fieldPath)} is required${value[name] === null ? ' but is empty' : ''}`,
        fix: `add ${formatPath(fieldPath)}${fieldSchema ? describeExpected(fieldSchema) : ''}`,
      });
    }
  }
  for (const [key, child] of Object.entries(value)) {
    const fieldSchema = schema.fields[key];
    if (fieldSchema) {
      // Kubernetes treats an explicit null like an absent field.
      if (child !== null && child !== undefined) check(child, fieldSchema, [...path, key], walk);
    } else if (schema.additional) {
      check(child, schema.additional, [...path, key], walk);
    } else if (!schema.open) {
      walk.issues.push(unknownField(key, schema, path, walk));
    }
  }
}

function unknownField(key: string, schema: ObjectSchema, path: (string | number)[], walk: Walk): SchemaIssue {
  const fieldPath = [...path, key];
  const valid = Object.keys(schema.fields);
  const where = formatPath(fieldPath);
  const parent = path.length === 0 ? 'the document root' : formatPath(path);
  const suggestion = suggestName(key, valid);
  if (suggestion) {
    return {
      path: fieldPath,
      code: 'UNKNOWN_FIELD',
      message: `unknown field ${where}; did you mean ${suggestion}?`,
      fix: `rename it to ${suggestion}`,
    };
  }
  const elsewhere = findElsewhere(key, path, walk);
  if (elsewhere.length > 0) {
    const targets = elsewhere.map((p) => formatPath(p));
    return {
      path: fieldPath,
      code: 'UNKNOWN_FIELD',
      message: `unknown field ${where}; ${key} is not valid under ${parent}, it belongs at ${targets.join(' or ')}`,
      fix: `move it to ${targets[0]}`,
    };
  }
  const list = valid.length > 0 ? valid.join(', ') : '(none)';
  return {
    path: fieldPath,
    code: 'UNKNOWN_FIELD',
    message: `unknown field ${where}; valid fields under ${parent} are: ${list}`,
    fix: valid.length > 0 ? `remove ${key}, or rename it to one of: ${list}` : `remove ${key}`,
  };
}

/** Other places in the root schema where a field with exactly this name is defined (shortest first, at most 2). */
function findElsewhere(key: string, path: (string | number)[], walk: Walk): (string | number)[][] {
  walk.index ??= indexFields(walk.root);
  const relative = path.slice(walk.rootPath.length);
  const here = relative.map((p) => (typeof p === 'number' ? '[]' : p)).join('.');
  const found = (walk.index.get(key) ?? [])
    .filter((parentPath) => parentPath.join('.') !== here)
    .sort((a, b) => a.length - b.length)
    .slice(0, 2);
  // Show '[]' steps as index 0, which is what the user would write for a first entry.
  return found.map((parentPath) => [...walk.rootPath, ...parentPath.map((p) => (p === '[]' ? 0 : p)), key]);
}

function indexFields(root: Schema): FieldIndex {
  const index: FieldIndex = new Map();
  const visit = (schema: Schema, path: string[]): void => {
    if (path.length > 12) return;
    if (schema.type === 'array') return visit(schema.items, [...path, '[]']);
    if (schema.type !== 'object') return;
    for (const [name, child] of Object.entries(schema.fields)) {
      const list = index.get(name) ?? [];
      list.push(path);
      index.set(name, list);
      visit(child, [...path, name]);
    }
  };
  visit(root, []);
  return index;
}

function checkString(
  value: unknown,
  schema: Extract<Schema, { type: 'string' }>,
  path: (string | number)[],
  walk: Walk,
): void {
  if (typeof value !== 'string') {
    const fix =
      typeof value === 'number' || typeof value === 'boolean'
        ? `quote the value so YAML reads it as text: ${formatPath(path)}: "${String(value)}"`
        : `write ${formatPath(path)} as a single string`;
    return wrongType(value, 'a string', path, walk, fix);
  }
  const where = formatPath(path);
  if (schema.enum && !schema.enum.includes(value)) {
    const allowed = schema.enum.filter((e) => e !== '');
    const suggestion = suggestName(value, allowed);
    walk.issues.push({
      path,
      code: 'INVALID_VALUE',
      message: `${where} is ${preview(value)}, which is not allowed${suggestion ? `; did you mean ${suggestion}?` : ''}`,
      fix: `use one of: ${allowed.join(', ')}`,
    });
  }
  if (schema.maxLength !== undefined && value.length > schema.maxLength) {
    walk.issues.push({
      path,
      code: 'INVALID_VALUE',
      message: `${where} is ${value.length} characters long; at most ${schema.maxLength} are allowed`,
      fix: `shorten ${where} to ${schema.maxLength} characters or fewer`,
    });
  }
  if (schema.pattern && !schema.pattern.test(value)) {
    walk.issues.push({
      path,
      code: 'INVALID_VALUE',
      message: `${where} is ${preview(value)}, which does not match the required format ${schema.pattern.source}`,
      fix: `change ${where} so it matches ${schema.pattern.source}`,
    });
  }
}

function checkInteger(
  value: unknown,
  schema: Extract<Schema, { type: 'integer' }>,
  path: (string | number)[],
  walk: Walk,
): void {
  const where = formatPath(path);
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    const fix =
      typeof value === 'string' && /^[+-]?\d+$/.test(value.trim())
        ? `remove the quotes: ${where}: ${value.trim()}`
        : typeof value === 'number'
          ? `use a whole number, e.g. ${Math.round(value)}`
          : `write a whole number at ${where}`;
    return wrongType(value, 'a whole number', path, walk, fix);
  }
  if (schema.minimum !== undefined && value < schema.minimum) {
    walk.issues.push({
      path,
      code: 'INVALID_VALUE',
      message: `${where} is ${value}; it must be at least ${schema.minimum}`,
      fix: `set ${where} to ${schema.minimum} or more`,
    });
  }
  if (schema.maximum !== undefined && value > schema.maximum) {
    walk.issues.push({
      path,
      code: 'INVALID_VALUE',
      message: `${where} is ${value}; it must be at most ${schema.maximum}`,
      fix: `set ${where} to ${schema.maximum} or less`,
    });
  }
}

function wrongType(value: unknown, expected: string, path: (string | number)[], walk: Walk, fix: string): void {
  walk.issues.push({
    path,
    code: 'INVALID_VALUE',
    message: `${formatPath(path)} must be ${expected}, but it is ${describeValue(value)}`,
    fix,
  });
}

function describeExpected(schema: Schema): string {
  switch (schema.type) {
    case 'array':
      return schema.minItems
        ? ` with at least ${schema.minItems === 1 ? 'one entry' : `${schema.minItems} entries`}`
        : ' (a list)';
    case 'object':
      return schema.required && schema.required.length > 0
        ? ` (a mapping with ${schema.required.join(', ')})`
        : ' (a mapping)';
    case 'string':
      return schema.enum ? `: one of ${schema.enum.filter((e) => e !== '').join(', ')}` : ' (a string)';
    case 'integer':
      return schema.minimum !== undefined ? ` (a whole number, at least ${schema.minimum})` : ' (a whole number)';
    case 'boolean':
      return ' (true or false)';
    default:
      return '';
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'empty (null)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the string ${preview(value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return `the boolean ${value}`;
  return typeof value;
}

/** A short quoted rendering of a user value for messages. */
export function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
