// strconv.Unquote and UnquoteChar for a template's string and character literals.

const SIMPLE: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92 };

/** One character of a quoted literal, escapes read as Go reads them; undefined where Go says "invalid syntax". */
export function unquoteChar(s: string, quote: string): { rune: number; byte: boolean; tail: string } | undefined {
  const c = s[0];
  if (c === undefined || c === quote) return undefined;
  if (c !== '\\') {
    const ch = String.fromCodePoint(s.codePointAt(0)!);
    return { rune: ch.codePointAt(0)!, byte: false, tail: s.slice(ch.length) };
  }
  const e = s[1];
  if (e === undefined) return undefined;
  if (e in SIMPLE) return { rune: SIMPLE[e]!, byte: false, tail: s.slice(2) };
  if (e === "'" || e === '"') return e === quote ? { rune: e.charCodeAt(0), byte: false, tail: s.slice(2) } : undefined;
  const hex = (n: number, byte: boolean) => {
    const digits = s.slice(2, 2 + n);
    if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(digits)) return undefined;
    const rune = Number.parseInt(digits, 16);
    if (!byte && (rune > 0x10ffff || (rune >= 0xd800 && rune <= 0xdfff))) return undefined;
    return { rune, byte, tail: s.slice(2 + n) };
  };
  if (e === 'x') return hex(2, true);
  if (e === 'u') return hex(4, false);
  if (e === 'U') return hex(8, false);
  if (e >= '0' && e <= '7') {
    const digits = s.slice(1, 4);
    if (!/^[0-7]{3}$/.test(digits)) return undefined;
    const rune = Number.parseInt(digits, 8);
    return rune > 255 ? undefined : { rune, byte: true, tail: s.slice(4) };
  }
  return undefined;
}

/**
 * strconv.Unquote of a "..." or `...` literal (a raw one loses its carriage returns); undefined where Go refuses it.
 * A \x or octal escape is a byte: those that make UTF-8 are joined into their character, any other stands as U+FFFD,
 * which is what a Go string of those bytes prints as on a UTF-8 terminal.
 */
export function unquoteGo(quoted: string): string | undefined {
  if (quoted.length < 2) return undefined;
  const quote = quoted[0]!;
  if (quote !== quoted.at(-1)) return undefined;
  const body = quoted.slice(1, -1);
  if (quote === '`') return body.includes('`') ? undefined : body.replaceAll('\r', '');
  if (quote !== '"') return undefined;
  const bytes: number[] = [];
  for (let rest = body; rest.length > 0; ) {
    const char = unquoteChar(rest, quote);
    if (!char) return undefined;
    if (char.byte) bytes.push(char.rune);
    else bytes.push(...Buffer.from(String.fromCodePoint(char.rune), 'utf8'));
    rest = char.tail;
  }
  return Buffer.from(bytes).toString('utf8');
}
