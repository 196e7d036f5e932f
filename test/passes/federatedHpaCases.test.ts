// Karmada's FederatedHPA end-to-end cases (test/e2e/suites/base/federatedhpa_test.go), the Git way: a Deployment
// propagated to three members by a ClusterPropagationPolicy (Duplicated, static weights 1:1:1, dynamic weights by
// available replicas) and a FederatedHPA (min 1, max 6, CPU at 10%, 3 s stabilization both ways) in the config
// repo. Karmada's pressure Job curls the pods through a Service until their CPU rises; the emulated pods' usage is
// an annotation of the pod template, so the pressure here is a push raising it. The FederatedHPA writes the
// template's spec.replicas in Karmada; here each decision is a status commit and the render gives the template that
// count, so "the template's replicas" is the decision's desiredReplicas, and the members run it. Running reconciler
// in-process, emulated members, sync period shortened.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { startReconciler, type Reconciler } from '../../src/passes/startReconciler.ts';
import { waitFor } from '../deliveries/helpers/e2e.ts';
import { clusterRegistration, makeFleet, type Fleet } from '../helpers/fleet.ts';
import { LogEvents } from '../helpers/logEvents.ts';

let fleet: Fleet;
let reconciler: Reconciler | undefined;
const CLUSTERS = ['member1', 'member2', 'member3'];

/** Karmada's test deployment: CPU and memory limits only (requests default to them), `usage` of CPU per pod. */
const deployment = (name: string, replicas: number, usage: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: default}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata:
      labels: {app: ${name}}
      annotations: {emulator.flotilla.io/cpu-usage: ${usage}}
    spec:
      containers: [{name: nginx, image: nginx, resources: {limits: {cpu: 10m, memory: 10Mi}}}]
`;
const fhpa = (name: string) => `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: ${name}, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: ${name}}
  minReplicas: 1
  maxReplicas: 6
  behavior:
    scaleUp: {stabilizationWindowSeconds: 3}
    scaleDown: {stabilizationWindowSeconds: 3}
  metrics:
    - type: Resource
      resource: {name: cpu, target: {type: Utilization, averageUtilization: 10}}
`;
const cpp = (name: string, replicaScheduling: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: ${name}}
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: ${name}}
  placement:
    clusterAffinity: {clusterNames: [${CLUSTERS.join(', ')}]}
    replicaScheduling:
${replicaScheduling}`;
const DUPLICATED = '      replicaSchedulingType: Duplicated\n';
const STATIC_WEIGHTS = `      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
${CLUSTERS.map((c) => `          - {targetCluster: {clusterNames: [${c}]}, weight: 1}`).join('\n')}
`;
const DYNAMIC_WEIGHTS = `      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference: {dynamicWeight: AvailableReplicas}
`;

test.before(async () => {
  fleet = await makeFleet({ members: CLUSTERS });
  reconciler = await startReconciler({
    source: { kind: 'local', path: fleet.bare },
    clusters: { kind: 'registered', credentialsDir: fleet.credentials, fallbackKubeconfig: undefined },
    resyncMs: 0,
    statusUpdateFrequencyMs: 300,
    catchUp: { intervalMs: 200, forMs: 20_000 },
    autoscalerOptions: { syncPeriodMs: 300, cpuInitializationPeriodMs: 0 },
    log: new LogEvents().log,
  });
  fleet.push(Object.fromEntries(CLUSTERS.map((c) => [`clusters/${c}.yaml`, clusterRegistration(c)])), 'members');
});
test.after(async () => {
  await reconciler?.stop();
  await fleet?.cleanup();
});

const git = (...args: string[]) => fleet.git(fleet.bare, ...args);
/** Read without blocking: the waits poll it beside the reconciler and the members, which share this event loop. */
const statusFile = async (path: string) => {
  const text = await fleet.gitAsync(fleet.bare, 'show', `flotilla/status:${path}`).catch(() => undefined);
  return text === undefined ? undefined : parse(text); // undefined: not written yet
};
/** Karmada's WaitDeploymentStatus: the template's aggregated status.replicas (the members' summed). */
const aggregatedReplicas = (name: string, expected: number) =>
  waitFor(
    `${name}'s aggregated status at ${expected} replicas`,
    async () => (await statusFile(`templates/default/deployment.apps_${name}.yaml`))?.status?.replicas === expected,
    30_000,
  );
const memberReplicas = (name: string) =>
  fleet.members.map(
    (m) => (m.store.get('apps/deployments', 'default', name)?.spec as { replicas?: number } | undefined)?.replicas ?? 0,
  );
/** Karmada's WaitDeploymentFitWith on the template: the FederatedHPA's count, once the members run it. */
const templateReplicasAbove = async (name: string, floor: number, perCluster: boolean) => {
  const decided = await waitFor(
    `${name} scaled above ${floor}`,
    async () => {
      const d = (await statusFile(`autoscalers/default/${name}.yaml`))?.desiredReplicas;
      return typeof d === 'number' && d > floor ? d : undefined;
    },
    45_000,
  );
  await waitFor(
    `the members of ${name} running the decision`,
    async () => {
      const now = (await statusFile(`autoscalers/default/${name}.yaml`))?.desiredReplicas as number;
      const members = memberReplicas(name);
      return perCluster ? members.every((n) => n === now) : members.reduce((a, b) => a + b, 0) === now;
    },
    45_000,
  );
  return decided;
};
const setUp = (name: string, replicas: number, scheduling: string) =>
  fleet.push(
    {
      [`templates/${name}.yaml`]: deployment(name, replicas, '1m'),
      [`templates/${name}-fhpa.yaml`]: fhpa(name),
      [`policies/${name}.yaml`]: cpp(name, scheduling),
    },
    `${name} with a FederatedHPA, idle (1m of 10m: at the 10% target)`,
  );
const pressure = (name: string, replicas: number) =>
  fleet.push({ [`templates/${name}.yaml`]: deployment(name, replicas, '9m') }, `${name} under load (9m of 10m)`);

test('do scale when metrics of cpu/mem utilization up in Duplicated schedule type', async () => {
  setUp('dup', 1, DUPLICATED);
  await aggregatedReplicas('dup', CLUSTERS.length);
  pressure('dup', 1);
  // Duplicated: every member runs the template's count, so the count is per cluster (Karmada's calibration).
  await templateReplicasAbove('dup', 1, true);
  const decision = await statusFile('autoscalers/default/dup.yaml');
  assert.ok(decision.desiredReplicas <= 6, JSON.stringify(decision));
});

test("a Duplicated workload's count is per cluster: the calculation is calibrated by the members' replicas", async () => {
  // 3 pods (one per member) at 15% of their request against 10%: ratio 1.5. Karmada divides ceil(1.5 x 3 pods) by
  // the calibration, 3 members' replicas over the template's 1, and scales the template 1 -> 2, which each member
  // runs; counting all three clusters' pods as one workload would make it 5 per member.
  setUp('percluster', 1, DUPLICATED);
  await aggregatedReplicas('percluster', CLUSTERS.length);
  fleet.push({ 'templates/percluster.yaml': deployment('percluster', 1, '1500u') }, 'percluster at 15% of request');
  await waitFor(
    'a first scale',
    async () => (await statusFile('autoscalers/default/percluster.yaml'))?.desiredReplicas > 1,
    30_000,
  );
  const first = git('log', '--format=%B', 'flotilla/status', '--', 'autoscalers/default/percluster.yaml')
    .split('\n')
    .find((l) => / -> \d+ replicas/.test(l));
  assert.match(first ?? '', 'FederatedHPA default/percluster: Deployment percluster 1 -> 2 replicas');
  assert.match(first ?? '', '1 pod(s) in member1, 1 pod(s) in member2, 1 pod(s) in member3');
});

test('do scale when metrics of cpu/mem utilization up in static weight schedule type', async () => {
  setUp('static', 3, STATIC_WEIGHTS);
  await aggregatedReplicas('static', 3);
  assert.equal(memberReplicas('static'), [1, 1, 1]);
  pressure('static', 3);
  await templateReplicasAbove('static', 3, false);
  // A user's edit of spec.replicas is where the next decision starts, as Karmada's FederatedHPA reads the template.
  fleet.push({ 'templates/static.yaml': deployment('static', 2, '9m') }, 'static: 2 replicas in Git');
  await waitFor(
    'a decision over the edited count',
    async () => {
      const d = await statusFile('autoscalers/default/static.yaml');
      return d?.gitReplicas === 2 && d.currentReplicas === 2;
    },
    30_000,
  );
});

test("a FederatedHPA's first decision keeps the count, and scales down only after the stabilization window (Karmada's initial recommendation)", async () => {
  // 1m of 10m against a 50% target from the start: every evaluation proposes fewer replicas than the 3 running.
  fleet.push(
    {
      'templates/idle.yaml': deployment('idle', 3, '1m'),
      'templates/idle-fhpa.yaml': fhpa('idle').replace('averageUtilization: 10', 'averageUtilization: 50'),
      'policies/idle.yaml': cpp('idle', STATIC_WEIGHTS),
    },
    'idle: 3 replicas at 10% of request, a FederatedHPA aiming at 50%',
  );
  await waitFor(
    'a scale down',
    async () => (await statusFile('autoscalers/default/idle.yaml'))?.desiredReplicas < 3,
    30_000,
  );
  const decisions = git('log', '--reverse', '--format=%H', 'flotilla/status', '--', 'autoscalers/default/idle.yaml')
    .trim()
    .split('\n')
    .map((commit) => parse(git('show', `${commit}:autoscalers/default/idle.yaml`)));
  const first = decisions.find((d) => d.metrics?.length > 0);
  assert.is(first.desiredReplicas, 3, JSON.stringify(first));
  assert.is(first.ableToScale, 'ScaleDownStabilized', JSON.stringify(first));
});

test('the target a Resource metric sets decides, not its type: averageValue under type Utilization scales on the value', async () => {
  fleet.push(
    {
      'templates/byvalue.yaml': deployment('byvalue', 1, '9m'),
      'templates/byvalue-fhpa.yaml': fhpa('byvalue').replace(
        '{type: Utilization, averageUtilization: 10}',
        '{type: Utilization, averageValue: 3m}',
      ),
      'policies/byvalue.yaml': cpp('byvalue', STATIC_WEIGHTS),
    },
    'byvalue: 9m per pod against an average value of 3m',
  );
  const decision = await waitFor(
    'a scale up on the average value',
    async () => {
      const d = await statusFile('autoscalers/default/byvalue.yaml');
      return d?.desiredReplicas > 1 ? d : undefined;
    },
    30_000,
  );
  assert.is(decision.metrics[0].targetAverageValue, '3m', JSON.stringify(decision.metrics));
});

test("a workload whose selector has matchExpressions scales on its pods too (the scale subresource's selector)", async () => {
  fleet.push(
    {
      'templates/expr.yaml': deployment('expr', 1, '9m').replace(
        'selector: {matchLabels: {app: expr}}',
        'selector: {matchExpressions: [{key: app, operator: In, values: [expr]}]}',
      ),
      'templates/expr-fhpa.yaml': fhpa('expr'),
      'policies/expr.yaml': cpp('expr', STATIC_WEIGHTS),
    },
    'expr: selected by matchExpressions only, under load',
  );
  await waitFor(
    'a scale up',
    async () => (await statusFile('autoscalers/default/expr.yaml'))?.desiredReplicas > 1,
    30_000,
  );
});

test('do scale when metrics of cpu/mem utilization up in dynamic weight schedule type', async () => {
  setUp('dynamic', 3, DYNAMIC_WEIGHTS);
  await aggregatedReplicas('dynamic', 3);
  pressure('dynamic', 3);
  await templateReplicasAbove('dynamic', 3, false);
});

test.run();
