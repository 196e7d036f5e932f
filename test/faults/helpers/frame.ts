// The reliability suite's frame: a scenario is data (what it injects) plus one function that injects the fault,
// lets Flotilla react, and measures what survived. Every scenario ends as one row of the table that
// `npm run test:faults` prints and `--json FILE` writes; `npm test` runs the fast ones as uvu tests.

/** One row of the table, and of the JSON array `--json FILE` writes (these five fields, in this order). */
export interface FaultRow {
  scenario: string;
  injected: string;
  /** What Flotilla did, in a few words a user can check. */
  outcome: string;
  /** Objects that should exist (on a member, or in the output) and do not: expected state minus actual state. */
  lost: number;
  /** Seconds from the end of the fault (or the fixing push) until everything was back; 0 when nothing had to recover. */
  recovery_s: number;
}

export type ScenarioGroup = 'bad input' | 'source' | 'member' | 'process' | 'deletion' | 'security' | 'tenant' | 'load';

/**
 * Collects unmet expectations instead of throwing at the first: a row shows everything that went wrong, and
 * a scenario that crashes half way still reports what it had checked.
 */
export class Expectations {
  readonly failures: string[] = [];

  that(condition: unknown, message: string): boolean {
    if (!condition) this.failures.push(message);
    return Boolean(condition);
  }

  equal<T>(actual: T, expected: T, what: string): boolean {
    const a = JSON.stringify(actual);
    const e = JSON.stringify(expected);
    return this.that(a === e, `${what}: expected ${e}, got ${a}`);
  }
}

export interface ScenarioResult {
  outcome: string;
  lost: number;
  recovery_s?: number;
}

export interface Scenario {
  group: ScenarioGroup;
  name: string;
  injected: string;
  /** `fast` rows run in `npm test` and by default; `soak` rows only with --soak. */
  speed: 'fast' | 'soak';
  run(expect: Expectations): Promise<ScenarioResult>;
}

export interface RowReport {
  row: FaultRow;
  failures: string[];
  seconds: number;
}

/** Runs one scenario; a thrown error becomes a failed row, never a missing one. */
export async function runScenario(s: Scenario): Promise<RowReport> {
  const expect = new Expectations();
  const started = performance.now();
  let result: ScenarioResult;
  try {
    result = await s.run(expect);
  } catch (err) {
    expect.failures.push(`crashed: ${(err as Error)?.stack ?? String(err)}`);
    result = { outcome: `crashed: ${(err as Error)?.message ?? String(err)}`, lost: -1 };
  }
  const row: FaultRow = {
    scenario: `${s.group}: ${s.name}`,
    injected: s.injected,
    outcome: result.outcome,
    lost: result.lost,
    recovery_s: round(result.recovery_s ?? 0),
  };
  if (row.lost !== 0) expect.failures.push(`${row.lost} object(s) lost`);
  return { row, failures: expect.failures, seconds: (performance.now() - started) / 1000 };
}

export function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/** Seconds since `start` (a performance.now() value). */
export function since(start: number): number {
  return (performance.now() - start) / 1000;
}

/** The table as `npm run test:faults` prints it: aligned columns, long cells wrapped at word boundaries. */
export function formatTable(reports: readonly RowReport[], width = 48): string {
  const header = ['SCENARIO', 'INJECTED', 'OUTCOME', 'LOST', 'RECOVERY', 'OK'];
  const rows = reports.map((r) => [
    r.row.scenario,
    r.row.injected,
    r.row.outcome,
    String(r.row.lost),
    `${r.row.recovery_s.toFixed(2)}s`,
    r.failures.length ? 'FAIL' : 'ok',
  ]);
  const wrapped = rows.map((cells) => cells.map((c, i) => (i < 3 ? wrap(c, width) : [c])));
  const widths = header.map((h, i) =>
    Math.max(h.length, ...wrapped.map((cells) => Math.max(...cells[i]!.map((l) => l.length)))),
  );
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [line(header)];
  for (const cells of wrapped) {
    const height = Math.max(...cells.map((c) => c.length));
    for (let k = 0; k < height; k++) out.push(line(cells.map((c) => c[k] ?? '')));
  }
  return `${out.join('\n')}\n`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/)) {
    if (current && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current || lines.length === 0) lines.push(current);
  return lines;
}
