/**
 * Go's text/tabwriter as kubectl's describers configure it (minwidth 0, padding 2, pad with spaces), or with other
 * widths (kubectl's printers: minwidth 6, padding 3): each tab ends a cell, and a column is as wide as its widest
 * cell plus the padding, and at least minWidth, over a run of consecutive lines that all have a cell in it; the text
 * after a line's last tab is not a cell and is never padded. Pure.
 */
export function alignTabs(text: string, padding = 2, minWidth = 0): string {
  const lines = text.split('\n').map((l) => l.split('\t'));
  const widths: number[][] = lines.map(() => []);
  // A line has a cell in column c when it has more than c tab-ended cells (its last part is the unended text).
  const hasCell = (line: number, column: number) => lines[line]!.length - 1 > column;
  const format = (from: number, to: number, column: number) => {
    let line = from;
    while (line < to) {
      if (!hasCell(line, column)) {
        line++;
        continue;
      }
      const start = line;
      let width = minWidth;
      while (line < to && hasCell(line, column)) {
        width = Math.max(width, [...lines[line]![column]!].length + padding);
        line++;
      }
      for (let l = start; l < line; l++) widths[l]![column] = width;
      format(start, line, column + 1);
    }
  };
  format(0, lines.length, 0);
  return lines
    .map((cells, l) =>
      cells
        .map((cell, c) => (c < cells.length - 1 ? cell + ' '.repeat(widths[l]![c]! - [...cell].length) : cell))
        .join(''),
    )
    .join('\n');
}
