import type { CommitInfo } from '../commits/types.ts';
import { humanDuration } from '../time/humanDuration.ts';
import { printable, printTable } from './printTable.ts';

/**
 * The Events section of a describe, where an API server would list events: the commits that changed the object's
 * file, newest first, each a Normal "Committed" event from its author. Pure.
 */
export function commitEvents(history: readonly CommitInfo[], now: Date): string[] {
  if (history.length === 0) return ['Events:', '  <none>'];
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
 * An Events section of these rows (Type, Reason, Age, From, Message), indented under its heading as kubectl describe
 * prints it. Pure.
 */
export function eventTableLines(rows: readonly (readonly string[])[]): string[] {
  const table = printTable(['Type', 'Reason', 'Age', 'From', 'Message'], rows);
  return [
    'Events:',
    ...table
      .trimEnd()
      .split('\n')
      .map((l) => `  ${l}`),
  ];
}
