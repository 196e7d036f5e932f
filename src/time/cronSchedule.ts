/**
 * The cron schedules of CronFederatedHPA rules. Karmada runs each rule with gocron's `Cron(schedule)` in the
 * rule's time zone (pkg/controllers/cronfederatedhpa/cronfederatedhpa_handler.go), which parses with robfig/cron's
 * standard parser: five fields (minute hour day-of-month month day-of-week), `*`, `?`, lists, ranges, steps,
 * month and weekday names, and the descriptors @yearly @annually @monthly @weekly @daily @midnight @hourly.
 * Day-of-month and day-of-week combine with OR when both are restricted, as in robfig/cron. Time zones go
 * through tzdata names (time/tzdataNames.ts) and are computed with Intl. Pure: times are ms since the epoch.
 */
import { TZDATA_NAMES } from './tzdataNames.ts';

export interface CronSchedule {
  minutes: Set<number>;
  hours: Set<number>;
  daysOfMonth: Set<number>;
  months: Set<number>;
  daysOfWeek: Set<number>;
  /** A field written as `*` or `?`: robfig's starBit, which turns the day OR into an AND. */
  domStar: boolean;
  dowStar: boolean;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

function parseValue(text: string, names: string[] | undefined, offset: number): number | undefined {
  const named = names?.indexOf(text.toLowerCase());
  if (named !== undefined && named >= 0) return named + offset;
  // robfig/cron reads numbers with Go's strconv.Atoi, which takes a leading "+" (a "-" splits a range first).
  if (!/^\+?\d+$/.test(text)) return undefined;
  return Number(text);
}

function parseField(
  text: string,
  min: number,
  max: number,
  names?: string[],
  offset = 0,
): { values: Set<number>; star: boolean } | string {
  const values = new Set<number>();
  let star = false;
  for (const part of text.split(',')) {
    const [range, stepText, ...rest] = part.split('/');
    if (rest.length > 0 || range === undefined) return `"${part}": more than one "/"`;
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\+?\d+$/.test(stepText) || Number(stepText) === 0) return `"${part}": the step must be a positive number`;
      step = Number(stepText);
    }
    let from: number;
    let to: number;
    if (range === '*' || range === '?') {
      [from, to] = [min, max];
      // robfig/cron's getRange clears the star bit only for a step above 1: `*/1` is still `*`.
      if (step === 1) star = true;
    } else {
      const [a, b, ...more] = range.split('-');
      if (more.length > 0 || a === undefined) return `"${part}": more than one "-"`;
      const start = parseValue(a, names, offset);
      const end = b === undefined ? start : parseValue(b, names, offset);
      if (start === undefined || end === undefined) return `"${part}": not a number${names ? ' or name' : ''}`;
      // A single value with a step runs to the end of the range, as in robfig/cron.
      [from, to] = [start, b === undefined && stepText !== undefined ? max : end];
    }
    if (from < min || to > max) return `"${part}": out of range ${min}-${max}`;
    if (from > to) return `"${part}": the range starts after it ends`;
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return { values, star };
}

/** The schedule, or why it is not one (robfig/cron's messages are Go's; these say which field). */
export function parseCronSchedule(text: string): CronSchedule | { error: string } {
  const trimmed = text.trim();
  // robfig/cron matches descriptors as written: "@Daily" is no descriptor to it.
  const expanded = DESCRIPTORS[trimmed] ?? trimmed;
  if (expanded.startsWith('@')) return { error: `unrecognized descriptor "${trimmed}"` };
  const fields = expanded.split(/\s+/);
  if (fields.length !== 5) return { error: `expected exactly 5 fields, found ${fields.length}: "${trimmed}"` };
  const [m, h, dom, mon, dow] = fields as [string, string, string, string, string];
  const parsed = [
    ['minute', parseField(m, 0, 59)],
    ['hour', parseField(h, 0, 23)],
    ['day of month', parseField(dom, 1, 31)],
    ['month', parseField(mon, 1, 12, MONTHS, 1)],
    ['day of week', parseField(dow, 0, 6, DAYS, 0)],
  ] as const;
  for (const [name, result] of parsed) if (typeof result === 'string') return { error: `${name} ${result}` };
  const [minutes, hours, days, months, weekdays] = parsed.map(([, r]) => r as { values: Set<number>; star: boolean });
  return {
    minutes: minutes!.values,
    hours: hours!.values,
    daysOfMonth: days!.values,
    months: months!.values,
    daysOfWeek: weekdays!.values,
    domStar: days!.star,
    dowStar: weekdays!.star,
  };
}

/** Whether `timeZone` names a zone as Go's time.LoadLocation reads it, which Karmada validates with. */
export function isTimeZone(timeZone: string): boolean {
  return intlTimeZone(timeZone) !== undefined;
}

/**
 * The zone Intl computes times in for a name Go's time.LoadLocation takes, else undefined. "" and "UTC" are UTC to Go
 * before any lookup, "Local" is the controller's own zone, which is UTC in Karmada's images, and here; any other name
 * must be a tzdata name as written (Intl would take "PST" or "us/eastern", which Go refuses). Factory, tzdata's zone
 * for machines not set up yet, is UTC with no abbreviation, and unknown to Intl.
 */
export function intlTimeZone(timeZone: string): string | undefined {
  if (timeZone === 'Local' || timeZone === '' || timeZone === 'UTC' || timeZone === 'Factory') return 'UTC';
  if (!TZDATA_NAMES.has(timeZone)) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    // A zone newer than this Node's ICU: no way to compute its times here.
    return undefined;
  }
  return timeZone;
}

interface LocalTime {
  minute: number;
  hour: number;
  day: number;
  month: number;
  weekday: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function localTime(at: number, timeZone: string): LocalTime {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      minute: 'numeric',
      hour: 'numeric',
      day: 'numeric',
      month: 'numeric',
      weekday: 'short',
    });
    formats.set(timeZone, format);
  }
  const parts: Record<string, string> = {};
  for (const p of format.formatToParts(at)) parts[p.type] = p.value;
  return {
    minute: Number(parts.minute),
    hour: Number(parts.hour),
    day: Number(parts.day),
    month: Number(parts.month),
    weekday: DAYS.indexOf((parts.weekday ?? '').toLowerCase()),
  };
}

function dayMatches(s: CronSchedule, t: LocalTime): boolean {
  const dom = s.daysOfMonth.has(t.day);
  const dow = s.daysOfWeek.has(t.weekday);
  return s.domStar || s.dowStar ? dom && dow : dom || dow;
}

const MINUTE = 60_000;

/**
 * The first minute strictly after `after` at which the schedule fires in `timeZone`, searching at most
 * `horizonMs` ahead (default 5 years, as robfig/cron gives up); undefined when none.
 */
export function nextCronRun(
  s: CronSchedule,
  after: number,
  timeZone = 'UTC',
  horizonMs = 5 * 366 * 24 * 3600 * 1000,
): number | undefined {
  const end = after + horizonMs;
  let at = Math.floor(after / MINUTE) * MINUTE + MINUTE;
  while (at <= end) {
    const t = localTime(at, timeZone);
    if (t.hour < 23 && (!s.months.has(t.month) || !dayMatches(s, t))) {
      // A day that cannot fire is left at its local 23:00 (on a day with a DST jump, an hour early or late), and its
      // last hour stepped below: a schedule that never fires (Feb 30) costs days, not hours, over the horizon.
      at += ((23 - t.hour) * 60 - t.minute) * MINUTE;
      continue;
    }
    if (!s.months.has(t.month) || !dayMatches(s, t) || !s.hours.has(t.hour)) {
      // Hour by hour: zones are whole or half hours off UTC at minute granularity below, so the next local hour
      // starts at most (60 - minute) minutes on; a DST jump is then seen by the next check, never skipped.
      at += (60 - t.minute) * MINUTE;
      continue;
    }
    if (s.minutes.has(t.minute)) return at;
    at += MINUTE;
  }
  return undefined;
}

/** The latest minute in (from, to] at which the schedule fires: what a reconciler pass that last ran at `from` missed. */
export function lastCronRunBetween(s: CronSchedule, from: number, to: number, timeZone = 'UTC'): number | undefined {
  let last: number | undefined;
  let at = from;
  for (;;) {
    const next = nextCronRun(s, at, timeZone, to - at);
    if (next === undefined || next > to) return last;
    last = next;
    at = next;
  }
}

/**
 * Go's time.LoadLocation error for `name` (kube-apiserver embeds tzdata), or undefined when it loads: "" and "UTC"
 * are UTC and "Local" the process's zone before any lookup; a name with ".." or a leading slash is no file name.
 */
export function goLocationError(name: string): string | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return undefined;
  if (name.includes('..') || name.startsWith('/') || name.startsWith('\\')) return 'time: invalid location name';
  return name === 'Factory' || TZDATA_NAMES.has(name) ? undefined : `unknown time zone ${name}`;
}

/** Go's %q of a string: JSON's quoting, which agrees with Go's for the ASCII a schedule is written in. */
const goQuote = (text: string) => JSON.stringify(text);

/** strconv.Atoi's value, or its error. */
function goAtoi(text: string): bigint | string {
  if (!/^[+-]?\d+$/.test(text)) return `strconv.Atoi: parsing ${goQuote(text)}: invalid syntax`;
  const value = BigInt(text.replace(/^\+/, ''));
  return value > 2n ** 63n - 1n || value < -(2n ** 63n)
    ? `strconv.Atoi: parsing ${goQuote(text)}: value out of range`
    : value;
}

/** time.ParseDuration's error for `text`, or undefined when Go reads it as a duration. */
function goDurationError(text: string): string | undefined {
  const quoted = goQuote(text);
  let rest = text.replace(/^[-+]/, '');
  if (rest === '0') return undefined;
  if (rest === '') return `time: invalid duration ${quoted}`;
  while (rest !== '') {
    const number = /^(\d*)(\.(\d*))?/.exec(rest)!;
    if (number[1] === '' && (number[3] ?? '') === '') return `time: invalid duration ${quoted}`;
    rest = rest.slice(number[0].length);
    const unit = /^[^0-9.]*/.exec(rest)![0];
    if (unit === '') return `time: missing unit in duration ${quoted}`;
    if (!['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h'].includes(unit))
      return `time: unknown unit ${goQuote(unit)} in duration ${quoted}`;
    rest = rest.slice(unit.length);
  }
  return undefined;
}

const GO_DURATION_UNITS_NS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** time.ParseDuration's value in nanoseconds (as a float: a schedule's delay needs no more), or undefined. */
function goDurationNs(text: string): number | undefined {
  if (goDurationError(text) !== undefined) return undefined;
  const sign = text.startsWith('-') ? -1 : 1;
  let total = 0;
  for (const [, number, unit] of text.replace(/^[-+]/, '').matchAll(/([\d.]+)([^\d.]+)/g))
    total += Number(number) * GO_DURATION_UNITS_NS[unit!]!;
  return sign * total;
}

/**
 * robfig/cron's ConstantDelaySchedule for `@every <duration>`: its delay in milliseconds, truncated to whole
 * seconds and at least one (Every's rounding); undefined for any other schedule.
 */
export function everyDelayMs(spec: string): number | undefined {
  if (!spec.startsWith('@every ')) return undefined;
  const ns = goDurationNs(spec.slice('@every '.length));
  if (ns === undefined) return undefined;
  return Math.max(1000, Math.floor(ns / 1e9) * 1000);
}

/**
 * The latest run of a ConstantDelaySchedule in (from, to]: Next(t) is t truncated to the second plus the delay, so
 * the runs are the first one after `from` and every delay on.
 */
export function lastEveryRunBetween(delayMs: number, from: number, to: number): number | undefined {
  const first = Math.floor(from / 1000) * 1000 + delayMs;
  if (first > to) return undefined;
  return first + Math.floor((to - first) / delayMs) * delayMs;
}

const ROBFIG_FIELDS: { min: number; max: number; names?: string[]; offset?: number }[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS, offset: 1 },
  { min: 0, max: 6, names: DAYS, offset: 0 },
];

/** robfig/cron's getRange error for one comma-separated part of a field. */
function robfigRangeError(expr: string, field: (typeof ROBFIG_FIELDS)[number]): string | undefined {
  const parseNumber = (text: string): bigint | string => {
    const value = goAtoi(text);
    if (typeof value === 'string') return `failed to parse int from ${text}: ${value}`;
    return value < 0n ? `negative number (${value}) not allowed: ${text}` : value;
  };
  const parseIntOrName = (text: string): bigint | string => {
    const named = field.names?.indexOf(text.toLowerCase()) ?? -1;
    return named >= 0 ? BigInt(named + (field.offset ?? 0)) : parseNumber(text);
  };
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: bigint;
  let end: bigint;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    [start, end] = [BigInt(field.min), BigInt(field.max)];
  } else {
    const low = parseIntOrName(lowAndHigh[0]!);
    if (typeof low === 'string') return low;
    start = low;
    if (lowAndHigh.length > 2) return `too many hyphens: ${expr}`;
    const high = lowAndHigh.length === 2 ? parseIntOrName(lowAndHigh[1]!) : low;
    if (typeof high === 'string') return high;
    end = high;
  }
  let step = 1n;
  if (rangeAndStep.length > 2) return `too many slashes: ${expr}`;
  if (rangeAndStep.length === 2) {
    const parsed = parseNumber(rangeAndStep[1]!);
    if (typeof parsed === 'string') return parsed;
    step = parsed;
    if (lowAndHigh.length === 1) end = BigInt(field.max);
  }
  if (start < field.min) return `beginning of range (${start}) below minimum (${field.min}): ${expr}`;
  if (end > field.max) return `end of range (${end}) above maximum (${field.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  if (step === 0n) return `step of range should be a positive number: ${expr}`;
  return undefined;
}

/**
 * robfig/cron v3's ParseStandard error for `spec`, in its words (kube-apiserver's CronJob validation quotes it), or
 * undefined when it parses. It takes what parseCronSchedule does not run: a `TZ=`/`CRON_TZ=` prefix and `@every`.
 */
export function robfigScheduleError(spec: string): string | undefined {
  if (spec.length === 0) return 'empty spec string';
  let rest = spec;
  if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
    const space = rest.indexOf(' ');
    // Go slices spec[eq+1:-1] there and panics; the location is then everything after the "=".
    const location = rest.slice(rest.indexOf('=') + 1, space < 0 ? undefined : space);
    const error = goLocationError(location);
    if (error) return `provided bad location ${location}: ${error}`;
    rest = space < 0 ? '' : rest.slice(space).trim();
  }
  if (rest.startsWith('@')) {
    if (DESCRIPTORS[rest]) return undefined;
    if (rest.startsWith('@every ')) {
      const error = goDurationError(rest.slice('@every '.length));
      return error ? `failed to parse duration ${rest}: ${error}` : undefined;
    }
    return `unrecognized descriptor: ${rest}`;
  }
  const fields = rest.split(/\s+/).filter(Boolean);
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  for (const [i, text] of fields.entries())
    for (const expr of text.split(',').filter(Boolean)) {
      const error = robfigRangeError(expr, ROBFIG_FIELDS[i]!);
      if (error) return error;
    }
  return undefined;
}
