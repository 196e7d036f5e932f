import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness, waitFor } from './helpers/memberHarness.ts';

// The member's HPA controller end to end with the real kubectl 1.32: an autoscaling/v2 HPA on CPU utilization
// scales a Deployment up when its pods' cpu-usage annotation rises and back down once it falls and the
// (shortened) downscale window has passed. The member runs with a 200 ms sync period and a 1 s window.

const harness = new MemberHarness();
let member: Member;
let kubectl: ReturnType<MemberHarness['kubectl']>;

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
      containers: [{name: web, image: nginx:1.27, resources: {requests: {cpu: 100m}}}]
`;

const hpa = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 5
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
`;

const setUsage = (usage: string) =>
  kubectl([
    'patch',
    'deploy',
    'web',
    '--type=merge',
    '-p',
    JSON.stringify({ spec: { template: { metadata: { annotations: { 'emulator.flotilla.io/cpu-usage': usage } } } } }),
  ]);

test.before(async () => {
  member = await harness.start({
    name: 'member1',
    hpa: { syncPeriodMs: 200, downscaleStabilizationMs: 1_000, cpuInitializationPeriodMs: 0 },
  });
  kubectl = harness.kubectl([member]);
  assert.is((await kubectl(['apply', '-f', '-'], deployment('50m'))).code, 0);
  await waitFor('web 1/1', async () => /^web\s+1\/1\s/m.test((await kubectl(['get', 'deploy', 'web'])).stdout));
});

test.after(async () => {
  await harness.cleanup();
});

test('kubectl get hpa prints the reference, cpu utilization against its target and the replica bounds', async () => {
  const applied = await kubectl(['apply', '-f', '-'], hpa);
  assert.is(applied.code, 0, applied.stderr);
  const printed = await waitFor('TARGETS at 50%', async () => {
    const out = await kubectl(['get', 'hpa']);
    return /^web\s+Deployment\/web\s+cpu: 50%\/50%\s+1\s+5\s+1\s+\S+$/m.test(out.stdout) ? out.stdout : undefined;
  });
  assert.match(printed, /^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE$/m);
  const status = (await api(member, 'GET', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web')).body
    .status;
  assert.equal(
    status.conditions.map((c: any) => [c.type, c.status, c.reason]),
    [
      ['AbleToScale', 'True', 'ReadyForNewScale'],
      ['ScalingActive', 'True', 'ValidMetricFound'],
      ['ScalingLimited', 'False', 'DesiredWithinRange'],
    ],
  );
  assert.equal(status.currentMetrics, [
    { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 50, averageValue: '50m' } } },
  ]);
  assert.equal([status.currentReplicas, status.desiredReplicas], [1, 1]);
});

test('a rising cpu-usage annotation scales the Deployment up to maxReplicas through its scale', async () => {
  assert.is((await setUsage('200m')).code, 0);
  await waitFor(
    '5 ready replicas',
    async () => /^web\s+5\/5\s/m.test((await kubectl(['get', 'deploy', 'web'])).stdout),
    20_000,
  );
  const hpaRow = await waitFor('hpa at 5 replicas', async () => {
    const out = await kubectl(['get', 'hpa', 'web', '--no-headers']);
    return /^web\s+Deployment\/web\s+cpu: 200%\/50%\s+1\s+5\s+5\s/.test(out.stdout) ? out.stdout : undefined;
  });
  assert.ok(hpaRow);
  const status = (await api(member, 'GET', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web')).body
    .status;
  assert.equal(status.conditions.find((c: any) => c.type === 'ScalingLimited').reason, 'TooManyReplicas');
  assert.ok(status.lastScaleTime);
  const deploy = (await api(member, 'GET', '/apis/apps/v1/namespaces/default/deployments/web')).body;
  assert.ok(deploy.metadata.managedFields.some((f: any) => f.manager === 'kube-controller-manager'));
});

test('a falling annotation scales back down to minReplicas once the downscale window has passed', async () => {
  assert.is((await setUsage('5m')).code, 0);
  await waitFor(
    'back to 1 replica',
    async () => {
      const out = await kubectl(['get', 'hpa', 'web', '--no-headers']);
      return /^web\s+Deployment\/web\s+cpu: 5%\/50%\s+1\s+5\s+1\s/.test(out.stdout);
    },
    20_000,
  );
  assert.is((await api(member, 'GET', '/apis/apps/v1/namespaces/default/deployments/web')).body.spec.replicas, 1);
  // Each rescale is an Event on the HPA, which kubectl describe lists.
  const described = await kubectl(['describe', 'hpa', 'web']);
  assert.is(described.code, 0, described.stderr);
  assert.match(
    described.stdout,
    /Normal\s+SuccessfulRescale\s+.*New size: 4; reason: cpu resource utilization \(percentage of request\) above target/,
  );
  assert.match(described.stdout, /Normal\s+SuccessfulRescale\s+.*New size: 1; reason: All metrics below target/);
});

test('a target that does not exist is reported in AbleToScale, not scaled', async () => {
  const missing = hpa
    .replace('name: web, namespace', 'name: ghost, namespace')
    .replace('kind: Deployment, name: web', 'kind: Deployment, name: ghost');
  assert.is((await kubectl(['apply', '-f', '-'], missing)).code, 0);
  const condition = await waitFor('FailedGetScale', async () => {
    const status = (await api(member, 'GET', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/ghost'))
      .body.status;
    return status?.conditions?.find((c: any) => c.type === 'AbleToScale' && c.reason === 'FailedGetScale');
  });
  assert.is(condition.status, 'False');
  assert.match(condition.message, 'deployments.apps "ghost" not found');
  const row = await kubectl(['get', 'hpa', 'ghost', '--no-headers']);
  assert.match(row.stdout, /^ghost\s+Deployment\/ghost\s+cpu: <unknown>\/50%\s+1\s+5\s+0\s/);
  assert.match(
    (await kubectl(['describe', 'hpa', 'ghost'])).stdout,
    /Warning\s+FailedGetScale\s+.*deployments\.apps "ghost" not found/,
  );
});

test('pods without a cpu request leave ScalingActive False, naming the container, and the replicas alone', async () => {
  const bare = deployment('100m')
    .replace(/name: web, namespace/, 'name: bare, namespace')
    .replaceAll('app: web', 'app: bare')
    .replace(', resources: {requests: {cpu: 100m}}', '');
  assert.is((await kubectl(['apply', '-f', '-'], bare)).code, 0);
  assert.is((await kubectl(['apply', '-f', '-'], hpa.replaceAll('web', 'bare'))).code, 0);
  const condition = await waitFor('ScalingActive False', async () => {
    const status = (await api(member, 'GET', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/bare'))
      .body.status;
    return status?.conditions?.find((c: any) => c.type === 'ScalingActive' && c.status === 'False');
  });
  assert.is(condition.reason, 'FailedGetResourceMetric');
  assert.match(
    condition.message,
    /^the HPA was unable to compute the replica count: failed to get cpu utilization: missing request for cpu in container web of Pod bare-\S+$/,
  );
  assert.is((await api(member, 'GET', '/apis/apps/v1/namespaces/default/deployments/bare')).body.spec.replicas, 1);
  const events = await waitFor('a repeated warning', async () => {
    const described = (await kubectl(['describe', 'hpa', 'bare'])).stdout;
    return /Warning\s+FailedGetResourceMetric\s+\S+ \(x\d+ over \S+\)\s+horizontal-pod-autoscaler\s+failed to get cpu utilization: missing request for cpu/.test(
      described,
    )
      ? described
      : undefined;
  });
  assert.ok(events);
});

test('the scale subresource reports the whole selector, expressions included, as the HPA selects pods by it', async () => {
  const created = await api(member, 'POST', '/apis/apps/v1/namespaces/default/replicasets', {
    body: {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'exprs' },
      spec: {
        replicas: 0,
        selector: {
          matchLabels: { app: 'exprs' },
          matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }],
        },
        template: {
          metadata: { labels: { app: 'exprs', tier: 'a' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    },
  });
  assert.is(created.status, 201);
  const scale = (await api(member, 'GET', '/apis/apps/v1/namespaces/default/replicasets/exprs/scale')).body;
  assert.is(scale.status.selector, 'app=exprs,tier in (a,b)');
});

test.run();
