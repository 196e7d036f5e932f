import { terminalSafe } from '../text/terminalSafe.ts';
import { historySubject, type HistoryEntry } from './readObjectHistory.ts';

/** kubectl-style columns, one row per output commit and cluster, newest first. */
export function renderHistoryTable(history: readonly HistoryEntry[]): string {
  const rows: string[][] = [['SOURCE', 'PR', 'AUTHOR', 'DATE', 'CLUSTER', 'CHANGE', 'SUBJECT']];
  for (const h of history) {
    for (const c of h.changes) {
      rows.push([
        h.sourceCommit ? h.sourceCommit.slice(0, 12) : `(hand ${h.outputCommit.slice(0, 7)})`,
        h.pullRequest !== undefined ? `#${h.pullRequest}` : '-',
        terminalSafe(`${h.author} <${h.email}>`),
        h.date,
        terminalSafe(c.cluster ?? '(binding)'),
        c.change,
        terminalSafe(historySubject(h)),
      ]);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('   ')).join('\n')}\n`;
}
