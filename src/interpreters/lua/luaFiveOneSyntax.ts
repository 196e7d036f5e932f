// The VM parses Lua 5.4, which accepts constructs Karmada's gopher-lua (Lua 5.1) refuses at its webhook and at every
// call: the bitwise and floor-division operators, local attributes, hexadecimal floats, and statements after `break`.
// Without this check a customization would validate and run here and be refused by Karmada. Only a script that
// Lua 5.4 compiled is scanned, so its strings, comments and long brackets are well formed.

/** Where a script that compiles as Lua 5.4 uses syntax Lua 5.1 refuses, or undefined when it uses none. */
export function fiveFourOnlySyntax(script: string): { line: number; message: string } | undefined {
  const tokens = luaTokens(script);
  const refuse = (token: Token, what: string) => ({
    line: token.line,
    message: `syntax error near '${token.text}': ${what} is Lua 5.3+ syntax, which Karmada's Lua 5.1 (gopher-lua) refuses`,
  });
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.kind === 'number' && /^0[xX]/.test(token.text) && /[.pP]/.test(token.text))
      return refuse(token, 'a hexadecimal fraction or exponent');
    if (token.kind !== 'symbol' && token.kind !== 'name') continue;
    const operator = FIVE_FOUR_OPERATORS[token.text];
    if (token.kind === 'symbol' && operator) return refuse(token, operator);
    if (token.text === 'local' && tokens[i + 1]?.text !== 'function') {
      // local a, b <const>: an attribute after a name of the list.
      let j = i + 1;
      while (tokens[j]?.kind === 'name' && tokens[j + 1]?.text === ',') j += 2;
      if (tokens[j]?.kind === 'name' && tokens[j + 1]?.text === '<')
        return refuse(tokens[j + 1] as Token, 'a local variable attribute');
    }
    if (token.text === 'break') {
      // Lua 5.1 makes break the last statement of its block, with one optional semicolon.
      let next = tokens[i + 1];
      if (next?.text === ';') next = tokens[i + 2];
      if (next && !BLOCK_ENDS.has(next.text)) return refuse(next, 'a statement after break in the same block');
    }
  }
  return undefined;
}

/**
 * The script with each quoted string's escapes written as Lua 5.4 reads gopher-lua's: there a backslash before a
 * character that is no escape (`"\d"`, `"\."`, also `\x`, `\z` and `\u`, which 5.1 lacks) stands for that character,
 * where Lua 5.4 refuses the script or reads a hexadecimal, skipped blanks or a UTF-8 character; and a decimal escape
 * above 255 keeps its low byte, where Lua 5.4 refuses it. Lines stay where they were. Comments and long strings are
 * left as they are.
 */
export function withFiveOneEscapes(script: string): string {
  if (!script.includes('\\')) return script;
  let out = '';
  let copiedTo = 0;
  let i = 0;
  const longLevel = (at: number): number => {
    let k = at + 1;
    while (script[k] === '=') k++;
    return script[k] === '[' ? k - at - 1 : -1;
  };
  const skipLong = (at: number, level: number): number => {
    const close = `]${'='.repeat(level)}]`;
    const end = script.indexOf(close, at + level + 2);
    return end < 0 ? script.length : end + close.length;
  };
  while (i < script.length) {
    const c = script[i] as string;
    if (c === '-' && script[i + 1] === '-') {
      const level = script[i + 2] === '[' ? longLevel(i + 2) : -1;
      if (level >= 0) i = skipLong(i + 2, level);
      else {
        const end = script.indexOf('\n', i);
        i = end < 0 ? script.length : end;
      }
    } else if (c === '[' && longLevel(i) >= 0) i = skipLong(i, longLevel(i));
    else if (c === '"' || c === "'") {
      let k = i + 1;
      while (k < script.length && script[k] !== c && script[k] !== '\n' && script[k] !== '\r') {
        if (script[k] !== '\\') {
          k++;
          continue;
        }
        const escaped = script[k + 1] ?? '';
        let replacement: string | undefined;
        let length = 2;
        if (/[0-9]/.test(escaped)) {
          const digits = /^[0-9]{1,3}/.exec(script.slice(k + 1, k + 4))?.[0] as string;
          length = 1 + digits.length;
          const value = Number(digits);
          if (value > 255) replacement = `\\${String(value % 256).padStart(3, '0')}`;
        } else if (escaped === '\n' || escaped === '\r') {
          // A backslash and a line break, \r\n or \n\r counted as one, stand for a newline in both.
          const pair = script[k + 2];
          if ((pair === '\n' || pair === '\r') && pair !== escaped) length = 3;
        } else if (escaped !== '' && !'abfnrtv\\"\''.includes(escaped)) replacement = escaped;
        if (replacement !== undefined) {
          out += script.slice(copiedTo, k) + replacement;
          copiedTo = k + length;
        }
        k += length;
      }
      i = k + 1;
    } else i++;
  }
  return copiedTo === 0 ? script : out + script.slice(copiedTo);
}

const FIVE_FOUR_OPERATORS: Record<string, string> = {
  '//': 'floor division',
  '&': 'bitwise and',
  '|': 'bitwise or',
  '~': 'bitwise not or xor',
  '<<': 'a left shift',
  '>>': 'a right shift',
};

const BLOCK_ENDS = new Set(['end', 'else', 'elseif', 'until']);

interface Token {
  kind: 'name' | 'number' | 'string' | 'symbol';
  text: string;
  line: number;
}

function luaTokens(source: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  const countLines = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (source[k] === '\n') line++;
  };
  /** At `[`, the level of a long bracket `[==[`, or -1 when it is not one. */
  const longLevel = (at: number): number => {
    let k = at + 1;
    while (source[k] === '=') k++;
    return source[k] === '[' ? k - at - 1 : -1;
  };
  const skipLong = (at: number, level: number): number => {
    const close = `]${'='.repeat(level)}]`;
    const end = source.indexOf(close, at + level + 2);
    const stop = end < 0 ? source.length : end + close.length;
    countLines(at, stop);
    return stop;
  };
  while (i < source.length) {
    const c = source[i] as string;
    if (c === '\n') {
      line++;
      i++;
    } else if (/\s/.test(c)) i++;
    else if (c === '-' && source[i + 1] === '-') {
      const level = source[i + 2] === '[' ? longLevel(i + 2) : -1;
      if (level >= 0) i = skipLong(i + 2, level);
      else {
        const end = source.indexOf('\n', i);
        i = end < 0 ? source.length : end;
      }
    } else if (c === '[' && longLevel(i) >= 0) {
      const start = line;
      i = skipLong(i, longLevel(i));
      tokens.push({ kind: 'string', text: '[[', line: start });
    } else if (c === '"' || c === "'") {
      const start = line;
      let k = i + 1;
      while (k < source.length && source[k] !== c) k += source[k] === '\\' ? 2 : 1;
      countLines(i, k);
      i = k + 1;
      tokens.push({ kind: 'string', text: c, line: start });
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
      // read_numeral: digits, dots and letters, with a sign only right after an exponent mark.
      const exponent = /^0[xX]/.test(source.slice(i, i + 2)) ? /[pP]/ : /[eE]/;
      let k = i;
      while (k < source.length) {
        const d = source[k] as string;
        if (exponent.test(d) && /[+-]/.test(source[k + 1] ?? '')) k += 2;
        else if (/[0-9A-Za-z_.]/.test(d)) k++;
        else break;
      }
      tokens.push({ kind: 'number', text: source.slice(i, k), line });
      i = k;
    } else if (/[A-Za-z_]/.test(c)) {
      let k = i + 1;
      while (/[A-Za-z0-9_]/.test(source[k] ?? '')) k++;
      tokens.push({ kind: 'name', text: source.slice(i, k), line });
      i = k;
    } else {
      const symbol = ['...', '..', '==', '~=', '<=', '>=', '//', '<<', '>>', '::'].find((s) => source.startsWith(s, i));
      const text = symbol ?? c;
      tokens.push({ kind: 'symbol', text, line });
      i += text.length;
    }
  }
  return tokens;
}
