/** Escapes strconv.Quote gives a name to. */
const NAMED: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };
const PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u;

/**
 * Go's strconv.Quote (fmt's %q) of a string, as the API server's and client-go's messages print values: double
 * quotes; `"` and `\` escaped; \a \b \f \n \r \t \v by name; other characters unicode.IsPrint refuses (controls, the
 * no-break and other spaces, format characters) as \x, \u or \U escapes; the rest as they are. A lone surrogate, which
 * UTF-8 cannot hold, is the replacement character Go's decoder reads there. Pure.
 */
export function goQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const rune = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (rune === 0x20 || (rune < 0xd800 || rune > 0xdfff ? PRINTABLE.test(ch) : false)) out += ch;
    else if (rune >= 0xd800 && rune <= 0xdfff) out += '\ufffd';
    else if (NAMED[rune]) out += NAMED[rune];
    else if (rune < 0x20 || rune === 0x7f) out += `\\x${rune.toString(16).padStart(2, '0')}`;
    else if (rune < 0x10000) out += `\\u${rune.toString(16).padStart(4, '0')}`;
    else out += `\\U${rune.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}
