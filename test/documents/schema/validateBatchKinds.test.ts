// Job and CronJob templates that Karmada's API server, a kube-apiserver, refuses: each a located INVALID_VALUE.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateBatchKinds } from '../../../src/documents/schema/validateBatchKinds.ts';

const cronJob = (spec: Record<string, unknown>) => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name: 'nightly' },
  spec: {
    schedule: '0 3 * * *',
    ...spec,
    jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } } } },
  },
});

test('a CronJob template with a well-formed schedule, a tzdata zone and no concurrencyPolicy (defaulted) passes', () => {
  assert.equal(validateBatchKinds(cronJob({ timeZone: 'Europe/Paris' })), []);
});

test('a CronJob template whose time zone or schedule kube-apiserver refuses is an issue at that field', () => {
  const issues = validateBatchKinds(cronJob({ timeZone: 'Mars/Olympus', schedule: '0 3 * *' }));
  assert.equal(
    issues.map((i) => [i.path.join('.'), i.message]),
    [
      [
        'spec.schedule',
        'kube-apiserver refuses this field: spec.schedule: Invalid value: "0 3 * *": expected exactly 5 fields, found 4: [0 3 * *]',
      ],
      [
        'spec.timeZone',
        'kube-apiserver refuses this field: spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus',
      ],
    ],
  );
  assert.match(issues[1]!.fix, 'tzdata name');
});

test('a Job template with a selector of its own and no manualSelector is refused, as the selector is generated', () => {
  const issues = validateBatchKinds({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'migrate' },
    spec: {
      selector: { matchLabels: { app: 'migrate' } },
      template: {
        metadata: { labels: { app: 'migrate' } },
        spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] },
      },
    },
  });
  assert.equal(
    issues.map((i) => i.path.join('.')),
    ['spec.selector'],
  );
  assert.match(issues[0]!.message, '`selector` not auto-generated');
});

test('a manual Job selector is held to ValidateLabelSelector, and one that does not parse is matched against nothing', () => {
  const job = (selector: unknown) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'migrate' },
    spec: {
      manualSelector: true,
      selector,
      template: {
        metadata: { labels: { app: 'migrate' } },
        spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] },
      },
    },
  });
  assert.equal(validateBatchKinds(job({ matchLabels: { app: 'migrate' } })), []);
  assert.equal(
    validateBatchKinds(job({ matchExpressions: [{ key: 'app', operator: 'in', values: ['migrate'] }] })).map(
      (i) => i.message,
    ),
    [
      'kube-apiserver refuses this field: spec.selector.matchExpressions[0].operator: Invalid value: "in": not a valid selector operator',
    ],
  );
  assert.equal(
    validateBatchKinds(job(undefined)).map((i) => i.message),
    ['kube-apiserver refuses this field: spec.selector: Required value'],
  );
});

test.run();
