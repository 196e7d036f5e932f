import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  everyDelayMs,
  lastEveryRunBetween,
  type CronSchedule,
  robfigScheduleError,
  intlTimeZone,
  isTimeZone,
  lastCronRunBetween,
  nextCronRun,
  parseCronSchedule,
} from '../../src/time/cronSchedule.ts';

const parse = (text: string): CronSchedule => {
  const s = parseCronSchedule(text);
  if ('error' in s) throw new Error(s.error);
  return s;
};
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const at = (text: string) => Date.parse(text);

test('five fields with lists, ranges, steps and names; descriptors expand', () => {
  const s = parse('*/15 9-17 * JAN,jul mon-fri');
  assert.equal([...s.minutes], [0, 15, 30, 45]);
  assert.equal([...s.hours], [9, 10, 11, 12, 13, 14, 15, 16, 17]);
  assert.equal([...s.months], [1, 7]);
  assert.equal([...s.daysOfWeek], [1, 2, 3, 4, 5]);
  assert.equal([...parse('5/20 * * * *').minutes], [5, 25, 45], 'a single value with a step runs to the end');
  assert.equal(parse('@hourly'), parse('0 * * * *'));
  assert.equal(parse('@daily'), parse('0 0 * * ?'));
});

test('a schedule that is not one says which field is wrong', () => {
  assert.equal(parseCronSchedule('* * * *'), { error: 'expected exactly 5 fields, found 4: "* * * *"' });
  assert.equal(parseCronSchedule('60 * * * *'), { error: 'minute "60": out of range 0-59' });
  assert.equal(parseCronSchedule('* * * foo *'), { error: 'month "foo": not a number or name' });
  assert.equal(parseCronSchedule('*/0 * * * *'), { error: 'minute "*/0": the step must be a positive number' });
  assert.equal(parseCronSchedule('@often'), { error: 'unrecognized descriptor "@often"' });
});

test('schedules read as robfig/cron reads them: descriptors in lower case only, numbers with a leading +', () => {
  // robfig/cron v3 parser.go: parseDescriptor compares the spec with "@daily" etc. as written; mustParseInt is
  // strconv.Atoi, which takes "+5".
  assert.equal(parseCronSchedule('@DAILY'), { error: 'unrecognized descriptor "@DAILY"' });
  assert.equal(parseCronSchedule('@Hourly'), { error: 'unrecognized descriptor "@Hourly"' });
  assert.equal(parse('+5 +9-17/+4 * * *'), parse('5 9-17/4 * * *'));
});

test('next run is the first matching minute strictly after, in UTC by default', () => {
  const s = parse('30 8 * * *');
  assert.is(iso(nextCronRun(s, at('2026-12-01T08:00:00Z'))), '2026-12-01T08:30:00.000Z');
  assert.is(iso(nextCronRun(s, at('2026-12-01T08:30:00Z'))), '2026-12-02T08:30:00.000Z');
  assert.is(iso(nextCronRun(parse('*/1 * * * *'), at('2026-12-01T08:00:59.999Z'))), '2026-12-01T08:01:00.000Z');
});

test('timeZone: the schedule is read in the rule zone, across daylight saving', () => {
  const s = parse('0 9 * * *');
  // Shanghai is UTC+8 all year: 00:00Z is 08:00 there.
  assert.is(iso(nextCronRun(s, at('2026-12-01T00:00:00Z'), 'Asia/Shanghai')), '2026-12-01T01:00:00.000Z');
  // New York: EST (UTC-5) in winter, EDT (UTC-4) after 8 March 2026.
  assert.is(iso(nextCronRun(s, at('2026-03-07T00:00:00Z'), 'America/New_York')), '2026-03-07T14:00:00.000Z');
  assert.is(iso(nextCronRun(s, at('2026-03-08T00:00:00Z'), 'America/New_York')), '2026-03-08T13:00:00.000Z');
  // Half-hour zone.
  assert.is(iso(nextCronRun(s, at('2026-12-01T00:00:00Z'), 'Asia/Kolkata')), '2026-12-01T03:30:00.000Z');
  assert.ok(isTimeZone('Europe/Berlin'));
  assert.not.ok(isTimeZone('Mars/Olympus'));
  // Rules run in a tzdata zone as Go finds it; Factory, unknown to Intl, is UTC, and a name only ICU knows is none.
  assert.is(intlTimeZone('Factory'), 'UTC');
  assert.is(intlTimeZone('US/Eastern'), 'US/Eastern');
  assert.is(intlTimeZone('PST'), undefined);
});

test('day of month and day of week: OR when both are restricted, AND when one is *', () => {
  // 1 December 2026 is a Tuesday.
  const either = parse('0 0 15 * mon');
  assert.is(iso(nextCronRun(either, at('2026-12-01T00:00:00Z'))), '2026-12-07T00:00:00.000Z');
  const mondays = parse('0 0 * * mon');
  assert.is(iso(nextCronRun(mondays, at('2026-12-01T00:00:00Z'))), '2026-12-07T00:00:00.000Z');
  const fifteenth = parse('0 0 15 * *');
  assert.is(iso(nextCronRun(fifteenth, at('2026-12-01T00:00:00Z'))), '2026-12-15T00:00:00.000Z');
  assert.is(nextCronRun(parse('0 0 31 2 *'), at('2026-12-01T00:00:00Z')), undefined, 'never fires');
  // robfig/cron keeps the star of `*/1` (and `?/1`), so the AND still holds; `*/2` is a restriction, so OR.
  assert.is(iso(nextCronRun(parse('0 0 */1 * mon'), at('2026-12-01T00:00:00Z'))), '2026-12-07T00:00:00.000Z');
  assert.is(iso(nextCronRun(parse('0 0 15 * ?/1'), at('2026-12-01T00:00:00Z'))), '2026-12-15T00:00:00.000Z');
  assert.is(iso(nextCronRun(parse('0 0 */2 * mon'), at('2026-12-01T00:00:00Z'))), '2026-12-03T00:00:00.000Z');
});

test('the latest run a pass missed between two times', () => {
  const s = parse('*/5 * * * *');
  assert.is(
    iso(lastCronRunBetween(s, at('2026-12-01T08:01:00Z'), at('2026-12-01T08:17:00Z'))),
    '2026-12-01T08:15:00.000Z',
  );
  assert.is(lastCronRunBetween(s, at('2026-12-01T08:01:00Z'), at('2026-12-01T08:04:59Z')), undefined);
  assert.is(
    iso(lastCronRunBetween(s, at('2026-12-01T08:00:00Z'), at('2026-12-01T08:05:00Z'))),
    '2026-12-01T08:05:00.000Z',
  );
});

test('skipping days that cannot fire finds the same runs as a minute-by-minute search, across daylight saving', () => {
  // The reference walks every minute, reading the local time with Intl: slow, but obviously right.
  const reference = (s: CronSchedule, after: number, timeZone: string, horizon: number): number | undefined => {
    const fmt = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      month: 'numeric',
      day: 'numeric',
      weekday: 'short',
      hour: 'numeric',
      minute: 'numeric',
    });
    const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
    for (let t = Math.floor(after / 60_000) * 60_000 + 60_000; t <= after + horizon; t += 60_000) {
      const p = Object.fromEntries(fmt.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
      const dom = Number(p.day);
      const dow = days.indexOf(p.weekday!);
      const domOk = s.daysOfMonth.has(dom);
      const dowOk = s.daysOfWeek.has(dow);
      const dayOk = s.domStar || s.dowStar ? domOk && dowOk : domOk || dowOk;
      if (s.months.has(Number(p.month)) && dayOk && s.hours.has(Number(p.hour)) && s.minutes.has(Number(p.minute)))
        return t;
    }
    return undefined;
  };
  // Days around each zone's 2026 transitions: New York and Havana (at local midnight) on 8 March, Berlin on 29 March
  // and 25 October, Lord Howe (half an hour) on 5 April.
  const horizon = 4 * 24 * 3600_000;
  for (const zone of ['Europe/Berlin', 'America/New_York', 'America/Havana', 'Australia/Lord_Howe']) {
    for (const schedule of ['30 0 * * *', '0 23 * * *', '15 2 * * sun', '30 2 8,29 3 *', '0 0 5,25 * *']) {
      for (const from of [
        '2026-03-06T10:17:00Z',
        '2026-03-27T21:00:00Z',
        '2026-04-03T12:00:00Z',
        '2026-10-23T23:59:00Z',
      ]) {
        const s = parse(schedule);
        const got = nextCronRun(s, at(from), zone, horizon);
        assert.is(iso(got), iso(reference(s, at(from), zone, horizon)), `${schedule} in ${zone} after ${from}`);
      }
    }
  }
});

test('a schedule that never fires ends at the horizon with no run', () => {
  assert.is(nextCronRun(parse('0 0 30 2 *'), at('2026-01-01T00:00:00Z'), 'Europe/Berlin'), undefined);
});

test("robfig/cron's standard parser errors, word for word, which kube-apiserver quotes for a CronJob schedule", () => {
  const cases: [string, string | undefined][] = [
    ['', 'empty spec string'],
    ['@every 1h30m', undefined],
    ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
    ['@Daily', 'unrecognized descriptor: @Daily'],
    [' @daily', 'expected exactly 5 fields, found 1: [@daily]'],
    ['TZ=Mars/X 0 * * * *', 'provided bad location Mars/X: unknown time zone Mars/X'],
    ['CRON_TZ=Europe/Paris 0 * * * *', undefined],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['*/-1 * * * *', 'negative number (-1) not allowed: -1'],
    ['a * * * *', 'failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['5-3 * * * *', 'beginning of range (5) beyond end of range (3): 5-3'],
    ['0 0 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['0 0 * JAN-mar MON', undefined],
    ['*-5 , * * *', undefined],
  ];
  for (const [spec, error] of cases) assert.is(robfigScheduleError(spec), error, spec);
});

test("an @every schedule is robfig/cron's ConstantDelaySchedule: whole seconds, at least one, from the second", () => {
  for (const [spec, delay] of [
    ['@every 90s', 90_000],
    ['@every 1h30m', 5_400_000],
    ['@every 2m30.9s', 150_000],
    ['@every 500ms', 1000],
    ['@every -5m', 1000],
    ['@every 5', undefined],
    ['*/5 * * * *', undefined],
  ] as const)
    assert.is(everyDelayMs(spec), delay, spec);
  // From 1.5 s: the runs are at 91 s, 181 s, ...
  assert.is(lastEveryRunBetween(90_000, 1500, 90_999), undefined);
  assert.is(lastEveryRunBetween(90_000, 1500, 91_000), 91_000);
  assert.is(lastEveryRunBetween(90_000, 1500, 270_999), 181_000);
});

test.run();
