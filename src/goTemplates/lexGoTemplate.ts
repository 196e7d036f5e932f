// text/template's lexer (text/template/parse/lex.go): the template's text and the tokens of its actions, trim
// markers applied here as Go applies them, ending at EOF or at the first error token.
import { goQuote } from '../text/goQuote.ts';

export type ItemType =
  | 'error'
  | 'bool'
  | 'char'
  | 'charConstant'
  | 'complex'
  | 'assign'
  | 'declare'
  | 'EOF'
  | 'field'
  | 'identifier'
  | 'leftDelim'
  | 'leftParen'
  | 'number'
  | 'pipe'
  | 'rawString'
  | 'rightDelim'
  | 'rightParen'
  | 'space'
  | 'string'
  | 'text'
  | 'variable'
  // Keywords: Go prints these as <word> in its errors.
  | 'block'
  | 'break'
  | 'continue'
  | 'dot'
  | 'define'
  | 'else'
  | 'end'
  | 'if'
  | 'nil'
  | 'range'
  | 'template'
  | 'with';

export interface Item {
  type: ItemType;
  /** Offset in the template (UTF-16 units; errors convert it to Go's byte offset). */
  pos: number;
  val: string;
  line: number;
}

const KEYWORDS: Record<string, ItemType> = {
  '.': 'dot',
  block: 'block',
  break: 'break',
  continue: 'continue',
  define: 'define',
  else: 'else',
  end: 'end',
  if: 'if',
  range: 'range',
  nil: 'nil',
  template: 'template',
  with: 'with',
};

export const isKeyword = (type: ItemType) => Object.values(KEYWORDS).includes(type);

const LEFT = '{{';
const RIGHT = '}}';

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isAlphaNumeric = (c: string | undefined) => c !== undefined && (c === '_' || /^[\p{L}\p{Nd}]$/u.test(c));
const hasLeftTrimMarker = (s: string) => s.length >= 2 && s[0] === '-' && isSpace(s[1]);
const hasRightTrimMarker = (s: string) => s.length >= 2 && isSpace(s[0]) && s[1] === '-';

/** Go's %#U of a rune: `U+007D '}'`, the character left out where strconv.IsPrint refuses it. */
export function goRuneName(ch: string): string {
  const code = ch.codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch) ? `${hex} '${ch}'` : hex;
}

/**
 * The items of `input`, as text/template's lexer emits them with `{{` and `}}`; `breakOK` and `continueOK` are false
 * when a function of that name is defined. The last item is EOF or an error. Pure.
 */
export function lexGoTemplate(input: string, breakOK = true, continueOK = true): Item[] {
  const items: Item[] = [];
  let pos = 0;
  let start = 0;
  let parenDepth = 0;
  const lineAt = (p: number) => {
    let line = 1;
    for (let i = input.indexOf('\n'); i >= 0 && i < p; i = input.indexOf('\n', i + 1)) line++;
    return line;
  };
  const emit = (type: ItemType) => {
    items.push({ type, pos: start, val: input.slice(start, pos), line: lineAt(start) });
    start = pos;
  };
  const ignore = () => {
    start = pos;
  };
  const fail = (message: string): null => {
    items.push({ type: 'error', pos: start, val: message, line: lineAt(start) });
    return null;
  };
  // One code point at a time, as Go reads runes.
  const next = (): string | undefined => {
    if (pos >= input.length) return undefined;
    const ch = String.fromCodePoint(input.codePointAt(pos)!);
    pos += ch.length;
    return ch;
  };
  const backup = (ch: string | undefined) => {
    if (ch !== undefined) pos -= ch.length;
  };
  const peek = () => {
    const ch = next();
    backup(ch);
    return ch;
  };
  const accept = (valid: string) => {
    const ch = next();
    if (ch !== undefined && valid.includes(ch)) return true;
    backup(ch);
    return false;
  };
  const acceptRun = (valid: string) => {
    while (accept(valid));
  };
  const atRightDelim = (): { delim: boolean; trim: boolean } => {
    const rest = input.slice(pos);
    if (hasRightTrimMarker(rest) && rest.startsWith(RIGHT, 2)) return { delim: true, trim: true };
    return { delim: rest.startsWith(RIGHT), trim: false };
  };
  const atTerminator = () => {
    const ch = peek();
    if (ch === undefined || isSpace(ch) || '.,|:)('.includes(ch)) return true;
    return input.startsWith(RIGHT, pos);
  };
  const leftTrimLength = (s: string) => s.length - s.replace(/^[ \t\r\n]+/, '').length;

  type State = () => State | null;
  const lexText: State = () => {
    const x = input.indexOf(LEFT, pos);
    if (x >= 0) {
      pos = x;
      let trim = 0;
      if (hasLeftTrimMarker(input.slice(pos + LEFT.length))) {
        const before = input.slice(start, pos);
        trim = before.length - before.replace(/[ \t\r\n]+$/, '').length;
      }
      pos -= trim;
      if (pos > start) emit('text');
      pos += trim;
      ignore();
      return lexLeftDelim;
    }
    pos = input.length;
    if (pos > start) emit('text');
    emit('EOF');
    return null;
  };
  const lexLeftDelim: State = () => {
    pos += LEFT.length;
    const trim = hasLeftTrimMarker(input.slice(pos));
    const afterMarker = trim ? 2 : 0;
    if (input.startsWith('/*', pos + afterMarker)) {
      pos += afterMarker;
      ignore();
      return lexComment;
    }
    emit('leftDelim');
    pos += afterMarker;
    ignore();
    parenDepth = 0;
    return lexInsideAction;
  };
  const lexComment: State = () => {
    pos += 2;
    const i = input.indexOf('*/', pos);
    if (i < 0) return fail('unclosed comment');
    pos = i + 2;
    const { delim, trim } = atRightDelim();
    if (!delim) return fail('comment ends before closing delimiter');
    if (trim) pos += 2;
    pos += RIGHT.length;
    if (trim) pos += leftTrimLength(input.slice(pos));
    ignore();
    return lexText;
  };
  const lexRightDelim: State = () => {
    const trim = hasRightTrimMarker(input.slice(pos));
    if (trim) {
      pos += 2;
      ignore();
    }
    pos += RIGHT.length;
    emit('rightDelim');
    if (trim) {
      pos += leftTrimLength(input.slice(pos));
      ignore();
    }
    return lexText;
  };
  const lexInsideAction: State = () => {
    if (atRightDelim().delim) return parenDepth === 0 ? lexRightDelim : fail('unclosed left paren');
    const r = next();
    if (r === undefined) return fail('unclosed action');
    if (isSpace(r)) {
      backup(r);
      return lexSpace;
    }
    switch (r) {
      case '=':
        emit('assign');
        return lexInsideAction;
      case ':':
        if (next() !== '=') return fail('expected :=');
        emit('declare');
        return lexInsideAction;
      case '|':
        emit('pipe');
        return lexInsideAction;
      case '"':
        return lexQuote;
      case '`':
        return lexRawQuote;
      case '$':
        return lexVariable;
      case "'":
        return lexChar;
      case '(':
        emit('leftParen');
        parenDepth++;
        return lexInsideAction;
      case ')':
        emit('rightParen');
        parenDepth--;
        if (parenDepth < 0) return fail(`unexpected right paren ${goRuneName(r)}`);
        return lexInsideAction;
    }
    if (r === '.') {
      const c = input[pos];
      if (pos < input.length && (c! < '0' || c! > '9')) return lexField;
    }
    if (r === '.' || r === '+' || r === '-' || (r >= '0' && r <= '9')) {
      backup(r);
      return lexNumber;
    }
    if (isAlphaNumeric(r)) {
      backup(r);
      return lexIdentifier;
    }
    if (r.codePointAt(0)! <= 0x7f && /^[\x20-\x7e]$/.test(r)) {
      emit('char');
      return lexInsideAction;
    }
    return fail(`unrecognized character in action: ${goRuneName(r)}`);
  };
  const lexSpace: State = () => {
    let spaces = 0;
    while (isSpace(peek())) {
      next();
      spaces++;
    }
    if (hasRightTrimMarker(input.slice(pos - 1)) && input.startsWith(RIGHT, pos - 1 + 2)) {
      pos--;
      if (spaces === 1) return lexRightDelim;
    }
    emit('space');
    return lexInsideAction;
  };
  const lexIdentifier: State = () => {
    for (;;) {
      const r = next();
      if (isAlphaNumeric(r)) continue;
      backup(r);
      const word = input.slice(start, pos);
      if (!atTerminator()) return fail(`bad character ${goRuneName(r!)}`);
      const keyword = KEYWORDS[word];
      if (keyword && keyword !== 'dot')
        emit((keyword === 'break' && !breakOK) || (keyword === 'continue' && !continueOK) ? 'identifier' : keyword);
      else if (word[0] === '.') emit('field');
      else if (word === 'true' || word === 'false') emit('bool');
      else emit('identifier');
      return lexInsideAction;
    }
  };
  const lexFieldOrVariable = (type: 'field' | 'variable'): State | null => {
    if (atTerminator()) {
      emit(type === 'variable' ? 'variable' : 'dot');
      return lexInsideAction;
    }
    let r: string | undefined;
    for (;;) {
      r = next();
      if (!isAlphaNumeric(r)) {
        backup(r);
        break;
      }
    }
    if (!atTerminator()) return fail(`bad character ${goRuneName(r!)}`);
    emit(type);
    return lexInsideAction;
  };
  const lexField: State = () => lexFieldOrVariable('field');
  const lexVariable: State = () => {
    if (atTerminator()) {
      emit('variable');
      return lexInsideAction;
    }
    return lexFieldOrVariable('variable');
  };
  const lexChar: State = () => {
    for (;;) {
      const r = next();
      if (r === '\\') {
        const e = next();
        if (e !== undefined && e !== '\n') continue;
        return fail('unterminated character constant');
      }
      if (r === undefined || r === '\n') return fail('unterminated character constant');
      if (r === "'") break;
    }
    emit('charConstant');
    return lexInsideAction;
  };
  const scanNumber = (): boolean => {
    accept('+-');
    let digits = '0123456789_';
    if (accept('0')) {
      if (accept('xX')) digits = '0123456789abcdefABCDEF_';
      else if (accept('oO')) digits = '01234567_';
      else if (accept('bB')) digits = '01_';
    }
    acceptRun(digits);
    if (accept('.')) acceptRun(digits);
    if (digits.length === 11 && accept('eE')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    if (digits.length === 23 && accept('pP')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    accept('i');
    if (isAlphaNumeric(peek())) {
      next();
      return false;
    }
    return true;
  };
  const lexNumber: State = () => {
    if (!scanNumber()) return fail(`bad number syntax: ${goQuote(input.slice(start, pos))}`);
    const sign = peek();
    if (sign === '+' || sign === '-') {
      if (!scanNumber() || input[pos - 1] !== 'i')
        return fail(`bad number syntax: ${goQuote(input.slice(start, pos))}`);
      emit('complex');
    } else emit('number');
    return lexInsideAction;
  };
  const lexQuote: State = () => {
    for (;;) {
      const r = next();
      if (r === '\\') {
        const e = next();
        if (e !== undefined && e !== '\n') continue;
        return fail('unterminated quoted string');
      }
      if (r === undefined || r === '\n') return fail('unterminated quoted string');
      if (r === '"') break;
    }
    emit('string');
    return lexInsideAction;
  };
  const lexRawQuote: State = () => {
    for (;;) {
      const r = next();
      if (r === undefined) return fail('unterminated raw quoted string');
      if (r === '`') break;
    }
    emit('rawString');
    return lexInsideAction;
  };

  for (let state: State | null = lexText; state; ) state = state();
  return items;
}
