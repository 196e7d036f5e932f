import { labelValueDetails, qualifiedNameDetails } from './objectMetaRules.ts';

export type LabelRequirement =
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'gt' | 'lt'; values: [string] }
  | { key: string; op: 'exists' | '!' };

/** A label selector kubectl's grammar does not read; the message is apimachinery's. */
export class LabelSelectorSyntaxError extends Error {}

type Token = 'error' | 'end' | ')' | ',' | '!' | '==' | '=' | '>' | 'identifier' | 'in' | '<' | '!=' | 'notin' | '(';

const KEYWORDS: Record<string, Token> = {
  ')': ')',
  ',': ',',
  '!': '!',
  '==': '==',
  '=': '=',
  '>': '>',
  in: 'in',
  '<': '<',
  '!=': '!=',
  notin: 'notin',
  '(': '(',
};
const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';
const isWhitespace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecial = (ch: string) => '=!(),><'.includes(ch);

/** apimachinery's lexer: identifiers and keywords end at white space or a special symbol; symbols take the longest match. */
function lex(text: string): { token: Token; literal: string }[] {
  const items: { token: Token; literal: string }[] = [];
  let pos = 0;
  for (;;) {
    while (pos < text.length && isWhitespace(text[pos]!)) pos++;
    if (pos >= text.length) {
      items.push({ token: 'end', literal: '' });
      return items;
    }
    const start = pos;
    if (isSpecial(text[pos]!)) {
      let last: { token: Token; literal: string } | undefined;
      while (pos < text.length && isSpecial(text[pos]!)) {
        const buffer = text.slice(start, pos + 1);
        if (Object.hasOwn(KEYWORDS, buffer)) last = { token: KEYWORDS[buffer]!, literal: buffer };
        else if (last) break;
        pos++;
      }
      if (last) pos = start + last.literal.length;
      items.push(last ?? { token: 'error', literal: `error expected: keyword found '${text.slice(start, pos)}'` });
      continue;
    }
    while (pos < text.length && !isSpecial(text[pos]!) && !isWhitespace(text[pos]!)) pos++;
    const word = text.slice(start, pos);
    items.push({ token: Object.hasOwn(KEYWORDS, word) ? KEYWORDS[word]! : 'identifier', literal: word });
  }
}

/** A field.Error of apimachinery, as its Error() writes it (a string value quoted). */
const invalid = (field: string, value: string, detail: string) =>
  `${field}: Invalid value: ${JSON.stringify(value)}: ${detail}`;

/** utilerrors.Aggregate's Error(): one message alone, several in brackets. */
function aggregate(messages: readonly string[]): string | undefined {
  const unique = [...new Set(messages)];
  if (unique.length === 0) return undefined;
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

/**
 * Parses a label selector as `kubectl get -l` and the `labelSelector` query string take it
 * (k8s.io/apimachinery/pkg/labels.Parse): `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`,
 * comma-separated and ANDed, keys and values validated as label keys and values, with its error words. Pure.
 */
export function parseLabelSelector(text: string): LabelRequirement[] {
  const items = lex(text);
  let position = 0;
  // In a list of values `in` and `notin` are identifiers.
  const look = (values = true) => {
    const item = items[position]!;
    return values && (item.token === 'in' || item.token === 'notin') ? { ...item, token: 'identifier' as Token } : item;
  };
  const take = (values = true) => {
    const item = look(values);
    position++;
    return item;
  };
  const fail = (message: string): never => {
    throw new LabelSelectorSyntaxError(message);
  };
  const failRequirement = (message: string): never => fail(`unable to parse requirement: ${message}`);

  const parseValues = (): string[] => {
    const open = take();
    if (open.token !== '(') failRequirement(`found '${open.literal}' expected: '('`);
    const first = look();
    if (first.token === ')') {
      take();
      return [''];
    }
    if (first.token !== 'identifier' && first.token !== ',')
      failRequirement(`found '${first.literal}', expected: ',', ')' or identifier`);
    const values = new Set<string>();
    for (;;) {
      const item = take();
      if (item.token === 'identifier') {
        values.add(item.literal);
        const next = look();
        if (next.token === ',') continue;
        if (next.token === ')') break;
        failRequirement(`found '${next.literal}', expected: ',' or ')'`);
      } else if (item.token === ',') {
        if (values.size === 0) values.add('');
        const next = look();
        if (next.token === ')') {
          values.add('');
          break;
        }
        if (next.token === ',') {
          take();
          values.add('');
        }
      } else failRequirement(`found '${item.literal}', expected: ',', or identifier`);
    }
    if (take().token !== ')') failRequirement(`found '${first.literal}', expected: ')'`);
    return [...values].sort();
  };

  const parseRequirement = (): LabelRequirement => {
    let item = take();
    const absent = item.token === '!';
    if (absent) item = take();
    if (item.token !== 'identifier') failRequirement(`found '${item.literal}', expected: identifier`);
    const key = item.literal;
    const keyProblems = qualifiedNameDetails(key);
    if (keyProblems.length > 0) failRequirement(invalid('<nil>', key, keyProblems.join('; ')));
    // `!key` is whole: whatever follows it is the selector's next token.
    if (absent) return { key, op: '!' };
    const after = look().token;
    if (after === 'end' || after === ',') return { key, op: 'exists' };
    const operator = take(false);
    let values: string[];
    let op: 'in' | 'notin' | 'gt' | 'lt';
    switch (operator.token) {
      case 'in':
      case 'notin':
        op = operator.token;
        values = parseValues();
        break;
      case '=':
      case '==':
      case '!=':
      case '>':
      case '<': {
        op = operator.token === '>' ? 'gt' : operator.token === '<' ? 'lt' : operator.token === '!=' ? 'notin' : 'in';
        const next = look();
        if (next.token === 'end' || next.token === ',') values = [''];
        else {
          const value = take();
          if (value.token !== 'identifier') failRequirement(`found '${value.literal}', expected: identifier`);
          values = [value.literal];
        }
        break;
      }
      default:
        return failRequirement(`found '${operator.literal}', expected: ${BINARY_OPERATORS}`);
    }
    const problems: string[] = [];
    if ((op === 'gt' || op === 'lt') && goInt64(values[0]!) === undefined)
      problems.push(invalid('values[0]', values[0]!, "for 'Gt', 'Lt' operators, the value must be an integer"));
    values.forEach((value, i) => {
      const details = labelValueDetails(value);
      if (details.length > 0) problems.push(invalid(`values[${i}][${key}]`, value, details.join('; ')));
    });
    const problem = aggregate(problems);
    if (problem !== undefined) failRequirement(problem);
    return op === 'gt' || op === 'lt' ? { key, op, values: [values[0]!] } : { key, op, values };
  };

  const requirements: LabelRequirement[] = [];
  for (;;) {
    const next = look();
    if (next.token === 'end') return requirements;
    if (next.token !== 'identifier' && next.token !== '!')
      fail(`found '${next.literal}', expected: !, identifier, or 'end of string'`);
    requirements.push(parseRequirement());
    const after = take();
    if (after.token === 'end') return requirements;
    if (after.token !== ',') fail(`found '${after.literal}', expected: ',' or 'end of string'`);
    const following = look();
    if (following.token !== 'identifier' && following.token !== '!')
      fail(`found '${following.literal}', expected: identifier after ','`);
  }
}

/** strconv.ParseInt(s, 10, 64), or undefined. */
function goInt64(text: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined;
  const n = BigInt(text);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
}

export function matchesLabelRequirements(
  requirements: LabelRequirement[],
  labels: Record<string, string> | undefined,
): boolean {
  const have = labels ?? {};
  return requirements.every((r) => {
    const present = Object.hasOwn(have, r.key);
    switch (r.op) {
      case 'in':
        return present && r.values.includes(have[r.key]!);
      case 'notin':
        return !present || !r.values.includes(have[r.key]!);
      case 'exists':
        return present;
      case '!':
        return !present;
      case 'gt':
      case 'lt': {
        const value = present ? goInt64(have[r.key]!) : undefined;
        const bound = goInt64(r.values[0]);
        if (value === undefined || bound === undefined) return false;
        return r.op === 'gt' ? value > bound : value < bound;
      }
    }
    return false;
  });
}
