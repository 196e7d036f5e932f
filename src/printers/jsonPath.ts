import { formatFloat64 } from '../yaml/goYamlV2.ts';
import { kubectlJson } from './kubectlJson.ts';
import { byBytes, stringifyJsonLikeGo } from '../patches/patchJsonText.ts';

/**
 * client-go's JSONPath (k8s.io/client-go/util/jsonpath), the template language of `kubectl get -o jsonpath`,
 * custom-columns, --sort-by and CRD printer columns: the same grammar, the same results, the same error words. Pure.
 *
 * Values are the JSON an unstructured object holds. Go tells an int64 from a float64 where JavaScript has one number
 * type, and its comparisons refuse to mix them (`@.price<10` on 8.95 is "incompatible types for comparison"): a whole
 * number here is an int64, as kubectl's JSON decoder makes it, and a literal written with a dot is a float64.
 */

export type JsonPathNode =
  | { type: 'text'; text: string }
  | { type: 'list'; nodes: JsonPathNode[] }
  | { type: 'field'; name: string }
  | { type: 'identifier'; name: string }
  | { type: 'array'; params: [SliceParam, SliceParam, SliceParam] }
  | { type: 'filter'; left: ListNode; right: ListNode; operator: string }
  | { type: 'int'; value: number }
  | { type: 'float'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'wildcard' }
  | { type: 'recursive' }
  | { type: 'union'; lists: ListNode[] };

type ListNode = { type: 'list'; nodes: JsonPathNode[] };
interface SliceParam {
  value: number;
  known: boolean;
  derived: boolean;
}

/** A template client-go's parser refuses; the message is the parser's. */
export class JsonPathSyntaxError extends Error {}

/** A template that parsed but failed on the data; the message is client-go's. */
export class JsonPathExecutionError extends Error {}

/** A float64 literal of the template (`1.5`, `2.0`): compared as a float, never equal to an int64. */
class GoFloat {
  constructor(readonly value: number) {}
}

/** One byte of a string, which `.*` and `..` walk into as Go's reflection does. */
class GoByte {
  constructor(readonly value: number) {}
}

/** reflect's zero Value: what a range over nothing evaluates its body against. */
const NO_VALUE = Symbol('no value');

type Value = unknown;

// ---------------------------------------------------------------------------------------------------- parsing

/** The parsed template: text and actions, as client-go's Parser.Root. */
export function parseJsonPath(text: string): ListNode {
  return new Parser(text).parse();
}

class Parser {
  private pos = 0;
  private start = 0;
  private width = 0;
  private readonly root: ListNode = { type: 'list', nodes: [] };

  constructor(private readonly input: string) {}

  parse(): ListNode {
    // client-go's parser calls itself for every token; a loop here, so that a long template cannot exhaust the stack.
    let action: ListNode | undefined;
    for (;;) {
      if (action === undefined) {
        if (!this.parseText()) return this.root;
        this.pos += 1;
        this.consumeText();
        action = { type: 'list', nodes: [] };
        this.root.nodes.push(action);
      } else if (!this.parseInsideAction(action)) action = undefined;
    }
  }

  private consumeText(): string {
    const value = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return value;
  }

  private next(): string | undefined {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return undefined;
    }
    const r = String.fromCodePoint(this.input.codePointAt(this.pos)!);
    this.width = r.length;
    this.pos += this.width;
    return r;
  }

  private peek(): string | undefined {
    const r = this.next();
    this.backup();
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  /** Text up to the next `{`; true when an action starts there. */
  private parseText(): boolean {
    for (;;) {
      if (this.input.startsWith('{', this.pos)) {
        if (this.pos > this.start) this.root.nodes.push({ type: 'text', text: this.consumeText() });
        return true;
      }
      if (this.next() === undefined) break;
    }
    if (this.pos > this.start) this.root.nodes.push({ type: 'text', text: this.consumeText() });
    return false;
  }

  /** One token of an action; false when the action closed. */
  private parseInsideAction(cur: ListNode): boolean {
    const rest = this.input.slice(this.pos, this.pos + 3);
    if (rest.startsWith('}')) {
      this.pos += 1;
      this.consumeText();
      return false;
    }
    if (rest.startsWith('[?(')) return this.parseFilter(cur);
    if (rest.startsWith('..')) return this.parseRecursive(cur);
    const r = this.next();
    if (r === undefined || isEndOfLine(r)) throw new JsonPathSyntaxError('unclosed action');
    if (r === ' ' || r === '@' || r === '$') this.consumeText();
    else if (r === '[') this.parseArray(cur);
    else if (r === '"' || r === "'") this.parseQuote(cur, r);
    else if (r === '.') this.parseField(cur);
    else if (r === '+' || r === '-' || isDigit(r)) {
      this.backup();
      this.parseNumber(cur);
    } else if (isAlphaNumeric(r)) {
      this.backup();
      this.parseIdentifier(cur);
    } else throw new JsonPathSyntaxError(`unrecognized character in action: ${goRuneU(r)}`);
    return true;
  }

  private parseIdentifier(cur: ListNode): void {
    for (;;) {
      if (isTerminator(this.next())) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ type: 'bool', value: value === 'true' });
    else cur.nodes.push({ type: 'identifier', name: value });
  }

  private parseRecursive(cur: ListNode): boolean {
    if (cur.nodes.at(-1)?.type === 'recursive') throw new JsonPathSyntaxError('invalid multiple recursive descent');
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ type: 'recursive' });
    const r = this.peek();
    if (r !== undefined && isAlphaNumeric(r)) this.parseField(cur);
    return true;
  }

  private parseNumber(cur: ListNode): void {
    const r = this.peek();
    if (r === '+' || r === '-') this.next();
    for (;;) {
      const c = this.next();
      if (c !== '.' && (c === undefined || !isDigit(c))) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    const int = goAtoi(value);
    if (int !== undefined) cur.nodes.push({ type: 'int', value: int });
    else if (/^[+-]?(?:\d+\.?\d*|\.\d+)$/.test(value)) cur.nodes.push({ type: 'float', value: Number(value) });
    else throw new JsonPathSyntaxError(`cannot parse number ${value}`);
  }

  private parseArray(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (r === undefined || r === '\n') throw new JsonPathSyntaxError('unterminated array');
      if (r === ']') break;
    }
    let text = this.consumeText().slice(1, -1);
    if (text === '*') text = ':';
    const parts = text.split(',');
    if (parts.length > 1) {
      cur.nodes.push({ type: 'union', lists: parts.map((part) => parseAction(`[${part.replace(/^ +| +$/g, '')}]`)) });
      return;
    }
    const dictKey = /^'([^']*)'$/.exec(text);
    if (dictKey) {
      cur.nodes.push(...parseAction(`.${dictKey[1]}`).nodes);
      return;
    }
    const slice = /^(-?[0-9]*)(:-?[0-9]*)?(:-?[0-9]*)?$/.exec(text);
    if (!slice) throw new JsonPathSyntaxError(`invalid array index ${text}`);
    const params: SliceParam[] = [];
    for (let i = 0; i < 3; i++) {
      let part = slice[i + 1] ?? '';
      if (part !== '') {
        if (i > 0) part = part.slice(1);
        if (i > 0 && part === '') params.push({ value: 0, known: false, derived: false });
        else {
          const value = goAtoi(part);
          if (value === undefined) throw new JsonPathSyntaxError(`array index ${part} is not a number`);
          params.push({ value, known: true, derived: false });
        }
      } else if (i === 1) params.push({ value: params[0]!.value + 1, known: true, derived: true });
      else params.push({ value: 0, known: false, derived: false });
    }
    cur.nodes.push({ type: 'array', params: params as [SliceParam, SliceParam, SliceParam] });
  }

  private parseFilter(cur: ListNode): boolean {
    this.pos += 3;
    this.consumeText();
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.next();
      if (r === undefined || r === '\n') throw new JsonPathSyntaxError('unterminated filter');
      if (r === '"' || r === "'") {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')' && begin === end) break;
    }
    if (this.next() !== ']') throw new JsonPathSyntaxError('unclosed array expect ]');
    const text = this.consumeText().slice(0, -2);
    const comparison = /^([^!<>=]+)([!<>=]+)(.+?)$/.exec(text);
    if (!comparison)
      cur.nodes.push({ type: 'filter', left: parseAction(text), right: emptyList(), operator: 'exists' });
    else
      cur.nodes.push({
        type: 'filter',
        left: parseAction(comparison[1]!),
        right: parseAction(comparison[3]!),
        operator: comparison[2]!,
      });
    return true;
  }

  private parseQuote(cur: ListNode, end: string): void {
    for (;;) {
      const r = this.next();
      if (r === undefined || r === '\n') throw new JsonPathSyntaxError('unterminated quoted string');
      if (r === end && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consumeText();
    const text = unquoteExtend(value);
    if (text === undefined) throw new JsonPathSyntaxError(`unquote string ${value} error invalid syntax`);
    cur.nodes.push({ type: 'text', text });
  }

  private parseField(cur: ListNode): void {
    this.consumeText();
    for (;;) {
      const r = this.next();
      if (r === '\\') this.next();
      else if (isTerminator(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    cur.nodes.push(value === '*' ? { type: 'wildcard' } : { type: 'field', name: value.replaceAll('\\', '') });
  }
}

const emptyList = (): ListNode => ({ type: 'list', nodes: [] });

/** client-go's parseAction: the text parsed as the inside of one action. */
function parseAction(text: string): ListNode {
  return new Parser(`{${text}}`).parse().nodes[0] as ListNode;
}

function isTerminator(r: string | undefined): boolean {
  return r === undefined || r === ' ' || r === '\t' || isEndOfLine(r) || '.,[]$@{}'.includes(r);
}

const isEndOfLine = (r: string) => r === '\r' || r === '\n';
const isDigit = (r: string) => /^\p{Nd}$/u.test(r);
const isAlphaNumeric = (r: string) => r === '_' || /^[\p{L}\p{Nd}]$/u.test(r);

// strconv.Atoi: an optional sign and ASCII digits that fit an int64.
function goAtoi(text: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined;
  const n = BigInt(text);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? Number(n) : undefined;
}

// Go's %#U: U+0041 'A', the character left out when it is not printable.
function goRuneU(r: string): string {
  const code = r.codePointAt(0)!;
  const u = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(r) ? `${u} '${r}'` : u;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
};

// client-go's UnquoteExtend: strconv.Unquote's escapes for a string in double or single quotes.
function unquoteExtend(quoted: string): string | undefined {
  const quote = quoted[0]!;
  let s = quoted.slice(1, -1);
  let out = '';
  while (s.length > 0) {
    const c = s[0]!;
    if (c === quote) return undefined;
    if (c !== '\\') {
      const ch = String.fromCodePoint(s.codePointAt(0)!);
      out += ch;
      s = s.slice(ch.length);
      continue;
    }
    const e = s[1];
    if (e === undefined) return undefined;
    if (e in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[e];
      s = s.slice(2);
    } else if (e === '"' || e === "'") {
      if (e !== quote) return undefined;
      out += e;
      s = s.slice(2);
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = s.slice(2, 2 + n);
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) return undefined;
      const code = Number.parseInt(hex, 16);
      if (code > 0x10ffff || (code >= 0xd800 && code < 0xe000 && e !== 'x')) return undefined;
      out += String.fromCodePoint(code);
      s = s.slice(2 + n);
    } else if (/^[0-7]{3}$/.test(s.slice(1, 4))) {
      const code = Number.parseInt(s.slice(1, 4), 8);
      if (code > 255) return undefined;
      out += String.fromCharCode(code);
      s = s.slice(4);
    } else return undefined;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------- evaluation

/** What one step gives: its values, and client-go's error, with the values it returned beside it. */
interface Step {
  values: Value[];
  error?: string;
}

export interface JsonPathOptions {
  /** kubectl's --allow-missing-template-keys, true by default in kubectl: a missing field gives nothing. */
  allowMissingKeys?: boolean;
}

/**
 * client-go's FindResults: for each text or action at the template's top level (each pass of a range counting as
 * its own), the values it found. Throws JsonPathExecutionError.
 */
export function findJsonPathResults(template: ListNode, data: unknown, options: JsonPathOptions = {}): Value[][] {
  return new Evaluator(template.nodes, options.allowMissingKeys ?? false).findResults(0, data);
}

/**
 * client-go's Execute: the template applied to the data, as `kubectl get -o jsonpath=` prints it (no newline added),
 * or with `asJson` as `-o jsonpath-as-json=` does (each top-level result list as an indented JSON array). Throws
 * JsonPathSyntaxError or JsonPathExecutionError.
 */
export function executeJsonPath(
  templateText: string,
  data: unknown,
  options: JsonPathOptions & { asJson?: boolean } = {},
): string {
  const results = findJsonPathResults(parseJsonPath(templateText), data, options);
  return results.map((list) => (options.asJson ? kubectlJson(list.map(toJson)) : printResults(list))).join('');
}

/** client-go's PrintResults without JSON output: each value as text, separated by single spaces. */
export function printResults(values: readonly Value[]): string {
  return values.map(valueText).join(' ');
}

/** A value as PrintResults writes it: maps and lists as compact JSON (keys in byte order), the rest as fmt prints it. */
export function valueText(value: Value): string {
  if (value === NO_VALUE) return '<no value>';
  if (value === null || value === undefined) return 'null';
  if (value instanceof GoFloat) return goFloatText(value.value);
  if (value instanceof GoByte) return String(value.value);
  if (typeof value === 'object') return compactJson(value);
  if (typeof value === 'number') return isGoInt(value) ? String(value) : goFloatText(value);
  return String(value);
}

/** fmt's %v of a float64: strconv's shortest 'g' (formatFloat64), and fmt's words for the infinities and NaN. */
export function goFloatText(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  return formatFloat64(n);
}

function compactJson(value: Value): string {
  const json = toJson(value);
  if (Array.isArray(json)) return `[${json.map(compactJson).join(',')}]`;
  if (json !== null && typeof json === 'object')
    return `{${Object.keys(json)
      .sort(byBytes)
      .map((k) => `${stringifyJsonLikeGo(k)}:${compactJson((json as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return json === null ? 'null' : stringifyJsonLikeGo(json);
}

function toJson(value: Value): unknown {
  if (value instanceof GoFloat || value instanceof GoByte) return value.value;
  if (value === NO_VALUE || value === undefined) return null;
  return value;
}

const isGoInt = (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 63;

class Evaluator {
  private beginRange = 0;
  private inRange = 0;
  private endRange = 0;
  private lastEndNode = -1;

  constructor(
    private readonly nodes: readonly JsonPathNode[],
    private readonly allowMissingKeys: boolean,
  ) {}

  /** client-go's FindResults over the top-level nodes from `from` on; a range's body is evaluated by recursion. */
  findResults(from: number, data: Value): Value[][] {
    const cur = [data];
    const full: Value[][] = [];
    for (let i = from; i < this.nodes.length; i++) {
      const step = this.walk(cur, this.nodes[i]!);
      if (step.error !== undefined) throw new JsonPathExecutionError(step.error);
      if (this.endRange > 0 && this.endRange <= this.inRange) {
        this.endRange--;
        this.lastEndNode = i;
        break;
      }
      if (this.beginRange > 0) {
        this.beginRange--;
        this.inRange++;
        if (step.values.length > 0) for (const value of step.values) full.push(...this.findResults(i + 1, value));
        // A range over nothing still walks its body, to find its end.
        else this.findResults(i + 1, NO_VALUE);
        this.inRange--;
        for (let k = i + 1; k < this.nodes.length; k++)
          if (k === this.lastEndNode) {
            i = k;
            break;
          }
        continue;
      }
      full.push(step.values);
    }
    return full;
  }

  private walk(input: Value[], node: JsonPathNode): Step {
    switch (node.type) {
      case 'list':
        return this.evalList(input, node);
      case 'text':
        return { values: [node.text] };
      case 'field':
        return this.evalField(input, node.name);
      case 'array':
        return evalArray(input, node.params);
      case 'filter':
        return this.evalFilter(input, node);
      case 'int':
        return { values: input.map(() => node.value) };
      case 'float':
        return { values: input.map(() => new GoFloat(node.value)) };
      case 'bool':
        return { values: input.map(() => node.value) };
      case 'wildcard':
        return { values: input.flatMap(children) };
      case 'recursive':
        return { values: recursive(input) };
      case 'union':
        return this.evalUnion(input, node.lists);
      case 'identifier':
        return this.evalIdentifier(input, node.name);
    }
  }

  private evalList(input: Value[], node: ListNode): Step {
    let cur = input;
    for (const child of node.nodes) {
      const step = this.walk(cur, child);
      if (step.error !== undefined) return step;
      cur = step.values;
    }
    return { values: cur };
  }

  private evalIdentifier(input: Value[], name: string): Step {
    if (name === 'range') {
      this.beginRange++;
      return { values: input };
    }
    if (name === 'end') {
      if (this.inRange > 0) {
        this.endRange++;
        return { values: [] };
      }
      return { values: [], error: 'not in range, nothing to end' };
    }
    return { values: input, error: `unrecognized identifier ${name}` };
  }

  private evalUnion(input: Value[], lists: readonly ListNode[]): Step {
    const values: Value[] = [];
    for (const list of lists) {
      const step = this.evalList(input, list);
      if (step.error !== undefined) return { values: input, error: step.error };
      values.push(...step.values);
    }
    return { values };
  }

  private evalField(input: Value[], name: string): Step {
    const values: Value[] = [];
    if (input.length === 0) return { values };
    for (const value of input) {
      if (isMap(value) && Object.hasOwn(value, name)) values.push(value[name]);
    }
    if (values.length === 0 && !this.allowMissingKeys) return { values, error: `${name} is not found` };
    return { values };
  }

  private evalFilter(input: Value[], node: Extract<JsonPathNode, { type: 'filter' }>): Step {
    const values: Value[] = [];
    for (const value of input) {
      if (!Array.isArray(value))
        return { values: input, error: `${goSprint(value)} is not array or slice and cannot be filtered` };
      for (const item of value) {
        const lefts = this.evalList([item], node.left);
        if (node.operator === 'exists') {
          if (lefts.values.length > 0) values.push(item);
          continue;
        }
        if (lefts.error !== undefined) return { values: input, error: lefts.error };
        if (lefts.values.length === 0) continue;
        if (lefts.values.length > 1) return { values: input, error: 'can only compare one element at a time' };
        const rights = this.evalList([item], node.right);
        if (rights.error !== undefined) return { values: input, error: rights.error };
        if (rights.values.length === 0) continue;
        if (rights.values.length > 1) return { values: input, error: 'can only compare one element at a time' };
        const pass = compare(node.operator, lefts.values[0], rights.values[0]);
        if (typeof pass === 'string') return { values, error: pass };
        if (pass) values.push(item);
      }
    }
    return { values };
  }
}

const isMap = (v: Value): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof GoFloat) && !(v instanceof GoByte);

function evalArray(input: Value[], [p0, p1, p2]: readonly [SliceParam, SliceParam, SliceParam]): Step {
  const values: Value[] = [];
  for (const value of input) {
    if (value === null || value === undefined) continue;
    if (!Array.isArray(value)) return { values: input, error: `${goTypeName(value)} is not array or slice` };
    const length = value.length;
    let start = p0.known ? p0.value : 0;
    if (start < 0) start += length;
    let end = p1.known ? p1.value : length;
    if (end < 0 || (end === 0 && p1.derived)) end += length;
    if (end === start) return { values };
    if (start >= length || start < 0)
      return { values: input, error: `array index out of bounds: index ${start}, length ${length}` };
    if (end > length || end < 0)
      return { values: input, error: `array index out of bounds: index ${end - 1}, length ${length}` };
    if (start > end) return { values: input, error: `starting index ${start} is greater than ending index ${end}` };
    let step = 1;
    if (p2.known) {
      if (p2.value <= 0) return { values: input, error: 'step must be > 0' };
      step = p2.value;
    }
    for (let i = start; i < end; i += step) values.push(value[i]);
  }
  return { values };
}

/** What `.*` gives for one value: a map's values, a list's items, a string's bytes. */
function children(value: Value): Value[] {
  if (Array.isArray(value)) return value;
  if (isMap(value)) return Object.values(value);
  if (typeof value === 'string') return [...Buffer.from(value)].map((b) => new GoByte(b));
  return [];
}

/** `..`: every value that has children, each before its descendants. */
function recursive(input: readonly Value[]): Value[] {
  const out: Value[] = [];
  const stack: Value[] = [...input].reverse();
  while (stack.length > 0) {
    const value = stack.pop();
    const inner = children(value);
    if (inner.length === 0) continue;
    out.push(value);
    for (let i = inner.length - 1; i >= 0; i--) stack.push(inner[i]);
  }
  return out;
}

type Kind = 'bool' | 'int' | 'uint' | 'float' | 'string';

function kindOf(v: Value): Kind | undefined {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (v instanceof GoFloat) return 'float';
  if (v instanceof GoByte) return 'uint';
  if (typeof v === 'number') return isGoInt(v) ? 'int' : 'float';
  return undefined;
}

const numeric = (v: Value): number | string | boolean =>
  v instanceof GoFloat || v instanceof GoByte ? v.value : (v as number | string | boolean);

/** text/template's eq, ne, lt, le, gt, ge as client-go forked them: true, false, or the error's words. */
function compare(operator: string, left: Value, right: Value): boolean | string {
  const equal = (): boolean | string => {
    const k1 = kindOf(left);
    const k2 = kindOf(right);
    if (!k1 || !k2) return 'invalid type for comparison';
    if (k1 !== k2 && !(isInteger(k1) && isInteger(k2))) return 'incompatible types for comparison';
    return numeric(left) === numeric(right);
  };
  const less = (): boolean | string => {
    const k1 = kindOf(left);
    const k2 = kindOf(right);
    if (!k1 || !k2) return 'invalid type for comparison';
    if (k1 !== k2 && !(isInteger(k1) && isInteger(k2))) return 'incompatible types for comparison';
    if (k1 === 'bool') return 'invalid type for comparison';
    return numeric(left) < numeric(right);
  };
  const lessEqual = (): boolean | string => {
    const lt = less();
    return lt === false ? equal() : lt;
  };
  const not = (r: boolean | string) => (typeof r === 'string' ? r : !r);
  switch (operator) {
    case '==':
      return equal();
    case '!=':
      return not(equal());
    case '<':
      return less();
    case '<=':
      return lessEqual();
    case '>':
      return not(lessEqual());
    case '>=':
      return not(less());
    default:
      return `unrecognized filter operator ${operator}`;
  }
}

const isInteger = (k: Kind) => k === 'int' || k === 'uint';

// The Go type an unstructured value has, as reflect names it in client-go's errors.
function goTypeName(value: Value): string {
  if (isMap(value)) return 'map[string]interface {}';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (value instanceof GoByte) return 'uint8';
  if (value instanceof GoFloat) return 'float64';
  if (typeof value === 'number') return isGoInt(value) ? 'int64' : 'float64';
  return 'interface {}';
}

/**
 * fmt's %v (and fmt.Sprint) of a value found: nil as `<nil>`, a map as `map[k:v ...]` with its keys in byte order,
 * a list as `[a b]`, numbers and the rest as valueText writes them. A filter's error and a custom column's cell
 * print values so.
 */
export function goSprint(value: unknown): string {
  if (value === null || value === undefined || value === NO_VALUE) return '<nil>';
  if (isMap(value))
    return `map[${Object.keys(value)
      .sort(byBytes)
      .map((k) => `${k}:${goSprint(value[k])}`)
      .join(' ')}]`;
  if (Array.isArray(value)) return `[${value.map(goSprint).join(' ')}]`;
  return valueText(value);
}
