// CronFederatedHPA, Karmada's cronfederatedhpa e2e cases the Git way: a rule on a Deployment sets its replicas at
// the scheduled minute, in the rule's time zone; a rule on a FederatedHPA sets its min and max, and the FederatedHPA
// brings the workload inside them. Each run is a status commit naming the rule and what it set, with the rule's
// history; the render divides the count. Emulated members, reconcileOnce with an injected clock (the minute passes
// without waiting for it).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { reconcileOnce } from '../../src/reconcile.ts';
import { clusterYaml, weightedPolicy } from '../helpers/fleet.ts';
import { startMemberFleet, type MemberFleet } from './helpers/e2e.ts';

let fleet: MemberFleet;
// 08:59:30 in Shanghai: the rules below run at 09:00 there.
let now = Date.parse('2026-12-01T00:59:30Z');

const deployment = (name: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata:
      labels: {app: ${name}}
      annotations: {emulator.flotilla.io/cpu-usage: 10m}
    spec:
      containers: [{name: ${name}, image: nginx, resources: {requests: {cpu: 100m}}}]
`;
const policy = (name: string) =>
  weightedPolicy(name, ['member1', 'member2']).replace(
    `metadata:\n  name: ${name}`,
    `metadata:\n  name: ${name}\n  namespace: default`,
  );
const CRON_ON_DEPLOYMENT = `apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: web-cron, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  rules:
    - {name: morning, schedule: "0 9 * * *", timeZone: Asia/Shanghai, targetReplicas: 4}
    - {name: paused, schedule: "* * * * *", targetReplicas: 9, suspend: true}
`;
const FHPA = `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: api, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  minReplicas: 1
  maxReplicas: 5
`;
const CRON_ON_FHPA = `apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: api-cron, namespace: default}
spec:
  scaleTargetRef: {apiVersion: autoscaling.karmada.io/v1alpha1, kind: FederatedHPA, name: api}
  rules:
    - {name: morning, schedule: "0 9 * * *", timeZone: Asia/Shanghai, targetMinReplicas: 3, targetMaxReplicas: 6}
`;

test.before(async () => {
  fleet = await startMemberFleet(
    ['member1', 'member2'],
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'policies/web.yaml': policy('web'),
      'policies/api.yaml': policy('api'),
      'templates/web.yaml': deployment('web'),
      'templates/api.yaml': deployment('api'),
      'templates/web-cron.yaml': CRON_ON_DEPLOYMENT,
      'templates/api-fhpa.yaml': FHPA,
      'templates/api-cron.yaml': CRON_ON_FHPA,
    },
    'web and api with CronFederatedHPAs',
  );
});
test.after(async () => {
  await fleet?.cleanup();
});

const pass = () =>
  reconcileOnce({
    repo: fleet.repo,
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
    clusters: fleet.kubes,
    render: true,
    log: () => {},
    now: () => new Date(now),
    autoscalerOptions: { syncPeriodMs: 0 },
  });
const show = (ref: string) => fleet.config.git('show', ref);
/** The replicas of the rendered Deployment summed over the members (a cluster given none has no file). */
const renderedReplicas = (name: string) => {
  const files = fleet.config.git('ls-tree', '-r', '--name-only', 'flotilla/rendered', 'clusters/').split('\n');
  return files
    .filter((f) => f.endsWith(`/default/deployment.apps_${name}.yaml`))
    .reduce((sum, f) => sum + parse(show(`flotilla/rendered:${f}`)).spec.replicas, 0);
};

test("a rule runs at its minute in its time zone: the Deployment's replicas, a FederatedHPA's min and max", async () => {
  await pass();
  await pass(); // the first status exists: the crons' first look was here, nothing ran
  const before = parse(show('flotilla/status:cronautoscalers/default/web-cron.yaml'));
  assert.is(before.executionHistories[0].nextExecutionTime, '2026-12-01T01:00:00Z');
  assert.is(before.applied, undefined);
  assert.is(renderedReplicas('web'), 1);

  now = Date.parse('2026-12-01T01:00:20Z'); // 09:00:20 in Shanghai
  const ran = await pass();
  assert.ok(ran.statusCommit, 'the run is a status commit');
  const message = fleet.config.git('log', '-1', '--format=%B', 'flotilla/status');
  assert.match(
    message,
    'CronFederatedHPA default/web-cron rule morning (0 9 * * * Asia/Shanghai) at 2026-12-01T01:00:00Z: Deployment web replicas 4',
  );
  assert.match(
    message,
    'CronFederatedHPA default/api-cron rule morning (0 9 * * * Asia/Shanghai) at 2026-12-01T01:00:00Z: FederatedHPA api minReplicas 3, maxReplicas 6',
  );
  assert.match(
    message,
    /FederatedHPA default\/api: Deployment api 1 -> 3 replicas \(Current number of replicas below Spec.MinReplicas/,
  );
  const web = parse(show('flotilla/status:cronautoscalers/default/web-cron.yaml'));
  assert.equal(web.applied, { rule: 'morning', scheduleTime: '2026-12-01T01:00:00Z', replicas: 4, gitReplicas: 1 });
  assert.equal(web.executionHistories[0].successfulExecutions[0].appliedReplicas, 4);
  assert.is(web.executionHistories[0].nextExecutionTime, '2026-12-02T01:00:00Z');
  assert.is(web.executionHistories[1].successfulExecutions, undefined, 'the suspended rule never ran');
  const validate = new Ajv().compile(
    JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, '../../docs/schemas/status-cronautoscaler.schema.json'), 'utf8'),
    ),
  );
  assert.ok(validate(web), JSON.stringify(validate.errors));

  await pass(); // renders what the status commit decided
  assert.is(renderedReplicas('web'), 4);
  assert.is(renderedReplicas('api'), 3);
  assert.not.match(show('main:templates/web.yaml'), /replicas: 4/, "nothing is written to the user's branch");

  now += 30_000; // the same minute does not run twice
  const again = await pass();
  assert.not.ok(
    again.statusPaths.some((p) => p.startsWith('cronautoscalers/')),
    again.statusPaths.join(', '),
  );
});

test.run();
