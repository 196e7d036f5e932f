/** A selector kube-apiserver refuses to read (its 400 Bad Request); the message is the server's. */
export class FieldSelectorError extends Error {}

export interface FieldRequirement {
  path: string;
  op: '=' | '!=';
  value: string;
}

/**
 * Parses `fieldSelector` as apimachinery's fields.ParseSelector does: terms split on commas a backslash does not
 * escape, sorted, each split at its first operator (`!=`, `==`, `=`; nothing trimmed), the value unescaped
 * (`\\`, `\,`, `\=`). What it cannot read is the API server's 400 (FieldSelectorError), quoting the whole selector and
 * the term. Pure.
 */
export function parseFieldSelector(text: string): FieldRequirement[] {
  const requirements: FieldRequirement[] = [];
  for (const term of splitTerms(text).sort()) {
    if (term === '') continue;
    const split = splitTerm(term);
    if (!split) throw new FieldSelectorError(`invalid selector: '${text}'; can't understand '${term}'`);
    requirements.push({ path: split.lhs, op: split.op === '!=' ? '!=' : '=', value: unescapeValue(split.rhs) });
  }
  return requirements;
}

function splitTerms(text: string): string[] {
  if (text === '') return [];
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (escaped) escaped = false;
    else if (c === '\\') escaped = true;
    else if (c === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

const OPERATORS = ['!=', '==', '='] as const;

function splitTerm(term: string): { lhs: string; op: string; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++)
    for (const op of OPERATORS)
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
  return undefined;
}

function unescapeValue(value: string): string {
  if (!/[\\,=]/.test(value)) return value;
  let out = '';
  let escaped = false;
  for (const c of value) {
    if (escaped) {
      if (c !== '\\' && c !== ',' && c !== '=')
        throw new FieldSelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      escaped = false;
    } else if (c === '\\') escaped = true;
    else if (c === ',' || c === '=')
      throw new FieldSelectorError(`invalid field selector: unescaped character in value: ${c}`);
    else out += c;
  }
  if (escaped) throw new FieldSelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Dotted-path lookup, stringified (missing = ''): for objects no registry strategy projects (metrics). */
export function matchesFieldRequirements(requirements: readonly FieldRequirement[], object: unknown): boolean {
  return requirements.every((r) => {
    let node: unknown = object;
    for (const step of r.path.split('.'))
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[step] : undefined;
    const actual = node === undefined || node === null ? '' : String(node);
    return r.op === '=' ? actual === r.value : actual !== r.value;
  });
}
