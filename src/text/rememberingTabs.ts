// Go's text/tabwriter as kubectl's printers.GetNewTabWriter configures it (karmadactl interpret --check prints
// through it); alignTabs.ts is the describers' configuration, without remembered widths.

/**
 * kubectl's tab writer (minwidth 6, padding 3, RememberWidths): a column is as wide as the widest cell it has had so
 * far plus the padding, and a line without a tab flushes what came before it.
 */
export function rememberingTabs(lines: readonly string[]): string {
  const widths: number[] = [];
  const out: string[] = [];
  let block: string[][] = [];
  const flush = () => {
    for (const cells of block)
      cells.slice(0, -1).forEach((cell, c) => {
        widths[c] = Math.max(widths[c] ?? 0, 6, [...cell].length + 3);
      });
    for (const cells of block)
      out.push(cells.map((cell, c) => (c < cells.length - 1 ? cell.padEnd(widths[c]!) : cell)).join(''));
    block = [];
  };
  for (const line of lines) {
    const cells = line.split('\t');
    if (cells.length === 1) {
      flush();
      out.push(line);
    } else block.push(cells);
  }
  flush();
  return `${out.join('\n')}\n`;
}
