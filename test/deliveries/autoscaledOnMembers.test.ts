// An HPA on a member owns its workload's replicas (Karmada's hpaScaleTargetMarker and Retain): the HPA and the
// Deployment propagate from Git, the render marks the Deployment retain-replicas, the member's HPA scales it from
// Git's 2 to 5 when its pods' CPU rises, and neither a resync, an edit of the Deployment in Git nor a drift repair
// puts 2 back; the status branch shows the member's 5. Real kubectl 1.32, an emulated member with its HPA
// controller on loopback, a real config repo, reconcileOnce.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { describeCommand } from '../../src/commands/describeCommand.ts';
import { getCommand } from '../../src/commands/getCommand.ts';
import { reconcileOnce, type ReconcileResult } from '../../src/reconcile.ts';
import { clusterYaml } from '../helpers/fleet.ts';
import { startMemberFleet, waitFor, type MemberFleet } from './helpers/e2e.ts';

let fleet: MemberFleet;

const deployment = (
  usage: string,
  image = 'nginx:1.27',
  name = 'web',
  replicas: number | null = 2,
) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: default
spec:${
  replicas === null
    ? ''
    : `
  replicas: ${replicas}`
}
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
      annotations: {emulator.flotilla.io/cpu-usage: ${usage}}
    spec:
      containers:
        - name: ${name}
          image: ${image}
          resources: {requests: {cpu: 100m}}
`;
const hpa = (name: string) => `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: ${name}
  namespace: default
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: ${name}}
  minReplicas: 1
  maxReplicas: 5
  metrics:
    - type: Resource
      resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
`;
const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: web
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
    - apiVersion: autoscaling/v2
      kind: HorizontalPodAutoscaler
  placement:
    clusterAffinity:
      clusterNames: [member1]
`;

const pass = () =>
  reconcileOnce({
    repo: fleet.repo,
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
    clusters: fleet.kubes,
    render: true,
    log: () => {},
  });
const web = (r: ReconcileResult, name = 'web') =>
  r
    .delivery!.clusters.get('member1')!
    .results.find((x) => x.ref.kind === 'Deployment' && x.ref.name === name && !x.prune)!;
const k = (...args: string[]) => fleet.kubectl(['--context', 'member1', ...args]);
const replicas = async (name = 'web') =>
  (await k('get', 'deployment', name, '-n', 'default', '-o', 'jsonpath={.spec.replicas}')).stdout;
const show = (ref: string) => fleet.config.git('show', ref);

test.before(async () => {
  // Git's 2 at 10m each is below the 50% target: the HPA holds at 2 until the usage rises.
  fleet = await startMemberFleet(
    ['member1'],
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'policies/web.yaml': POLICY,
      'templates/web.yaml': deployment('10m'),
      'templates/web-hpa.yaml': hpa('web'),
      // As Kubernetes advises for an HPA's workload: no spec.replicas in Git at all.
      'templates/worker.yaml': deployment('200m', 'busybox:1.36', 'worker', null),
      'templates/worker-hpa.yaml': hpa('worker'),
    },
    'web with an HPA',
    { hpa: { syncPeriodMs: 200, downscaleStabilizationMs: 60_000, cpuInitializationPeriodMs: 0 } },
  );
  const first = await pass();
  assert.is(web(first).action, 'created', web(first).message);
});

test.after(async () => {
  await fleet?.cleanup();
});

test('the rendered Deployment an HPA scales carries retain-replicas; the HPA propagates with it', () => {
  const manifest = parse(show('flotilla/rendered:clusters/member1/default/deployment.apps_web.yaml'));
  assert.is(manifest.metadata.labels['resourcetemplate.karmada.io/retain-replicas'], 'true');
  assert.is(manifest.spec.replicas, 2, "Git's count is what a create sends");
  assert.ok(show('flotilla/rendered:clusters/member1/default/horizontalpodautoscaler.autoscaling_web.yaml'));
  assert.not.match(show('main:templates/web.yaml'), /retain-replicas/, "nothing is written to the user's branch");
});

test("the member's HPA scales to 5; an edit in Git, a resync and a drift repair all leave 5; status shows 5", async () => {
  // The pods' CPU rises through Git: an edit of the Deployment alone, rendered incrementally, keeps the mark.
  fleet.config.commit({ 'templates/web.yaml': deployment('200m') }, 'web under load');
  const edited = await pass();
  assert.is(web(edited).action, 'configured', web(edited).message);
  assert.match(
    show('flotilla/rendered:clusters/member1/default/deployment.apps_web.yaml'),
    /resourcetemplate\.karmada\.io\/retain-replicas: "true"/,
  );
  await waitFor('the HPA scaled web to 5', async () => (await replicas()) === '5', 20_000);

  const resync = await pass();
  assert.is(web(resync).action, 'unchanged', web(resync).message);
  assert.is(await replicas(), '5');

  // Someone changes the image on the member: drift, repaired by force, and the replicas stay the HPA's.
  assert.is((await k('set', 'image', 'deployment/web', 'web=nginx:1.26', '-n', 'default')).code, 0);
  const repaired = await pass();
  assert.is(web(repaired).action, 'drift-repaired', web(repaired).message);
  assert.is(await replicas(), '5');
  assert.is(
    (await k('get', 'deployment', 'web', '-n', 'default', '-o', 'jsonpath={.spec.template.spec.containers[0].image}'))
      .stdout,
    'nginx:1.27',
  );

  // A change in Git (a new image) is applied, still without touching the replicas.
  fleet.config.commit({ 'templates/web.yaml': deployment('200m', 'nginx:1.28') }, 'web on nginx 1.28');
  const upgraded = await pass();
  assert.is(web(upgraded).action, 'configured', web(upgraded).message);
  assert.is(await replicas(), '5');

  await waitFor(
    '5 ready',
    async () =>
      (await k('get', 'deployment', 'web', '-n', 'default', '-o', 'jsonpath={.status.readyReplicas}')).stdout === '5',
    20_000,
  );
  await pass();
  const status = parse(show('flotilla/status:templates/default/deployment.apps_web.yaml'));
  assert.is(status.status.replicas, 5);
  assert.is(status.aggregatedStatus[0].status.replicas, 5);

  // get and describe show what the members run (Karmada's replicas syncer writes it to the template; Flotilla shows it).
  const read = async (command: typeof getCommand, args: string[]) => {
    let out = '';
    assert.is(
      await command([...args, '--repo', fleet.config.dir], {
        out: (s) => {
          out += s;
        },
        err: () => {},
        now: () => new Date(),
      }),
      0,
    );
    return out;
  };
  assert.match(await read(getCommand, ['deployments']), /^web\s+5\/5\s+5\s+5\s/m);
  assert.match(
    await read(describeCommand, ['deployment', 'web']),
    /^Replicas:\s+5 on the members \(governed by HorizontalPodAutoscaler default\/web on each member; 2 in Git\)$/m,
  );
});

test('a Deployment with no spec.replicas in Git keeps the count its HPA set: applying without the field resets nothing', async () => {
  await waitFor('the HPA scaled worker to 5', async () => (await replicas('worker')) === '5', 20_000);
  const resync = await pass();
  assert.ok(['unchanged', 'configured'].includes(web(resync, 'worker').action), web(resync, 'worker').message);
  assert.is(await replicas('worker'), '5');
  fleet.config.commit(
    { 'templates/worker.yaml': deployment('200m', 'busybox:1.37', 'worker', null) },
    'worker on busybox 1.37',
  );
  const upgraded = await pass();
  assert.is(web(upgraded, 'worker').action, 'configured', web(upgraded, 'worker').message);
  assert.is(await replicas('worker'), '5');
});

test.run();
