// A FederatedHPA under the running reconciler: Karmada's FederatedHPA e2e (a Deployment divided over two members
// scales with its pods' CPU), the Git way. The status side reads the members' metrics.k8s.io PodMetrics, each
// decision is a status commit naming the FederatedHPA, the metrics and the replicas; the render gives the
// Deployment that count and the scheduler divides it; nothing but the user commits to main, and verify replays the
// render. Real daemon in-process, emulated members, sync period and stabilization shortened so it runs in seconds.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { describeCommand } from '../../src/commands/describeCommand.ts';
import { getCommand } from '../../src/commands/getCommand.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { startReconciler, type Reconciler } from '../../src/passes/startReconciler.ts';
import { kubectl, waitFor } from '../deliveries/helpers/e2e.ts';
import { clusterRegistration, makeFleet, weightedPolicy, type Fleet } from '../helpers/fleet.ts';
import { LogEvents } from '../helpers/logEvents.ts';

let fleet: Fleet;
let reconciler: Reconciler | undefined;

const deployment = (usage: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      annotations: {emulator.flotilla.io/cpu-usage: ${usage}}
    spec:
      containers: [{name: web, image: nginx, resources: {requests: {cpu: 100m}}}]
`;
const FHPA = `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 4
  metrics:
    - type: Resource
      resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
`;

test.before(async () => {
  fleet = await makeFleet({ members: ['member1', 'member2'] });
});
test.after(async () => {
  await reconciler?.stop();
  await fleet?.cleanup();
});

const k = async (cluster: string, ...args: string[]) => {
  const r = await kubectl(path.join(fleet.credentials, 'members.config'), path.join(fleet.root, 'kubectl-cache'), [
    '--context',
    cluster,
    ...args,
  ]);
  assert.is(r.code, 0, r.stderr);
  return r.stdout;
};
const memberReplicas = async () => {
  let sum = 0;
  for (const c of ['member1', 'member2']) {
    const out = await k(c, 'get', 'deployments', '-n', 'default', '-o', 'jsonpath={.items[*].spec.replicas}');
    for (const n of out.split(/\s+/).filter(Boolean)) sum += Number(n);
  }
  return sum;
};
const git = (...args: string[]) => fleet.git(fleet.bare, ...args);

test('a FederatedHPA scales a divided Deployment from 1 towards 4 as its pods CPU rises, each decision a status commit', async () => {
  const events = new LogEvents();
  reconciler = await startReconciler({
    source: { kind: 'local', path: fleet.bare },
    clusters: { kind: 'registered', credentialsDir: fleet.credentials, fallbackKubeconfig: undefined },
    resyncMs: 0,
    statusUpdateFrequencyMs: 300,
    catchUp: { intervalMs: 200, forMs: 20_000 },
    autoscalerOptions: { syncPeriodMs: 300, downscaleStabilizationMs: 2_000, cpuInitializationPeriodMs: 0 },
    log: events.log,
  });
  const userCommits = [
    fleet.push(
      {
        'clusters/member1.yaml': clusterRegistration('member1'),
        'clusters/member2.yaml': clusterRegistration('member2'),
        'policies/web.yaml': weightedPolicy('web', ['member1', 'member2']).replace(
          'metadata:\n  name: web',
          'metadata:\n  name: web\n  namespace: default',
        ),
        'templates/web.yaml': deployment('10m'),
        'templates/web-fhpa.yaml': FHPA,
      },
      'web with a FederatedHPA, idle',
    ),
  ];
  // Idle (10% of request against 50%): the first decision keeps 1.
  // Polled beside the reconciler and the members, which share this event loop: git runs without blocking it.
  const hasDecision = () =>
    fleet
      .gitAsync(fleet.bare, 'ls-tree', '-r', '--name-only', 'flotilla/status')
      .then((files) => files.includes('autoscalers/default/web.yaml'))
      .catch(() => false); // no status branch yet
  await waitFor('a first decision', hasDecision, 30_000, 50);
  assert.is(parse(git('show', 'flotilla/status:autoscalers/default/web.yaml')).desiredReplicas, 1);
  assert.is(await memberReplicas(), 1);

  userCommits.push(fleet.push({ 'templates/web.yaml': deployment('90m') }, 'web under load'));
  const started = Date.now();
  await waitFor('4 replicas over the members', async () => (await memberReplicas()) === 4, 60_000, 50);
  const ms = Date.now() - started;

  // Every decision is a status commit naming the FederatedHPA, the metrics and the replicas.
  const decisions = git('log', '--format=%H', 'flotilla/status', '--', 'autoscalers/')
    .trim()
    .split('\n')
    .reverse()
    .map((sha) => ({
      message: git('log', '-1', '--format=%B', sha),
      file: parse(git('show', `${sha}:autoscalers/default/web.yaml`)),
    }));
  const counts = decisions.map((d) => d.file.desiredReplicas);
  assert.is(counts[0], 1);
  assert.is(counts[counts.length - 1], 4);
  for (let i = 1; i < counts.length; i++) {
    // A commit that keeps the count changed the conditions (at max: ScalingLimited TooManyReplicas).
    if (counts[i] === counts[i - 1]) {
      assert.match(decisions[i]!.message, `FederatedHPA default/web: Deployment web keeps ${counts[i]} replicas (`);
      continue;
    }
    assert.ok(counts[i] > counts[i - 1], `each new count is higher: ${counts.join(' -> ')}`);
    assert.match(
      decisions[i]!.message,
      new RegExp(
        `FederatedHPA default/web: Deployment web ${counts[i - 1]} -> ${counts[i]} replicas \\(cpu resource utilization \\(percentage of request\\) above target; cpu \\d+% of request \\(target 50%\\) over`,
      ),
    );
  }
  // Held at max under the same load, the conditions say why (Kubernetes' ScalingLimited TooManyReplicas).
  const conditions = async (): Promise<string[]> =>
    parse(await fleet.gitAsync(fleet.bare, 'show', 'flotilla/status:autoscalers/default/web.yaml')).conditions.map(
      (c: { type: string; status: string; reason: string }) => `${c.type}=${c.status} ${c.reason}`,
    );
  await waitFor(
    'ScalingLimited at max',
    async () => (await conditions()).includes('ScalingLimited=True TooManyReplicas'),
    30_000,
  );
  assert.equal(await conditions(), [
    'AbleToScale=True ReadyForNewScale',
    'ScalingActive=True ValidMetricFound',
    'ScalingLimited=True TooManyReplicas',
  ]);
  // get and describe show the FederatedHPA with its status, as Karmada's API would.
  const read = async (command: typeof getCommand, args: string[]) => {
    let out = '';
    const code = await command([...args, '--repo', fleet.bare], {
      out: (s) => {
        out += s;
      },
      err: () => {},
      now: () => new Date(),
    });
    assert.is(code, 0);
    return out;
  };
  assert.match(
    await read(getCommand, ['federatedhpas']),
    /^NAME\s+REFERENCE-KIND\s+REFERENCE-NAME\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE\n+web\s+Deployment\s+web\s+1\s+4\s+4\s+\S+/m,
  );
  const yaml = parse(await read(getCommand, ['fhpa', 'web', '-o', 'yaml']));
  assert.is(yaml.status.desiredReplicas, 4);
  assert.is(yaml.status.conditions[2].reason, 'TooManyReplicas');
  const described = await read(describeCommand, ['federatedhpa', 'web']);
  assert.match(described, /^Reference:\s+Deployment\/web$/m);
  assert.match(described, /^Deployment pods:\s+4 current \/ 4 desired$/m);
  assert.match(
    described,
    /^\s+ScalingLimited\s+True\s+TooManyReplicas\s+the desired replica count is more than the maximum replica count$/m,
  );
  const last = decisions[decisions.length - 1]!.file;
  assert.is(last.metrics[0].resource, 'cpu');
  assert.ok(last.metrics[0].currentUtilization >= 80, JSON.stringify(last.metrics));

  // The render divided the decided count (2 + 2 by equal static weights) and recorded the status commit it read.
  const rendered = (c: string) =>
    parse(git('show', `flotilla/rendered:clusters/${c}/default/deployment.apps_web.yaml`));
  assert.is(rendered('member1').spec.replicas + rendered('member2').spec.replicas, 4);
  const trailers = git('log', '-1', '--format=%B', 'flotilla/rendered');
  assert.match(trailers, /Autoscaled-Replicas: [0-9a-f]{16}/);
  // The render the last decision caused says so in its subject, naming the autoscaler and the counts.
  assert.match(trailers, /^Autoscaled FederatedHPA default\/web: Deployment default\/web \d+ -> 4 replicas\n/);
  assert.match(trailers, /Cluster-Status: [0-9a-f]{40}/);
  await reconciler.stop();
  reconciler = undefined;
  const verified = await verifyOutput(await openRepo(fleet.bare), { outputRef: 'refs/heads/flotilla/rendered' });
  assert.ok(verified.ok, JSON.stringify(verified));

  // Nothing but the user committed to main.
  assert.equal(git('log', '--format=%H', 'main').trim().split('\n').slice(0, 2).reverse(), userCommits);
  console.log(`1 -> 4 in ${ms} ms through ${counts.join(' -> ')} (sync period 300 ms)`);
});

test.run();
