// A CronJob's schedule as kube-controller-manager reads it (robfig/cron's standard parser): five fields (minute, hour,
// day of month, month, day of week) of `*`, `?`, numbers, names (jan-dec, sun-sat), ranges, lists and `/steps`, or one
// of the @yearly/@monthly/@weekly/@daily/@hourly macros; in the CronJob's timeZone, UTC without one.

export interface CronSchedule {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** robfig's rule: with both day fields restricted, either may match; with one a `*`, both must. */
  dayStar: boolean;
  weekdayStar: boolean;
}

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The schedule, or undefined when it is not one (the API server refuses such a CronJob). */
export function parseCronSchedule(text: string): CronSchedule | undefined {
  const fields = (MACROS[text.trim()] ?? text).trim().split(/\s+/);
  if (fields.length !== 5) return undefined;
  const [m, h, dom, mon, dow] = fields as [string, string, string, string, string];
  const minutes = parseField(m, 0, 59);
  const hours = parseField(h, 0, 23);
  const days = parseField(dom, 1, 31);
  const months = parseField(mon, 1, 12, MONTHS, 1);
  const weekdays = parseField(dow, 0, 7, DAYS, 0);
  if (!minutes || !hours || !days || !months || !weekdays) return undefined;
  if (weekdays.delete(7)) weekdays.add(0);
  return {
    minutes,
    hours,
    days,
    months,
    weekdays,
    dayStar: dom === '*' || dom === '?',
    weekdayStar: dow === '*' || dow === '?',
  };
}

function parseField(
  text: string,
  min: number,
  max: number,
  names: readonly string[] = [],
  nameBase = 0,
): Set<number> | undefined {
  const out = new Set<number>();
  const value = (v: string) => {
    const named = names.indexOf(v.toLowerCase());
    if (named >= 0) return named + nameBase;
    return /^\d+$/.test(v) ? Number(v) : Number.NaN;
  };
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/') as [string, string | undefined];
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) return undefined;
    let lo: number;
    let hi: number;
    if (range === '*' || range === '?') [lo, hi] = [min, max];
    else if (range.includes('-')) {
      const [a, b] = range.split('-') as [string, string];
      [lo, hi] = [value(a), value(b)];
    } else {
      lo = value(range);
      hi = stepText === undefined ? lo : max;
    }
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < min || hi > max || lo > hi) return undefined;
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

/** Whether the minute starting at `ms` is one the schedule runs at, read in `timeZone` (UTC when undefined). */
export function cronMatches(schedule: CronSchedule, ms: number, timeZone?: string): boolean {
  const t = fieldsAt(ms, timeZone);
  if (!schedule.minutes.has(t.minute) || !schedule.hours.has(t.hour) || !schedule.months.has(t.month)) return false;
  const dom = schedule.days.has(t.day);
  const dow = schedule.weekdays.has(t.weekday);
  return schedule.dayStar || schedule.weekdayStar ? dom && dow : dom || dow;
}

/**
 * The latest minute in (after, upTo] the schedule runs at, or undefined; looked for over a year at most, as the
 * controller gives up on a CronJob that missed too many runs.
 */
export function latestRun(schedule: CronSchedule, after: number, upTo: number, timeZone?: string): number | undefined {
  const MINUTE = 60_000;
  const floor = Math.max(after, upTo - 366 * 24 * 60 * MINUTE);
  for (let t = Math.floor(upTo / MINUTE) * MINUTE; t > floor; t -= MINUTE)
    if (cronMatches(schedule, t, timeZone)) return t;
  return undefined;
}

function fieldsAt(ms: number, timeZone: string | undefined) {
  if (!timeZone || timeZone === 'UTC' || timeZone === 'Etc/UTC') {
    const d = new Date(ms);
    return {
      minute: d.getUTCMinutes(),
      hour: d.getUTCHours(),
      day: d.getUTCDate(),
      month: d.getUTCMonth() + 1,
      weekday: d.getUTCDay(),
    };
  }
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    minute: 'numeric',
    hour: 'numeric',
    day: 'numeric',
    month: 'numeric',
    weekday: 'short',
  }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    minute: Number(get('minute')),
    hour: Number(get('hour')),
    day: Number(get('day')),
    month: Number(get('month')),
    weekday: DAYS.indexOf(get('weekday').toLowerCase().slice(0, 3)),
  };
}
