// The reconciler's and the Pull agent's log entries as a person on a terminal reads them: one line per step that
// did something (what, to what, how long), a mark in front (✓ done, ! needs a look, ✗ failed, · for information),
// and nothing for the steps that found nothing to do (a pass with no change, the next-pass schedule, an apply that
// wrote nothing). The JSON lines stay what scripts and log collectors read (--log-format json, or stdout not a TTY).
import type { ApplyAction } from '../deliveries/types.ts';
import { UsageError } from '../errors/UsageError.ts';
import { terminalSafe } from '../text/terminalSafe.ts';

export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

type Entry = Record<string, unknown>;

const ACTIONS: readonly ApplyAction[] = [
  'created',
  'configured',
  'drift-repaired',
  'pruned',
  'unchanged',
  'held',
  'conflict',
  'failed',
];

/** The lines for `entry`, each marked, without newlines; none when a person need not see it. Pure. */
export function progressLines(entry: Entry): string[] {
  const described = describe(entry);
  const lines = described === undefined ? [] : typeof described === 'string' ? [described] : described;
  // Messages and names come from Git and from members: shown as the characters they hold, never as controls.
  return lines.map((line) => terminalSafe(line));
}

/**
 * Writes the lines of each entry through `write`, each after `prefix()` (a clock). What is the same as the last
 * lines written for the same step and cluster (a note every pass repeats) is written once.
 */
export function progressPrinter(write: (line: string) => void, prefix: () => string): (entry: Entry) => void {
  const last = new Map<string, string>();
  return (entry) => {
    const lines = progressLines(entry);
    if (lines.length === 0) return;
    const key = `${entry.agent ?? ''} ${entry.step ?? ''} ${entry.cluster ?? ''}`;
    const text = lines.join('\n');
    if (last.get(key) === text) return;
    last.set(key, text);
    for (const line of lines) write(`${prefix()}${line}\n`);
  };
}

function describe(entry: Entry): string | string[] | undefined {
  const who = typeof entry.agent === 'string' ? `agent ${entry.agent}: ` : '';
  const step = String(entry.step ?? 'log');
  const took = duration(entry.ms);
  if (entry.error !== undefined && entry.error !== null) return `✗ ${who}${step} failed: ${String(entry.error)}${took}`;
  switch (step) {
    case 'start':
      return `✓ reconciler started on ${entry.repo} (${entry.branch})${
        entry.mirror ? `, fetching into ${entry.mirror} on "${entry.fetchSchedule}"` : ', watching its refs'
      }${entry.listen ? `; ${entry.listen}` : ''}`;
    case 'fetch':
      if (who) return undefined; // the agent fetches every pass; what it applies says whether anything came
      return entry.moved ? `✓ fetched ${short(entry.sourceCommit)}${took}` : undefined;
    case 'render':
      return describeRender(entry, took);
    case 'clusters':
      if (entry.connected) return `✓ connected ${entry.cluster} at ${entry.connected}`;
      if (entry.removed) return `· ${entry.cluster} is no longer registered; disconnected`;
      return `✗ ${entry.cluster}: ${entry.skipped}`;
    case 'apply':
      return describeApply(entry, who, took);
    case 'status':
      // The reconciler's pass line says "status recorded"; the agent has no pass line.
      return who ? `✓ ${who}status recorded: ${count(entry.paths, 'file')} (${short(entry.statusCommit)})` : undefined;
    case 'push':
      return describePush(entry, who);
    case 'pass': {
      const rendered = Number(entry.rendered ?? 0);
      const writes = Number(entry.writes ?? 0);
      if (rendered === 0 && writes === 0 && !entry.statusCommit) return undefined;
      const parts = [
        ...(rendered ? [`${count(rendered, 'commit')} rendered`] : []),
        ...(writes ? [`${count(writes, 'write')} to members`] : []),
        ...(entry.statusCommit ? ['status recorded'] : []),
      ];
      return `✓ pass (${reasons(entry)}) ${short(entry.sourceCommit)}: ${parts.join(', ')}${took}`;
    }
    case 'status-pass': {
      const unhealthy = Number(entry.unhealthy ?? 0);
      const missing = Number(entry.missing ?? 0);
      if (!entry.statusCommit && unhealthy === 0 && missing === 0) return undefined;
      const parts = [
        count(entry.clusters, 'cluster'),
        count(entry.objects, 'object'),
        ...(unhealthy ? [`${unhealthy} unhealthy`] : []),
        ...(missing ? [`${missing} missing`] : []),
      ];
      return `${unhealthy || missing ? '!' : '✓'} status pass (${reasons(entry)}): ${parts.join(', ')}${took}`;
    }
    case 'schedule':
      return undefined;
    case 'webhook':
      if (entry.accepted) return `✓ webhook from ${entry.forge} (delivery ${entry.delivery ?? 'without id'})`;
      if (entry.rejected) return `! webhook from ${entry.forge} refused: ${entry.rejected}`;
      return `· webhook from ${entry.forge}: ${entry.ignored}`;
    case 'lock':
      if (entry.tookOver) return `! took over the repo lock: ${entry.reason}`;
      return `! removed ${count(asArray(entry.removedStaleRefLocks).length, 'stale ref lock')}: ${entry.reason}`;
    case 'commitStatus':
      if (entry.skipped) return `· commit status skipped: ${entry.skipped}`;
      return `${entry.outcome === 'sent' ? '✓' : '!'} commit status ${entry.context} ${entry.verdict} on ${entry.forge}: ${entry.outcome}`;
    case 'stop':
      return '✓ stopped';
    case 'pause':
      return `· ${who}paused at ${entry.at} (${entry.ref}), pid ${entry.pid}`;
    default: {
      // A step this module does not know yet still shows, as its fields.
      const { step: _, agent: __, ms: ___, ...rest } = entry;
      const fields = Object.entries(rest).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
      return `· ${who}${step}${fields.length ? `: ${fields.join(' ')}` : ''}${took}`;
    }
  }
}

function describeRender(entry: Entry, took: string): string {
  if (entry.warning) return `! ${entry.warning}`;
  if (entry.pruneHeld) {
    const held = asArray(entry.pruneHeld).map((h) => {
      const { cluster, reason, objects } = h as { cluster?: string; reason?: string; objects?: number };
      return `${cluster}: ${count(objects, 'object')} (${reason})`;
    });
    return `! prune held on ${held.join('; ')}${entry.fix ? `; fix: ${entry.fix}` : ''}`;
  }
  const errors = Number(entry.errors ?? 0);
  const failover = asArray(entry.failover);
  return `${errors ? '!' : '✓'} rendered ${short(entry.sourceCommit)} → ${short(entry.outputCommit)}: ${count(
    entry.files,
    'file',
  )}${errors ? `, ${count(errors, 'error')} (flotilla validate lists them)` : ''}${
    failover.length ? `, failover: ${failover.join('; ')}` : ''
  }${took}`;
}

function describeApply(entry: Entry, who: string, took: string): string | string[] | undefined {
  if (entry.waiting) return `· ${who}waiting: ${entry.waiting}`;
  if (entry.skipped) return `· ${who}nothing applied: ${entry.skipped}`;
  const done = ACTIONS.filter((a) => a !== 'unchanged' && Number(entry[a] ?? 0) > 0);
  const notes = asArray(entry.notes).map(String);
  const held = asArray(entry.pruneHeld).map(String);
  if (done.length === 0 && notes.length === 0 && held.length === 0) return undefined;
  const bad = done.some((a) => a === 'failed' || a === 'conflict');
  const what = done.map((a) => `${entry[a]} ${a}`);
  const lines = [
    ...(done.length
      ? [`${bad ? '✗' : '✓'} ${who}applied ${short(entry.sourceCommit)} to ${entry.cluster}: ${what.join(', ')}${took}`]
      : []),
    ...held.map((h) => `! ${who || `${entry.cluster}: `}prune held: ${h}${entry.fix ? `; fix: ${entry.fix}` : ''}`),
    ...notes.map((n) => `· ${who || `${entry.cluster}: `}${n}`),
  ];
  return lines;
}

function describePush(entry: Entry, who: string): string | string[] {
  if (who) {
    const what = entry.what ? `${entry.what}` : 'status';
    return entry.outcome === 'pushed'
      ? `✓ ${who}pushed ${what} (${short(entry.statusCommit)})`
      : `! ${who}push of ${what} ${entry.outcome} (attempt ${entry.attempt}); trying again on the new tip`;
  }
  const pushed = asArray(entry.pushed).map(String);
  const rejected = asArray(entry.rejected) as { ref?: string; error?: string }[];
  return [
    ...(pushed.length ? [`✓ pushed ${pushed.join(', ')}`] : []),
    ...rejected.map((r) => `✗ push of ${r.ref} refused: ${r.error}`),
  ];
}

function reasons(entry: Entry): string {
  return asArray(entry.reasons).map(String).join(', ') || 'trigger';
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function short(commit: unknown): string {
  return typeof commit === 'string' && commit ? commit.slice(0, 7) : '(none)';
}

function count(n: unknown, noun: string): string {
  const value = Number(n ?? 0);
  return `${value} ${noun}${value === 1 ? '' : 's'}`;
}

function duration(ms: unknown): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '';
  return ms < 1000 ? ` (${Math.round(ms)} ms)` : ` (${(ms / 1000).toFixed(1)} s)`;
}

/** `--log-format` as given, or its default: text for a person at a terminal, JSON lines for anything else. */
export function chooseLogFormat(given: string | undefined, stdoutIsTerminal: boolean): LogFormat {
  if (given === undefined) return stdoutIsTerminal ? 'text' : 'json';
  if (!(LOG_FORMATS as readonly string[]).includes(given))
    throw new UsageError(
      `--log-format ${given}: use text (progress lines, the default on a terminal) or json (one JSON object a line, the default otherwise)`,
    );
  return given as LogFormat;
}
