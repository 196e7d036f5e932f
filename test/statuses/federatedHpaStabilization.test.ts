// A FederatedHPA's scale-down stabilization starts with its first evaluation that reads the workload's scale, as
// Karmada's recordInitialRecommendation does, whether or not a metric gives a count then. One emulated member runs
// the Deployment; the status side's decisions are read directly, at chosen times.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { autoscalerPath, parseAutoscalerDecision } from '../../src/branches/status/autoscalerDecisions.ts';
import { bindingPath } from '../../src/branches/rendered/outputPaths.ts';
import { connectKubeconfig } from '../../src/deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../../src/deliveries/KubeTarget.ts';
import { sendRequest } from '../../src/deliveries/sendRequest.ts';
import { decideFederatedHpas, newAutoscalerMemory } from '../../src/statuses/decideFederatedHpas.ts';
import { waitFor } from '../deliveries/helpers/e2e.ts';
import { makeFleet, type Fleet } from '../helpers/fleet.ts';

let fleet: Fleet;
let kubes: Map<string, KubeTarget>;

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
  fleet = await makeFleet({ members: ['member1'] });
  kubes = await connectKubeconfig(path.join(fleet.credentials, 'members.config'), { timeoutMs: 3_000 });
  const created = await sendRequest(kubes.get('member1')!, {
    method: 'POST',
    path: '/apis/apps/v1/namespaces/default/deployments',
    body: JSON.stringify(DEPLOYMENT),
    contentType: 'application/json',
  });
  assert.is(created.status, 201, JSON.stringify(created.body));
});
test.after(async () => {
  await Promise.all([...(kubes?.values() ?? [])].map((kube) => kube.close()));
  await fleet?.cleanup();
});

test('a FederatedHPA whose first evaluation finds no metric still starts its scale-down window then', async () => {
  const ref = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'api' };
  const rendered = fleet.work.commit({ [bindingPath(ref)]: 'spec: {clusters: [{name: member1}]}\n' }, 'binding');
  const source = (metric: string) =>
    fleet.work.commit(
      {
        [bindingPath(ref)]: null,
        'templates/api.yaml': JSON.stringify(DEPLOYMENT),
        'templates/api-fhpa.yaml': fhpa(metric),
      },
      'api with a FederatedHPA',
    );
  const memory = newAutoscalerMemory();
  const start = Date.now();
  const pass = async (sourceCommit: string, secondsLater: number) => {
    const out = await decideFederatedHpas({
      repo: fleet.repo,
      sourceCommit,
      renderedCommit: rendered,
      existing: new Map(),
      clusters: kubes,
      ready: new Set(['member1']),
      now: new Date(start + secondsLater * 1000),
      memory,
      options: { cpuInitializationPeriodMs: 0 },
    });
    const text = out.edits.get(autoscalerPath('default', 'api'));
    return text ? parseAutoscalerDecision(text) : undefined;
  };
  // The pods run and are sampled before the passes, so the CPU metric is there when it is asked for.
  await waitFor(
    'the pods sampled',
    async () => {
      const res = await sendRequest(kubes.get('member1')!, {
        method: 'GET',
        path: '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods',
      });
      return ((res.body as { items?: unknown[] }).items ?? []).length === 4;
    },
    20_000,
    100,
  );
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

test.run();
