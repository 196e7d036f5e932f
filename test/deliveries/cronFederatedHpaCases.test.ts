// Karmada's CronFederatedHPA end-to-end cases (test/e2e/suites/base/cronfederatedhpa_test.go), the Git way: a
// Deployment (3 replicas) divided Aggregated over the members, and a CronFederatedHPA whose rule runs every minute,
// scaling a FederatedHPA or the Deployment, suspended or not. Karmada writes what a rule sets into the
// FederatedHPA or the template; here each run is a status commit the render reads. Emulated members and
// reconcileOnce passes with an injected clock, so "wait 1m30s" is the clock moving, not the test sleeping.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { explainCommand } from '../../src/commands/explainCommand.ts';
import { planCommand } from '../../src/commands/planCommand.ts';
import { reconcileOnce } from '../../src/reconcile.ts';
import { commonOptions } from '../plans/helpers/runCommand.ts';
import { clusterYaml } from '../helpers/fleet.ts';
import { startMemberFleet, type MemberFleet } from './helpers/e2e.ts';

let fleet: MemberFleet;
let now = Date.parse('2026-12-01T10:00:30Z');
const CLUSTERS = ['member1', 'member2'];

/** Karmada's helper.NewDeployment: 3 replicas of nginx with a 10m CPU request. */
const deployment = (name: string, replicas = 3) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: default}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: nginx, image: nginx, resources: {requests: {cpu: 10m}, limits: {cpu: 100m}}}]
`;
const policy = (name: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: ${name}, namespace: default}
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: ${name}}
  placement:
    clusterAffinity: {clusterNames: [${CLUSTERS.join(', ')}]}
    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Aggregated}
`;
/** Karmada's helper.NewFederatedHPA: min 1, max 1, CPU at 80%, 10 s scale-down stabilization. */
const fhpa = (name: string, target: string) => `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: ${name}, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: ${target}}
  behavior: {scaleDown: {stabilizationWindowSeconds: 10}}
  minReplicas: 1
  maxReplicas: 1
  metrics:
    - type: Resource
      resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}
`;
const cron = (name: string, target: string, rule: string) => `apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: ${name}, namespace: default}
spec:
  scaleTargetRef: ${target}
  rules:
    - {name: scale-up, schedule: "*/1 * * * *", ${rule}}
`;
const onDeployment = (name: string) => `{apiVersion: apps/v1, kind: Deployment, name: ${name}}`;

test.before(async () => {
  fleet = await startMemberFleet(
    CLUSTERS,
    Object.fromEntries(CLUSTERS.map((c) => [`clusters/${c}.yaml`, clusterYaml(c)])),
    'two members',
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
/** Karmada's WaitDeploymentReplicasFitWith: the replicas the members run, summed. */
const memberReplicas = (name: string) =>
  fleet.members.reduce(
    (sum, m) =>
      sum +
      ((m.store.get('apps/deployments', 'default', name)?.spec as { replicas?: number } | undefined)?.replicas ?? 0),
    0,
  );
/** Passes until the members run `expected` (a decision is rendered by the pass after the one that wrote it). */
const settleAt = async (name: string, expected: number) => {
  for (let i = 0; i < 4 && memberReplicas(name) !== expected; i++) await pass();
  assert.is(memberReplicas(name), expected, `${name} on the members`);
};
const commit = (files: Record<string, string>, message: string) => fleet.config.commit(files, message);
const cronStatus = (name: string) =>
  parse(fleet.config.git('show', `flotilla/status:cronautoscalers/default/${name}.yaml`));
/** The clock moves past the next minute: a rule of `*\/1 * * * *` is due. */
const explain = async (name: string) => {
  const opts = commonOptions(fleet.config.dir);
  assert.is(await explainCommand({ ...opts, words: ['deployment', name], namespace: 'default' }), 0, opts.stderr());
  return opts.stdout();
};
const nextMinute = () => {
  now = (Math.floor(now / 60_000) + 1) * 60_000 + 20_000;
};

test('Test scale FederatedHPA testing', async () => {
  commit(
    {
      'templates/fhpa-web.yaml': deployment('fhpa-web'),
      'policies/fhpa-web.yaml': policy('fhpa-web'),
      'templates/fhpa-web-fhpa.yaml': fhpa('fhpa-web', 'fhpa-web'),
    },
    'fhpa-web with a FederatedHPA (max 1)',
  );
  // The FederatedHPA brings 3 down to its max, 1 (Karmada waits for the FederatedHPA's minReplicas).
  await settleAt('fhpa-web', 1);
  commit(
    {
      'templates/fhpa-web-cron.yaml': cron(
        'fhpa-web-cron',
        '{apiVersion: autoscaling.karmada.io/v1alpha1, kind: FederatedHPA, name: fhpa-web}',
        'targetMinReplicas: 2, targetMaxReplicas: 100',
      ),
    },
    'a CronFederatedHPA on the FederatedHPA',
  );
  await pass(); // the CronFederatedHPA's first look
  nextMinute();
  await settleAt('fhpa-web', 2);
  assert.equal(
    cronStatus('fhpa-web-cron').executionHistories[0].successfulExecutions[0].appliedMinReplicas,
    2,
    'the run is in the history',
  );
});

test('Scale Deployment testing', async () => {
  commit({ 'templates/web.yaml': deployment('web'), 'policies/web.yaml': policy('web') }, 'web');
  await settleAt('web', 3);
  commit({ 'templates/web-cron.yaml': cron('web-cron', onDeployment('web'), 'targetReplicas: 4') }, 'web-cron');
  await pass();
  nextMinute();
  await settleAt('web', 4);
  // explain and plan say the count is the rule's, not Git's.
  assert.match(
    await explain('web'),
    'replicas: governed by CronFederatedHPA default/web-cron rule scale-up: 4 replica(s), 3 in Git (status branch), divided below',
  );
  // A change that moves the schedule: the plan divides the rule's 4, not Git's 3.
  fleet.config.git('checkout', '-q', '-b', 'web-divided');
  commit(
    {
      'policies/web.yaml': policy('web').replace(
        'replicaDivisionPreference: Aggregated}',
        `replicaDivisionPreference: Weighted, weightPreference: {staticWeightList: [${CLUSTERS.map((c) => `{targetCluster: {clusterNames: [${c}]}, weight: 1}`).join(', ')}]}}`,
      ),
    },
    'web divided 1:1',
  );
  fleet.config.git('checkout', '-q', 'main');
  const opts = commonOptions(fleet.config.dir);
  await planCommand({ ...opts, base: 'main', head: 'web-divided', format: 'text' });
  // Planned over the fleet's render, where the rule's 4 run on member2: half of them move to member1.
  assert.match(opts.stdout(), /member1: \+ Deployment default\/web/);
  assert.match(opts.stdout(), /Deployment default\/web: member1 0→2, member2 4→2/);
  assert.match(
    opts.stdout(),
    'replicas governed by CronFederatedHPA default/web-cron rule scale-up: 4 replica(s), 3 in Git (status branch)',
  );
});

test('Test suspend rule with CronFederatedHPA', async () => {
  commit({ 'templates/idle.yaml': deployment('idle'), 'policies/idle.yaml': policy('idle') }, 'idle');
  await settleAt('idle', 3);
  commit(
    { 'templates/idle-cron.yaml': cron('idle-cron', onDeployment('idle'), 'targetReplicas: 30, suspend: true') },
    'a suspended rule',
  );
  await pass();
  now += 90_000; // Karmada waits 1m30s: the rule's minute passes
  await pass();
  await pass();
  assert.is(memberReplicas('idle'), 3);
  assert.is(cronStatus('idle-cron').executionHistories[0].successfulExecutions, undefined, 'the rule never ran');
});

test('Test unsuspend rule then suspend it in CronFederatedHPA', async () => {
  commit({ 'templates/flip.yaml': deployment('flip'), 'policies/flip.yaml': policy('flip') }, 'flip');
  await settleAt('flip', 3);
  commit({ 'templates/flip-cron.yaml': cron('flip-cron', onDeployment('flip'), 'targetReplicas: 4') }, 'flip-cron');
  await pass();
  nextMinute();
  await settleAt('flip', 4);
  // Karmada's user writes the template's replicas back to 3 over the 4 the rule wrote. Git never held that 4 (the
  // run is on the status branch), so the user's edit of spec.replicas is to another count: the edit wins over the
  // rule's run, as the later write to the template does in Karmada.
  assert.match(await explain('flip'), 'replicas: governed by CronFederatedHPA default/flip-cron');
  commit({ 'templates/flip.yaml': deployment('flip', 2) }, 'flip: 2 replicas');
  await settleAt('flip', 2);
  assert.not.match(await explain('flip'), 'governed by', "Git's edit is the count now");
  commit(
    { 'templates/flip-cron.yaml': cron('flip-cron', onDeployment('flip'), 'targetReplicas: 4, suspend: true') },
    'flip-cron suspended',
  );
  await pass();
  now += 90_000;
  await pass();
  await pass();
  assert.is(memberReplicas('flip'), 2);
  assert.is(cronStatus('flip-cron').executionHistories[0].successfulExecutions.length, 1, 'it ran once, before');
});

test.run();
