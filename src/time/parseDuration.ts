const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * `--resync 5m`-style durations as Go and Flux write them (`90s`, `1h30m`, `250ms`; a bare `0` disables).
 * Returns milliseconds, or an Error whose message says what to write instead.
 */
export function parseDuration(text: string): number | Error {
  const trimmed = text.trim();
  if (trimmed === '0') return 0;
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== trimmed) {
    return new Error(`"${text}" is not a duration; write it like 30s, 5m, 1h30m or 0 (off)`);
  }
  return Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * UNITS[p[2]!]!, 0));
}
