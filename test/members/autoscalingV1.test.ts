import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MemberHarness, waitFor } from './helpers/memberHarness.ts';

// autoscaling/v1 HorizontalPodAutoscaler beside v2, with the real kubectl 1.32: `kubectl autoscale` posts a v1
// object, which is stored as v2 (targetCPUUtilizationPercentage <-> a Resource cpu Utilization metric), scales the
// Deployment, and reads back through either version (status.currentCPUUtilizationPercentage in v1).

const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      annotations: {emulator.flotilla.io/cpu-usage: 80m}
    spec:
      containers: [{name: web, image: nginx, resources: {requests: {cpu: 100m}}}]
`;

test.before(async () => {
  const member = await harness.start({
    name: 'member1',
    readyDelayMs: 50,
    hpa: {
      syncPeriodMs: 200,
      downscaleStabilizationMs: 60_000,
      cpuInitializationPeriodMs: 0,
      initialReadinessDelayMs: 0,
    },
  });
  kubectl = harness.kubectl([member]);
  const created = await kubectl(['apply', '-f', '-'], DEPLOYMENT);
  assert.is(created.code, 0, created.stderr);
});

test.after(async () => {
  await harness.cleanup();
});

const json = async (...args: string[]) => {
  const out = await kubectl([...args, '-o', 'json']);
  assert.is(out.code, 0, out.stderr);
  return JSON.parse(out.stdout);
};

test('kubectl autoscale creates an autoscaling/v1 HPA that reads back as v2 and scales the Deployment', async () => {
  const made = await kubectl(['autoscale', 'deployment', 'web', '--min', '1', '--max', '5', '--cpu-percent', '50']);
  assert.is(made.code, 0, made.stderr);
  assert.match(made.stdout, 'horizontalpodautoscaler.autoscaling/web autoscaled');

  const v2 = await json('get', 'horizontalpodautoscalers.v2.autoscaling', 'web');
  assert.is(v2.apiVersion, 'autoscaling/v2');
  assert.equal(v2.spec.metrics, [
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
  ]);
  assert.equal(v2.spec.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' });

  // 80% of request against 50%: the HPA scales 1 -> 2, and v1 shows the current utilization.
  const v1 = await waitFor('the v1 status', async () => {
    const o = await json('get', 'horizontalpodautoscalers.v1.autoscaling', 'web');
    return o.status?.currentCPUUtilizationPercentage === 80 && o.status.desiredReplicas >= 2 ? o : undefined;
  });
  assert.is(v1.apiVersion, 'autoscaling/v1');
  assert.equal(v1.spec, {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    minReplicas: 1,
    maxReplicas: 5,
    targetCPUUtilizationPercentage: 50,
  });
  assert.is(v1.status.conditions, undefined, 'v1 has no conditions field');
  await waitFor('the Deployment scaled', async () => (await json('get', 'deployment', 'web')).spec.replicas >= 2);
});

test('kubectl get hpa prints the table whichever version stored it; a v1 patch changes the v2 metric', async () => {
  const table = await waitFor('TARGETS with a value', async () => {
    const out = await kubectl(['get', 'hpa']);
    return /^web\s+Deployment\/web\s+cpu: \d+%\/50%\s+1\s+5\s+\d+\s+/m.test(out.stdout) ? out.stdout : undefined;
  });
  assert.match(table, /^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE$/m);
  const v1Table = await kubectl(['get', 'horizontalpodautoscalers.v1.autoscaling']);
  assert.match(v1Table.stdout, /^web\s+Deployment\/web\s+cpu: \d+%\/50%\s+1\s+5\s+\d+\s+/m);

  const patched = await kubectl([
    'patch',
    'horizontalpodautoscalers.v1.autoscaling',
    'web',
    '--type=merge',
    '-p',
    '{"spec":{"targetCPUUtilizationPercentage":90,"maxReplicas":3}}',
  ]);
  assert.is(patched.code, 0, patched.stderr);
  const v2 = await json('get', 'horizontalpodautoscalers.v2.autoscaling', 'web');
  assert.is(v2.spec.metrics[0].resource.target.averageUtilization, 90);
  assert.is(v2.spec.maxReplicas, 3);
  assert.ok(v2.status.conditions.length > 0, 'the v2 status keeps its conditions through a v1 write');
});

test.run();
