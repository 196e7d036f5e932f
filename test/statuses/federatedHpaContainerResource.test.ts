// A FederatedHPA's ContainerResource metric (Karmada's computeStatusForContainerResourceMetric): one container's
// request and usage from metrics.k8s.io, against a Resource metric over the whole pod. One emulated member runs the
// Deployment; the status side's decision is read directly.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newAutoscalerMemory } from '../../src/statuses/decideFederatedHpas.ts';
import { waitFor } from '../deliveries/helpers/e2e.ts';
import { startHpaMember, type HpaMember } from './helpers/federatedHpaMember.ts';

let member: HpaMember;

// 200m of CPU split evenly over two containers: app uses 100m of its 50m request, sidecar 100m of its 150m.
const DEPLOYMENT = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: {
        labels: { app: 'web' },
        annotations: { 'emulator.flotilla.io/cpu-usage': '200m', 'emulator.flotilla.io/memory-usage': '64Mi' },
      },
      spec: {
        containers: [
          { name: 'app', image: 'nginx', resources: { requests: { cpu: '50m' } } },
          { name: 'sidecar', image: 'envoy', resources: { requests: { cpu: '150m' } } },
        ],
      },
    },
  },
};
const fhpa = (metric: string) => `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 10
  metrics: [${metric}]
`;

test.before(async () => {
  member = await startHpaMember([DEPLOYMENT]);
});
test.after(async () => {
  await member?.close();
});

/** The decision a first evaluation of a FederatedHPA with `metric` makes, once the member's pod has its metrics. */
async function decide(metric: string) {
  const commits = member.commit({ 'templates/web-fhpa.yaml': fhpa(metric) }, 'web with a FederatedHPA');
  return waitFor(
    'a decision from the pod metrics',
    async () => {
      const decision = (
        await member.decide(commits, {
          now: new Date(),
          memory: newAutoscalerMemory(),
          options: { cpuInitializationPeriodMs: 0 },
        })
      )('web');
      // Until the pod runs and is sampled, no metric gives a count.
      return decision?.conditions?.some((c) => c.type === 'ScalingActive' && c.status === 'False')
        ? undefined
        : decision;
    },
    20_000,
    100,
  );
}

test("a ContainerResource metric scales on one container's request and usage, where the pod's would not", async () => {
  // The whole pod: 200m of 200m, 100% against 50% -> 2.
  const pod = await decide(
    '{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}',
  );
  assert.is(pod.desiredReplicas, 2);
  // The app container: 100m of 50m, 200% against 50% -> 4.
  const app = await decide(
    '{type: ContainerResource, containerResource: {name: cpu, container: app, target: {type: Utilization, averageUtilization: 50}}}',
  );
  assert.is(app.desiredReplicas, 4);
  assert.is(app.reason, 'cpu container resource utilization (percentage of request) above target');
  assert.equal(
    app.metrics.map((m) => [m.resource, m.container, m.currentUtilization, m.currentAverageValue]),
    [['cpu', 'app', 200, '100m']],
  );
  // An AverageValue target reads the container's usage alone: 100m against 25m -> 4.
  const value = await decide(
    '{type: ContainerResource, containerResource: {name: cpu, container: app, target: {type: AverageValue, averageValue: 25m}}}',
  );
  assert.is(value.desiredReplicas, 4);
});

test("a metric's current average value is the quantity Karmada's status holds, not a count of milli-units", async () => {
  // 64Mi of memory per pod against 32Mi -> 2; Karmada writes NewMilliQuantity(67108864000, DecimalSI): "67108864".
  const memory = await decide(
    '{type: Resource, resource: {name: memory, target: {type: AverageValue, averageValue: 32Mi}}}',
  );
  assert.is(memory.desiredReplicas, 2);
  assert.is(memory.metrics[0]?.currentAverageValue, '67108864');
});

test('a ContainerResource metric naming a container the pods lack fails, as Karmada reads no metric for it', async () => {
  const commits = member.commit(
    {
      'templates/web-fhpa.yaml': fhpa(
        '{type: ContainerResource, containerResource: {name: cpu, container: nope, target: {type: Utilization, averageUtilization: 50}}}',
      ),
    },
    'a container the pods lack',
  );
  const decision = (
    await member.decide(commits, {
      now: new Date(),
      memory: newAutoscalerMemory(),
      options: { cpuInitializationPeriodMs: 0 },
    })
  )('web')!;
  const active = decision.conditions?.find((c) => c.type === 'ScalingActive');
  assert.is(active?.reason, 'FailedGetContainerResourceMetric');
  assert.match(active?.message ?? '', /container nope not present in metrics for pod default\/web-/);
  assert.is(decision.desiredReplicas, 1);
});

test.run();
