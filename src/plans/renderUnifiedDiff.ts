import { diffLines, type LineEdit } from './diffLines.ts';

export interface UnifiedDiffOptions {
  /** Shown on the `---` / `+++` lines; `/dev/null` stands for a side that does not exist. */
  path: string;
  /** Unchanged lines kept around each change. Default 3, as git. */
  context?: number;
}

/**
 * A `git diff`-style unified diff of two texts; null on one side means the file is added or removed.
 * Returns '' when the texts are equal. Pure: the same texts always give the same bytes.
 */
export function renderUnifiedDiff(oldText: string | null, newText: string | null, opts: UnifiedDiffOptions): string {
  if (oldText === newText) return '';
  const context = opts.context ?? 3;
  const edits = diffLines(splitLines(oldText), splitLines(newText));
  const lines = [
    `--- ${oldText === null ? '/dev/null' : `a/${opts.path}`}`,
    `+++ ${newText === null ? '/dev/null' : `b/${opts.path}`}`,
  ];
  for (const hunk of hunks(edits, context)) lines.push(...hunk);
  return `${lines.join('\n')}\n`;
}

function splitLines(text: string | null): string[] {
  if (text === null || text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Groups edits into hunks: runs of changes joined when fewer than 2·context unchanged lines separate them. */
function hunks(edits: readonly LineEdit[], context: number): string[][] {
  const changed = edits.map((e, i) => (e.op === ' ' ? -1 : i)).filter((i) => i >= 0);
  const out: string[][] = [];
  let i = 0;
  while (i < changed.length) {
    let first = changed[i]!;
    let last = first;
    while (i + 1 < changed.length && changed[i + 1]! - last <= 2 * context + 1) last = changed[++i]!;
    i++;
    first = Math.max(0, first - context);
    last = Math.min(edits.length - 1, last + context);
    // Line numbers of the hunk start on each side: count what came before it.
    let oldLine = 1;
    let newLine = 1;
    for (const e of edits.slice(0, first)) {
      if (e.op !== '+') oldLine++;
      if (e.op !== '-') newLine++;
    }
    const body = edits.slice(first, last + 1);
    const oldCount = body.filter((e) => e.op !== '+').length;
    const newCount = body.filter((e) => e.op !== '-').length;
    out.push([
      `@@ -${range(oldLine, oldCount)} +${range(newLine, newCount)} @@`,
      ...body.map((e) => `${e.op}${e.line}`),
    ]);
  }
  return out;
}

/** git writes `-0,0` for an empty side and omits a count of 1. */
function range(start: number, count: number): string {
  if (count === 0) return `${start - 1},0`;
  return count === 1 ? `${start}` : `${start},${count}`;
}
