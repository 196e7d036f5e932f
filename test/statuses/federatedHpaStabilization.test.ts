// A FederatedHPA's scale-down stabilization starts with its first evaluation that reads the workload's scale, as
// Karmada's recordInitialRecommendation does, whether or not a metric gives a count then. One emulated member runs
// the Deployment; the status side's decisions are read directly, at chosen times.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newAutoscalerMemory } from '../../src/statuses/decideFederatedHpas.ts';
import { startHpaMember, type HpaMember } from './helpers/federatedHpaMember.ts';

let member: HpaMember;

// Four idle pods: 10m of their 100m request, far below a 50% target.
const DEPLOYMENT = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'api', namespace: 'default' },
  spec: {
    replicas: 4,
    selector: { matchLabels: { app: 'api' } },
    template: {
      metadata: { labels: { app: 'api' }, annotations: { 'emulator.flotilla.io/cpu-usage': '10m' } },
      spec: { containers: [{ name: 'api', image: 'nginx', resources: { requests: { cpu: '100m' } } }] },
    },
  },
};
const fhpa = (metric: string) => `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: api, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  minReplicas: 1
  maxReplicas: 10
  metrics: [${metric}]
`;
const CPU = '{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}';
// Pods metrics need a custom metrics API: no count, while the scale is read.
const PODS = '{type: Pods, pods: {metric: {name: qps}, target: {type: AverageValue, averageValue: "10"}}}';

test.before(async () => {
  member = await startHpaMember([DEPLOYMENT]);
});
test.after(async () => {
  await member?.close();
});

test('a FederatedHPA whose first evaluation finds no metric still starts its scale-down window then', async () => {
  const source = (metric: string) =>
    member.commit({ 'templates/api-fhpa.yaml': fhpa(metric) }, 'api with a FederatedHPA');
  const memory = newAutoscalerMemory();
  const start = Date.now();
  const pass = async (commits: { rendered: string; source: string }, secondsLater: number) =>
    (
      await member.decide(commits, {
        now: new Date(start + secondsLater * 1000),
        memory,
        options: { cpuInitializationPeriodMs: 0 },
      })
    )('api');
  // The pods run and are sampled before the passes, so the CPU metric is there when it is asked for.
  await member.waitForItems('the pods sampled', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods', 4);
  const first = await pass(source(PODS), 0);
  assert.is(first?.conditions?.find((c) => c.type === 'ScalingActive')?.reason, 'FailedGetPodsMetric');
  const cpu = source(CPU);
  // Inside the 300 s window that started with the first pass the idle pods do not scale down...
  const inside = await pass(cpu, 200);
  assert.equal([inside?.desiredReplicas, inside?.ableToScale], [4, 'ScaleDownStabilized']);
  // ...past it they do: 10% against 50% over 4 pods -> 1.
  const past = await pass(cpu, 320);
  assert.is(past?.desiredReplicas, 1);
});

test('a FederatedHPA has a lastScaleTime only once a decision changed the replicas, as Karmada sets it on a rescale', async () => {
  const memory = newAutoscalerMemory();
  const start = Date.now();
  const pass = async (metric: string, secondsLater: number) =>
    (
      await member.decide(member.commit({ 'templates/api-fhpa.yaml': fhpa(metric) }, 'api with a FederatedHPA'), {
        now: new Date(start + secondsLater * 1000),
        memory,
        options: { cpuInitializationPeriodMs: 0 },
      })
    )('api');
  await member.waitForItems('the pods sampled', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods', 4);
  // No metric gives a count, then the window holds the count: no scale yet.
  assert.is((await pass(PODS, 0))?.lastScaleTime, undefined);
  assert.is((await pass(CPU, 200))?.lastScaleTime, undefined);
  const scaled = await pass(CPU, 320);
  assert.is(scaled?.lastScaleTime, new Date(start + 320_000).toISOString().replace(/\.\d+Z$/, 'Z'));
});

test.run();
