// text/template's parser (text/template/parse/parse.go) over lexGoTemplate's items, with Go's error words:
// `template: output:1: unexpected "}" in operand`.
import { goQuote } from '../text/goQuote.ts';
import { isKeyword, lexGoTemplate, type Item, type ItemType } from './lexGoTemplate.ts';
import type { BranchNode, CommandNode, ListNode, Node, NumberNode, PipeNode, VariableNode } from './templateNodes.ts';
import { nodeText } from './templateNodes.ts';
import { unquoteChar, unquoteGo } from './unquoteGo.ts';

/** A parsed template: its own tree and those it defines, all named, over one text. */
export interface GoTemplate {
  name: string;
  text: string;
  trees: Map<string, ListNode>;
}

/** A template Go's parser refuses, with Go's message (`template: NAME:LINE: ...`). */
export class GoTemplateSyntaxError extends Error {
  override name = 'GoTemplateSyntaxError';
}

const MAX_PIPELINE_COMMANDS = 1000;
const MAX_STACK_DEPTH = 10000;

/** Parses `text` as template `name` may call the functions named in `functions` (the builtins are always there). Pure. */
export function parseGoTemplate(name: string, text: string, functions: Iterable<string>): GoTemplate {
  const funcs = new Set([...BUILTIN_NAMES, ...functions]);
  const items = lexGoTemplate(text, !funcs.has('break'), !funcs.has('continue'));
  const trees = new Map<string, ListNode>();
  new Parser(name, items, funcs, trees).parseTop();
  return { name, text, trees };
}

export const BUILTIN_NAMES = [
  'and',
  'call',
  'html',
  'index',
  'slice',
  'js',
  'len',
  'not',
  'or',
  'print',
  'printf',
  'println',
  'urlquery',
  'eq',
  'ge',
  'gt',
  'le',
  'lt',
  'ne',
];

/** The lexer's items, read in turn by every tree parsed from the text (a define's too). */
class ItemStream {
  private next = 0;
  constructor(private readonly items: readonly Item[]) {}
  nextItem(): Item {
    const item = this.items[Math.min(this.next, this.items.length - 1)]!;
    this.next++;
    return item;
  }
}

class Parser {
  private token: Item[] = [];
  private peekCount = 0;
  private vars: string[] = ['$'];
  private actionLine = 0;
  private rangeDepth = 0;
  private stackDepth = 0;
  private readonly lex: ItemStream;
  root: ListNode | undefined;

  constructor(
    private name: string,
    items: readonly Item[] | ItemStream,
    private readonly funcs: Set<string>,
    private readonly trees: Map<string, ListNode>,
    private readonly parseName = name,
  ) {
    this.lex = items instanceof ItemStream ? items : new ItemStream(items);
  }

  private nextToken(): Item {
    if (this.peekCount > 0) this.peekCount--;
    else this.token[0] = this.lex.nextItem();
    return this.token[this.peekCount]!;
  }
  private backup() {
    this.peekCount++;
  }
  private backup2(t1: Item) {
    this.token[1] = t1;
    this.peekCount = 2;
  }
  private backup3(t2: Item, t1: Item) {
    this.token[1] = t1;
    this.token[2] = t2;
    this.peekCount = 3;
  }
  private peek(): Item {
    if (this.peekCount > 0) return this.token[this.peekCount - 1]!;
    this.peekCount = 1;
    this.token[0] = this.lex.nextItem();
    return this.token[0];
  }
  private nextNonSpace(): Item {
    let token: Item;
    do token = this.nextToken();
    while (token.type === 'space');
    return token;
  }
  private peekNonSpace(): Item {
    const token = this.nextNonSpace();
    this.backup();
    return token;
  }

  private errorf(message: string): never {
    throw new GoTemplateSyntaxError(`template: ${this.parseName}:${this.token[0]?.line ?? 0}: ${message}`);
  }
  private expect(expected: ItemType, context: string): Item {
    const token = this.nextNonSpace();
    if (token.type !== expected) this.unexpected(token, context);
    return token;
  }
  private unexpected(token: Item, context: string): never {
    if (token.type === 'error') {
      let extra = '';
      if (this.actionLine !== 0 && this.actionLine !== token.line) {
        extra = ` in action started at ${this.parseName}:${this.actionLine}`;
        if (token.val.endsWith(' action')) extra = extra.slice(' in action'.length);
      }
      this.errorf(`${token.val}${extra}`);
    }
    this.errorf(`unexpected ${itemText(token)} in ${context}`);
  }

  parseTop() {
    this.root = this.newList(this.peek().pos);
    while (this.peek().type !== 'EOF') {
      if (this.peek().type === 'leftDelim') {
        const delim = this.nextToken();
        if (this.nextNonSpace().type === 'define') {
          const definition = new Parser('definition', this.lex, this.funcs, this.trees, this.parseName);
          definition.parseDefinition();
          continue;
        }
        this.backup2(delim);
      }
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') this.errorf(`unexpected ${nodeText(n)}`);
      this.root.nodes.push(n);
    }
    this.add();
  }

  private add() {
    const existing = this.trees.get(this.name);
    if (!existing || isEmptyTree(existing)) {
      this.trees.set(this.name, this.root!);
      return;
    }
    if (!isEmptyTree(this.root!)) this.errorf(`template: multiple definition of template ${goQuote(this.name)}`);
  }

  private parseDefinition() {
    const context = 'define clause';
    const token = this.nextNonSpace();
    if (token.type !== 'string' && token.type !== 'rawString') this.unexpected(token, context);
    this.name = this.unquote(token.val);
    this.expect('rightDelim', context);
    const [list, end] = this.itemList();
    if (end.type !== 'end') this.errorf(`unexpected ${nodeText(end)} in ${context}`);
    this.root = list;
    this.add();
  }

  private itemList(): [ListNode, Node] {
    const list = this.newList(this.peekNonSpace().pos);
    while (this.peekNonSpace().type !== 'EOF') {
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') return [list, n];
      list.nodes.push(n);
    }
    this.errorf('unexpected EOF');
  }

  private textOrAction(): Node {
    const token = this.nextNonSpace();
    switch (token.type) {
      case 'text':
        return { type: 'text', pos: token.pos, text: token.val };
      case 'leftDelim':
        this.actionLine = token.line;
        try {
          return this.action();
        } finally {
          this.actionLine = 0;
        }
      default:
        this.unexpected(token, 'input');
    }
  }

  private action(): Node {
    const token = this.nextNonSpace();
    switch (token.type) {
      case 'block':
        return this.blockControl();
      case 'break':
      case 'continue':
        return this.breakControl(token);
      case 'else':
        return this.elseControl();
      case 'end':
        return { type: 'end', pos: this.expect('rightDelim', 'end').pos };
      case 'if':
      case 'range':
      case 'with':
        return this.branchControl(token.type);
      case 'template':
        return this.templateControl();
    }
    this.backup();
    const start = this.peek();
    return { type: 'action', pos: start.pos, pipe: this.pipeline('command', 'rightDelim') };
  }

  private breakControl(keyword: Item): Node {
    const word = keyword.type as 'break' | 'continue';
    const token = this.nextNonSpace();
    if (token.type !== 'rightDelim') this.unexpected(token, `{{${word}}}`);
    if (this.rangeDepth === 0) this.errorf(`{{${word}}} outside {{range}}`);
    return { type: word, pos: keyword.pos };
  }

  private pipeline(context: string, end: ItemType): PipeNode {
    const pipe: PipeNode = { type: 'pipe', pos: this.peekNonSpace().pos, isAssign: false, decl: [], cmds: [] };
    for (;;) {
      const v = this.peekNonSpace();
      if (v.type !== 'variable') break;
      this.nextToken();
      const tokenAfterVariable = this.peek();
      const next = this.peekNonSpace();
      if (next.type === 'assign' || next.type === 'declare') {
        pipe.isAssign = next.type === 'assign';
        this.nextNonSpace();
        pipe.decl.push(this.newVariable(v.pos, v.val));
        this.vars.push(v.val);
      } else if (next.type === 'char' && next.val === ',') {
        this.nextNonSpace();
        pipe.decl.push(this.newVariable(v.pos, v.val));
        this.vars.push(v.val);
        if (context === 'range' && pipe.decl.length < 2) {
          const after = this.peekNonSpace().type;
          if (after === 'variable' || after === 'rightDelim' || after === 'rightParen') continue;
          this.errorf('range can only initialize variables');
        }
        this.errorf(`too many declarations in ${context}`);
      } else if (tokenAfterVariable.type === 'space') this.backup3(v, tokenAfterVariable);
      else this.backup2(v);
      break;
    }
    for (;;) {
      const token = this.nextNonSpace();
      if (token.type === end) {
        this.checkPipeline(pipe, context);
        return pipe;
      }
      switch (token.type) {
        case 'bool':
        case 'charConstant':
        case 'complex':
        case 'dot':
        case 'field':
        case 'identifier':
        case 'number':
        case 'nil':
        case 'rawString':
        case 'string':
        case 'variable':
        case 'leftParen':
          this.backup();
          pipe.cmds.push(this.command());
          if (pipe.cmds.length > MAX_PIPELINE_COMMANDS) this.errorf('pipeline too long');
          break;
        default:
          this.unexpected(token, context);
      }
    }
  }

  private checkPipeline(pipe: PipeNode, context: string) {
    if (pipe.cmds.length === 0) this.errorf(`missing value for ${context}`);
    pipe.cmds.slice(1).forEach((c, i) => {
      if (['bool', 'dot', 'nil', 'number', 'string'].includes(c.args[0]!.type))
        this.errorf(`non executable command in pipeline stage ${i + 2}`);
    });
  }

  private branchControl(context: 'if' | 'range' | 'with'): BranchNode {
    const mark = this.vars.length;
    try {
      const pipe = this.pipeline(context, 'rightDelim');
      if (context === 'range') this.rangeDepth++;
      let [list, next] = this.itemList();
      if (context === 'range') this.rangeDepth--;
      let elseList: ListNode | undefined;
      if (next.type === 'else') {
        // {{else if}} and {{else with}} are an {{if}} or {{with}} inside the else, sharing its {{end}}.
        if ((context === 'if' && this.peek().type === 'if') || (context === 'with' && this.peek().type === 'with')) {
          this.nextToken();
          elseList = this.newList(next.pos);
          elseList.nodes.push(this.branchControl(context));
        } else {
          [elseList, next] = this.itemList();
          if (next.type !== 'end') this.errorf(`expected end; found ${nodeText(next)}`);
        }
      }
      return { type: context, pos: pipe.pos, pipe, list, elseList };
    } finally {
      this.vars.length = mark;
    }
  }

  private elseControl(): Node {
    const peek = this.peekNonSpace();
    if (peek.type === 'if' || peek.type === 'with') return { type: 'else', pos: peek.pos };
    return { type: 'else', pos: this.expect('rightDelim', 'else').pos };
  }

  private blockControl(): Node {
    const context = 'block clause';
    const token = this.nextNonSpace();
    const name = this.templateName(token, context);
    const pipe = this.pipeline(context, 'rightDelim');
    const block = new Parser(name, this.lex, this.funcs, this.trees, this.parseName);
    const [list, end] = block.itemList();
    if (end.type !== 'end') this.errorf(`unexpected ${nodeText(end)} in ${context}`);
    block.root = list;
    block.add();
    return { type: 'template', pos: token.pos, name, pipe };
  }

  private templateControl(): Node {
    const context = 'template clause';
    const token = this.nextNonSpace();
    const name = this.templateName(token, context);
    let pipe: PipeNode | undefined;
    if (this.nextNonSpace().type !== 'rightDelim') {
      this.backup();
      pipe = this.pipeline(context, 'rightDelim');
    }
    return { type: 'template', pos: token.pos, name, pipe };
  }

  private templateName(token: Item, context: string): string {
    if (token.type === 'string' || token.type === 'rawString') return this.unquote(token.val);
    this.unexpected(token, context);
  }

  private command(): CommandNode {
    const cmd: CommandNode = { type: 'command', pos: this.peekNonSpace().pos, args: [] };
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand) cmd.args.push(operand);
      const token = this.nextToken();
      if (token.type === 'space') continue;
      if (token.type === 'rightDelim' || token.type === 'rightParen') this.backup();
      else if (token.type !== 'pipe') this.unexpected(token, 'operand');
      break;
    }
    if (cmd.args.length === 0) this.errorf('empty command');
    return cmd;
  }

  private operand(): Node | undefined {
    let node = this.term();
    if (!node) return undefined;
    if (this.peek().type === 'field') {
      const pos = this.peek().pos;
      const fields: string[] = [];
      while (this.peek().type === 'field') fields.push(this.nextToken().val.slice(1));
      switch (node.type) {
        case 'field':
          node = { type: 'field', pos, ident: [...node.ident, ...fields] };
          break;
        case 'variable':
          node = { type: 'variable', pos, ident: [...node.ident, ...fields] };
          break;
        case 'bool':
        case 'string':
        case 'number':
        case 'nil':
        case 'dot':
          this.errorf(`unexpected . after term ${goQuote(nodeText(node))}`);
          break;
        default:
          node = { type: 'chain', pos, node, field: fields };
      }
    }
    return node;
  }

  private term(): Node | undefined {
    const token = this.nextNonSpace();
    switch (token.type) {
      case 'identifier':
        if (!this.funcs.has(token.val)) this.errorf(`function ${goQuote(token.val)} not defined`);
        return { type: 'identifier', pos: token.pos, ident: token.val };
      case 'dot':
        return { type: 'dot', pos: token.pos };
      case 'nil':
        return { type: 'nil', pos: token.pos };
      case 'variable':
        return this.useVar(token.pos, token.val);
      case 'field':
        return { type: 'field', pos: token.pos, ident: token.val.slice(1).split('.') };
      case 'bool':
        return { type: 'bool', pos: token.pos, value: token.val === 'true' };
      case 'charConstant':
      case 'complex':
      case 'number':
        return this.newNumber(token);
      case 'leftParen': {
        if (this.stackDepth >= MAX_STACK_DEPTH) this.errorf('max expression depth exceeded');
        this.stackDepth++;
        try {
          return this.pipeline('parenthesized pipeline', 'rightParen');
        } finally {
          this.stackDepth--;
        }
      }
      case 'string':
      case 'rawString':
        return { type: 'string', pos: token.pos, quoted: token.val, text: this.unquote(token.val) };
    }
    this.backup();
    return undefined;
  }

  private useVar(pos: number, name: string): VariableNode {
    const v = this.newVariable(pos, name);
    if (!this.vars.includes(v.ident[0]!)) this.errorf(`undefined variable ${goQuote(v.ident[0]!)}`);
    return v;
  }

  private newVariable(pos: number, name: string): VariableNode {
    return { type: 'variable', pos, ident: name.split('.') };
  }

  private newList(pos: number): ListNode {
    return { type: 'list', pos, nodes: [] };
  }

  private unquote(quoted: string): string {
    const text = unquoteGo(quoted);
    if (text === undefined) this.errorf('invalid syntax');
    return text;
  }

  private newNumber(token: Item): NumberNode {
    const number = parseNumber(token);
    if (typeof number === 'string') this.errorf(number);
    return number;
  }
}

/** Go's NewNumber: what the literal is as an int, a uint and a float, or the error's words. */
function parseNumber(token: Item): NumberNode | string {
  const text = token.val;
  const n: NumberNode = {
    type: 'number',
    pos: token.pos,
    text,
    isInt: false,
    isUint: false,
    isFloat: false,
    isComplex: false,
    int64: 0n,
    uint64: 0n,
    float64: 0,
  };
  if (token.type === 'charConstant') {
    const char = unquoteChar(text.slice(1), "'");
    if (!char) return 'invalid syntax';
    if (char.tail !== "'") return `malformed character constant: ${text}`;
    return {
      ...n,
      isInt: true,
      isUint: true,
      isFloat: true,
      int64: BigInt(char.rune),
      uint64: BigInt(char.rune),
      float64: char.rune,
    };
  }
  if (token.type === 'complex' || text.endsWith('i')) return 'complex numbers are not supported by flotilla';
  const int = parseGoInt(text);
  const uint = int !== undefined && !text.startsWith('-') && !text.startsWith('+') ? int : undefined;
  if (uint !== undefined && uint >= 0n && uint < 2n ** 64n) {
    n.isUint = true;
    n.uint64 = uint;
  }
  if (int !== undefined && int >= -(2n ** 63n) && int < 2n ** 63n) {
    n.isInt = true;
    n.int64 = int;
    if (int === 0n) n.isUint = true;
  }
  if (n.isInt) {
    n.isFloat = true;
    n.float64 = Number(n.int64);
  } else if (n.isUint) {
    n.isFloat = true;
    n.float64 = Number(n.uint64);
  } else {
    const f = parseGoFloat(text);
    if (f !== undefined) {
      if (!/[.eEpP]/.test(text)) return `integer overflow: ${goQuote(text)}`;
      n.isFloat = true;
      n.float64 = f;
      if (Number.isInteger(f) && Math.abs(f) < 2 ** 63) {
        n.isInt = true;
        n.int64 = BigInt(f);
      }
      if (Number.isInteger(f) && f >= 0 && f < 2 ** 64) {
        n.isUint = true;
        n.uint64 = BigInt(f);
      }
    }
  }
  if (!n.isInt && !n.isUint && !n.isFloat) return `illegal number syntax: ${goQuote(text)}`;
  return n;
}

/** strconv.ParseInt(text, 0, 64)'s syntax, without its range: sign, base prefix, underscores between digits. */
function parseGoInt(text: string): bigint | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|0[0-7_]*|[1-9][0-9_]*)$/.exec(text);
  if (!m) return undefined;
  const digits = m[2]!;
  if (!underscoresOk(digits)) return undefined;
  const clean = digits.replaceAll('_', '');
  const value =
    /^0[xXoObB]/.test(clean) || clean === '0'
      ? BigInt(clean.toLowerCase())
      : clean.startsWith('0')
        ? BigInt(`0o${clean.slice(1)}`)
        : BigInt(clean);
  return m[1] === '-' ? -value : value;
}

// strconv's underscoreOK: underscores only between digits, or after a base prefix.
function underscoresOk(digits: string): boolean {
  if (!digits.includes('_')) return true;
  const body = /^0[xXoObB]/.test(digits) ? `0${digits.slice(2)}` : digits;
  return !/__|_$/.test(body) && !/^_/.test(body) && (body.startsWith('0') ? /^0_?/.test(body) : true);
}

function parseGoFloat(text: string): number | undefined {
  const clean = text.replaceAll('_', '');
  if (/^[+-]?0[xX]/.test(clean)) return undefined;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(clean)) return undefined;
  return Number(clean);
}

function isEmptyTree(list: ListNode): boolean {
  return list.nodes.every((n) => n.type === 'text' && n.text.trim() === '');
}

/** An item as the parser's "unexpected" names it: EOF, a keyword as <word>, the rest quoted (ten characters at most). */
function itemText(item: Item): string {
  if (item.type === 'EOF') return 'EOF';
  if (item.type === 'error') return item.val;
  if (isKeyword(item.type)) return `<${item.val}>`;
  const chars = [...item.val];
  if (chars.length > 10) return `${goQuote(chars.slice(0, 10).join(''))}...`;
  return goQuote(item.val);
}
