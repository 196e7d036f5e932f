import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { MemberHarness, waitFor } from './helpers/memberHarness.ts';

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
