import { terminalSafe } from '../text/terminalSafe.ts';

/**
 * kubectl's human-readable table: upper-case headers, each column as wide as its widest cell plus three
 * spaces and at least six (kubectl's tabwriter: minwidth 6, padding 3), the last column unpadded.
 */
export function printTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  return layOut(headers, rows, (line) => line.trimEnd());
}

/**
 * `kubectl get`'s table, byte for byte: as printTable, but each cell cut at its first line break (newline, carriage
 * return or form feed) with `...` marking the cut, as cli-runtime's table printer writes a string cell, and a line
 * whose last cells are empty keeps the padding the tabwriter gave the cells before them.
 */
export function printGetTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  options: { noHeaders?: boolean } = {},
): string {
  return layOut(
    headers,
    rows.map((r) => r.map(firstLine)),
    (line) => line,
    options.noHeaders ?? false,
  );
}

function layOut(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  finish: (line: string) => string,
  noHeaders = false,
): string {
  // Cells hold names and messages from Git: measured and printed as terminalSafe shows them. Without its header line
  // the tabwriter measures the rows alone.
  const all = [...(noHeaders ? [] : [headers]), ...rows.map((r) => r.map((cell) => terminalSafe(cell)))];
  const widths = headers.map((_, i) => Math.max(6, Math.max(...all.map((r) => (r[i] ?? '').length)) + 3));
  return (
    all
      .map((r) => finish(r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('')))
      .join('\n') + '\n'
  );
}

function firstLine(cell: string): string {
  const end = cell.search(/[\f\n\r]/);
  return end < 0 ? cell : `${cell.slice(0, end)}...`;
}

/** Text from Git (names, commit subjects) is untrusted: no control characters reach the terminal. */
export function printable(text: string): string {
  return terminalSafe(text);
}
