// Names, commit subjects, file names and status messages come from Git, and Git content is written by whoever
// opened the pull request. Printed raw, an ESC sequence in an author name can recolour, move the cursor, set the
// window title or hide a line; a CR overwrites what was printed before it; a bidi override (U+202E) shows a
// different order of characters than the one stored. So every print site of such text goes through here.

/** C0 and C1 controls and DEL; tab and newline are handled by the caller's choice. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are what it matches
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** Bidirectional overrides, embeddings and isolates, and the invisible direction marks. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every control character shown as a visible escape (ESC as `\x1b`, CR as `\r`, U+202E as
 * `\u202e`), so it prints as the characters it holds and does nothing to the terminal. Newlines and tabs
 * become escapes too unless `multiline` (a block of text the caller formatted). Pure.
 */
export function terminalSafe(text: string, opts: { multiline?: boolean } = {}): string {
  const shown = text
    .replace(CONTROL, escapeChar)
    .replace(BIDI, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return opts.multiline ? shown : shown.replace(/[\t\n]/g, escapeChar);
}

function escapeChar(c: string): string {
  const code = c.charCodeAt(0);
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  if (c === '\t') return '\\t';
  return `\\x${code.toString(16).padStart(2, '0')}`;
}
