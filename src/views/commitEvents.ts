import type { CommitInfo } from '../commits/types.ts';
import { humanDuration } from '../time/humanDuration.ts';
import { alignTabs } from '../text/alignTabs.ts';
import { printable } from './printTable.ts';

/**
 * The Events section of a describe, where an API server would list events: the commits that changed the object's
 * file, newest first, each a Normal "Committed" event from its author. Without any it is kubectl's `Events:\t<none>`,
 * whose tab the caller aligns with the lines before it, as kubectl's describers do (alignTabs). Pure.
 */
export function commitEvents(history: readonly CommitInfo[], now: Date): string[] {
  if (history.length === 0) return ['Events:\t<none>'];
  return eventTableLines(
    history.map((h) => [
      'Normal',
      'Committed',
      humanDuration(now.getTime() - h.committer.timestamp * 1000),
      printable(h.author.name),
      `${printable(h.message.split('\n')[0] ?? '')} (${h.oid.slice(0, 12)})`,
    ]),
  );
}

/**
 * An Events section of these rows (Type, Reason, Age, From, Message) as kubectl's DescribeEvents prints it: the
 * heading, then a table of its own (the describer's tabwriter is flushed first) with a row of dashes under the header,
 * indented two spaces. Pure.
 */
export function eventTableLines(rows: readonly (readonly string[])[]): string[] {
  const table = [
    ['Type', 'Reason', 'Age', 'From', 'Message'],
    ['----', '------', '----', '----', '-------'],
    ...rows.map((r) => r.map((cell) => cell.replaceAll('\t', ' '))),
  ];
  return ['Events:', ...alignTabs(table.map((r) => `  ${r.join('\t')}`).join('\n')).split('\n')];
}
