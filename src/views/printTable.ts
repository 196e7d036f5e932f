import { terminalSafe } from '../text/terminalSafe.ts';

/**
 * kubectl's human-readable table: upper-case headers, each column as wide as its widest cell plus three
 * spaces and at least six (kubectl's tabwriter: minwidth 6, padding 3), the last column unpadded.
 */
export function printTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  // Cells hold names and messages from Git: measured and printed as terminalSafe shows them.
  const all = [headers, ...rows.map((r) => r.map((cell) => terminalSafe(cell)))];
  const widths = headers.map((_, i) => Math.max(6, Math.max(...all.map((r) => (r[i] ?? '').length)) + 3));
  return (
    all
      .map((r) =>
        r
          .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!)))
          .join('')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

/** Text from Git (names, commit subjects) is untrusted: no control characters reach the terminal. */
export function printable(text: string): string {
  return terminalSafe(text);
}
