import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cronMatches, latestRun, parseCronSchedule } from '../../src/members/controllers/cronSchedule.ts';
import type { Member } from '../../src/members/startMember.ts';
import { MemberHarness, waitFor } from './helpers/memberHarness.ts';

const at = (text: string) => Date.parse(text);

test('schedules read as the cronjob controller reads them: steps, ranges, names, macros, the day-field rule', () => {
  const every15 = parseCronSchedule('*/15 9-17 * * mon-fri')!;
  assert.ok(cronMatches(every15, at('2026-12-01T09:45:00Z')), 'a Tuesday');
  assert.not.ok(cronMatches(every15, at('2026-12-01T09:50:00Z')));
  assert.not.ok(cronMatches(every15, at('2026-12-06T09:45:00Z')), 'a Sunday');
  assert.ok(cronMatches(parseCronSchedule('@daily')!, at('2026-12-01T00:00:00Z')));
  // Both day fields restricted: either matches (the 1st, or any Monday); one a star: both must.
  const either = parseCronSchedule('0 0 1 * 1')!;
  assert.ok(cronMatches(either, at('2026-12-07T00:00:00Z')), 'a Monday, not the 1st');
  assert.ok(cronMatches(parseCronSchedule('0 0 * * 7')!, at('2026-12-06T00:00:00Z')), '7 is Sunday');
  assert.ok(cronMatches(parseCronSchedule('0 9 * * *')!, at('2026-12-01T08:00:00Z'), 'Europe/Berlin'));
  for (const bad of ['* * * *', '60 * * * *', '*/0 * * * *', 'not a schedule', '0 0 32 * *'])
    assert.is(parseCronSchedule(bad), undefined, bad);
  const hourly = parseCronSchedule('@hourly')!;
  assert.is(latestRun(hourly, at('2026-12-01T00:00:00Z'), at('2026-12-01T03:30:00Z')), at('2026-12-01T03:00:00Z'));
  assert.is(latestRun(hourly, at('2026-12-01T03:00:00Z'), at('2026-12-01T03:30:00Z')), undefined);
});

const harness = new MemberHarness();
let member: Member;
let kubectl: ReturnType<MemberHarness['kubectl']>;

test.before(async () => {
  member = await harness.start({ name: 'member1', readyDelayMs: 20 });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

test('a CronJob runs a Job at its scheduled minute of the member clock, records it, and keeps its history', async () => {
  const created = await kubectl(['create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/5 * * * *']);
  assert.is(created.code, 0, created.stderr);
  // Nothing is due yet; then the member's clock is moved past the next run and past another.
  for (const skewMinutes of [10, 20]) {
    await member.faults.set({ clockSkewMs: skewMinutes * 60_000 });
    await waitFor(`a run after ${skewMinutes} minutes`, async () => {
      const last = (await kubectl(['get', 'cronjob', 'tick', '-o', 'jsonpath={.status.lastScheduleTime}'])).stdout;
      return last !== '' && Date.parse(last) > Date.now() + (skewMinutes - 5) * 60_000;
    });
  }
  const jobs = (await kubectl(['get', 'jobs', '-o', 'jsonpath={.items[*].metadata.name}'])).stdout.split(' ');
  assert.is(jobs.length, 2, jobs.join(' '));
  for (const job of jobs) assert.match(job, /^tick-\d+$/);
  const owner = await kubectl(['get', 'job', jobs[0]!, '-o', 'jsonpath={.metadata.ownerReferences[0].kind}']);
  assert.is(owner.stdout, 'CronJob');
  await waitFor('both Jobs complete and the last success recorded', async () =>
    Boolean((await kubectl(['get', 'cronjob', 'tick', '-o', 'jsonpath={.status.lastSuccessfulTime}'])).stdout),
  );
  await member.faults.set({ clockSkewMs: 0 });
});

test.run();
