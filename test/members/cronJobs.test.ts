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

const cronJob = (name: string, spec: string) => `apiVersion: batch/v1
kind: CronJob
metadata: {name: ${name}}
spec:
${spec}
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: c, image: busybox}]
`;

test('a CronJob scheduled @every <duration> runs at that fixed interval from its creation', async () => {
  const applied = await kubectl(['apply', '-f', '-'], cronJob('interval', '  schedule: "@every 2m"'));
  assert.is(applied.code, 0, applied.stderr);
  const created = Date.parse(
    (await kubectl(['get', 'cronjob', 'interval', '-o', 'jsonpath={.metadata.creationTimestamp}'])).stdout,
  );
  await member.faults.set({ clockSkewMs: 5 * 60_000 });
  const last = await waitFor('a run of the interval', async () => {
    const out = (await kubectl(['get', 'cronjob', 'interval', '-o', 'jsonpath={.status.lastScheduleTime}'])).stdout;
    return out === '' ? undefined : Date.parse(out);
  });
  await member.faults.set({ clockSkewMs: 0 });
  // Only the latest missed run is made: two intervals after creation, the last one before the clock's five minutes.
  assert.is(last - created, 4 * 60_000);
  const jobs = await kubectl(['get', 'jobs', '-o', 'jsonpath={.items[*].metadata.annotations}']);
  assert.ok(jobs.stdout.includes(new Date(last).toISOString().replace('.000', '')), jobs.stdout);
  assert.is((await kubectl(['delete', 'cronjob', 'interval'])).code, 0);
});

test('a CronJob time zone is a tzdata name Go loads, as kube-apiserver validates it, so the controller only runs real zones', async () => {
  const refusals: [string, string][] = [
    ['Mars/Olympus', 'spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus'],
    ['PST', 'spec.timeZone: Invalid value: "PST": unknown time zone PST'],
    ['""', 'spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string'],
    [
      'Local',
      'spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
    ],
    ['Europe/../etc', 'spec.timeZone: Invalid value: "Europe/../etc": unknown time zone Europe/../etc'],
  ];
  for (const [zone, message] of refusals) {
    const applied = await kubectl(
      ['apply', '-f', '-'],
      cronJob('zoned', `  schedule: "0 * * * *"\n  timeZone: ${zone}`),
    );
    assert.is(applied.code, 1, zone);
    assert.is(applied.stderr.trim(), `The CronJob "zoned" is invalid: ${message}`);
  }
  const accepted = await kubectl(
    ['apply', '-f', '-'],
    cronJob('zoned', '  schedule: "0 * * * *"\n  timeZone: US/Pacific'),
  );
  assert.is(accepted.code, 0, accepted.stderr);
  await kubectl(['delete', 'cronjob', 'zoned']);
});

test("a CronJob's schedule, policies, limits, job template and name are refused in kube-apiserver's words", async () => {
  const cases: [string, string, string][] = [
    [
      'sched',
      '  schedule: "0 0 * *"',
      'spec.schedule: Invalid value: "0 0 * *": expected exactly 5 fields, found 4: [0 0 * *]',
    ],
    [
      'sched',
      '  schedule: "*/0 * * * *"',
      'spec.schedule: Invalid value: "*/0 * * * *": step of range should be a positive number: */0',
    ],
    [
      'sched',
      '  schedule: "TZ=UTC 0 * * * *"',
      'spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    ],
    [
      'limits',
      '  schedule: "@daily"\n  startingDeadlineSeconds: -5\n  concurrencyPolicy: Sometimes\n  failedJobsHistoryLimit: -1',
      '\n* spec.startingDeadlineSeconds: Invalid value: -5: must be greater than or equal to 0\n* spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"\n* spec.failedJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
    ],
    [
      'a'.repeat(53),
      '  schedule: "@hourly"',
      `metadata.name: Invalid value: "${'a'.repeat(53)}": must be no more than 52 characters`,
    ],
  ];
  for (const [name, spec, message] of cases) {
    const applied = await kubectl(['apply', '-f', '-'], cronJob(name, spec));
    assert.is(applied.code, 1, spec);
    assert.is(applied.stderr.trim(), `The CronJob "${name}" is invalid: ${message}`);
  }
  const template = cronJob('tmpl', '  schedule: "@every 90s"')
    .replace(
      '    spec:\n      template:',
      '    spec:\n      backoffLimit: -1\n      manualSelector: true\n      template:',
    )
    .replace('restartPolicy: Never', 'restartPolicy: Always');
  const refused = await kubectl(['apply', '-f', '-'], template);
  assert.is(
    refused.stderr.trim(),
    'The CronJob "tmpl" is invalid: \n* spec.jobTemplate.spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0\n* spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"\n* spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
  );
});

test('a Job is refused as kube-apiserver refuses it: counts, indexed-only fields, restart policy, pod failure policy', async () => {
  const job = `apiVersion: batch/v1
kind: Job
metadata: {name: bad}
spec:
  parallelism: -1
  backoffLimitPerIndex: 1
  podFailurePolicy:
    rules:
    - action: FailIndex
      onExitCodes: {operator: In, values: [3, 0, 3]}
  template:
    spec:
      restartPolicy: OnFailure
      containers: [{name: c, image: busybox}]
`;
  const refused = await kubectl(['apply', '-f', '-'], job);
  assert.is(
    refused.stderr.trim(),
    [
      'The Job "bad" is invalid: ',
      '* spec.parallelism: Invalid value: -1: must be greater than or equal to 0',
      '* spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode',
      '* spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator',
      '* spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3',
      '* spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{3, 0, 3}: must be ordered',
      '* spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
    ].join('\n'),
  );
  const selected = await kubectl(
    ['apply', '-f', '-'],
    job
      .replace(/ {2}parallelism[\s\S]*? {2}template:\n/, '  selector: {matchLabels: {app: x}}\n  template:\n')
      .replace('restartPolicy: OnFailure', 'restartPolicy: Never'),
  );
  assert.match(
    selected.stderr,
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"x", "batch.kubernetes.io/controller-uid":',
  );
  assert.match(selected.stderr, '`selector` not auto-generated');
  const created = await kubectl(['create', 'job', 'fine', '--image=busybox']);
  assert.is(created.code, 0, created.stderr);
});

test("a Job update changes only what ValidateJobSpecUpdate lets it: an Indexed Job's completions with its parallelism, a suspended Job's scheduling", async () => {
  const job = (name: string, spec: string, pod = '') => `apiVersion: batch/v1
kind: Job
metadata: {name: ${name}}
spec:
${spec}
  template:
    metadata: {labels: {tier: batch}}
    spec:
      restartPolicy: Never
${pod}      containers: [{name: c, image: busybox}]
`;
  const apply = (yaml: string) => kubectl(['apply', '-f', '-'], yaml);
  const indexed = '  completionMode: Indexed\n  backoffLimitPerIndex: 1\n  suspend: true';
  assert.is((await apply(job('elastic', `  completions: 3\n  parallelism: 3\n${indexed}`))).code, 0);
  const scaled = await apply(job('elastic', `  completions: 4\n  parallelism: 4\n${indexed}`));
  assert.is(scaled.code, 0, scaled.stderr);
  const alone = await apply(job('elastic', `  completions: 5\n  parallelism: 4\n${indexed}`));
  assert.is(
    alone.stderr.trim(),
    'The Job "elastic" is invalid: spec.completions: Invalid value: 5: can only be modified in tandem with spec.parallelism',
  );
  const changed = await apply(
    job(
      'elastic',
      '  completions: 4\n  parallelism: 4\n  completionMode: Indexed\n  backoffLimitPerIndex: 2\n  suspend: true\n  managedBy: example.com/queue\n  successPolicy:\n    rules: [{succeededCount: 1}]',
    ),
  );
  assert.is(
    changed.stderr.trim(),
    'The Job "elastic" is invalid: \n* spec.backoffLimitPerIndex: Invalid value: 2: field is immutable\n* spec.managedBy: Invalid value: "example.com/queue": field is immutable\n* spec.successPolicy: Invalid value: batch.SuccessPolicy{...}: field is immutable',
  );
  // Suspended and never started: where it runs may change, what it runs may not.
  const placed = await apply(
    job('elastic', `  completions: 4\n  parallelism: 4\n${indexed}`, '      nodeSelector: {disk: ssd}\n'),
  );
  assert.is(placed.code, 0, placed.stderr);
  const image = await apply(
    job('elastic', `  completions: 4\n  parallelism: 4\n${indexed}`, '').replace('busybox', 'busybox:1.37'),
  );
  assert.is(
    image.stderr.trim(),
    'The Job "elastic" is invalid: spec.template: Invalid value: core.PodTemplateSpec{...}: field is immutable',
  );
  const counted = await apply(job('counted', '  completions: 2\n  suspend: true'));
  assert.is(counted.code, 0, counted.stderr);
  const recounted = await apply(job('counted', '  completions: 3\n  parallelism: 3\n  suspend: true'));
  assert.is(
    recounted.stderr.trim(),
    'The Job "counted" is invalid: spec.completions: Invalid value: 3: field is immutable',
  );
});

test.run();
