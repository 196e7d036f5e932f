// A FederatedHPA's ContainerResource metric (Karmada's computeStatusForContainerResourceMetric): one container's
// request and usage from metrics.k8s.io, against a Resource metric over the whole pod. One emulated member runs the
// Deployment; the status side's decision is read directly.
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

/** The decision a first evaluation of a FederatedHPA with `metric` makes, once the member's pod has its metrics. */
async function decide(metric: string) {
  const ref = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' };
  const rendered = fleet.work.commit({ [bindingPath(ref)]: 'spec: {clusters: [{name: member1}]}\n' }, 'binding');
  const source = fleet.work.commit(
    {
      [bindingPath(ref)]: null,
      'templates/web.yaml': JSON.stringify(DEPLOYMENT),
      'templates/web-fhpa.yaml': fhpa(metric),
    },
    'web with a FederatedHPA',
  );
  return waitFor(
    'a decision from the pod metrics',
    async () => {
      const out = await decideFederatedHpas({
        repo: fleet.repo,
        sourceCommit: source,
        renderedCommit: rendered,
        existing: new Map(),
        clusters: kubes,
        ready: new Set(['member1']),
        now: new Date(),
        memory: newAutoscalerMemory(),
        options: { cpuInitializationPeriodMs: 0 },
      });
      const text = out.edits.get(autoscalerPath('default', 'web'));
      const decision = text ? parseAutoscalerDecision(text) : undefined;
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
  const out = await decideFederatedHpas({
    repo: fleet.repo,
    sourceCommit: fleet.work.commit(
      {
        'templates/web-fhpa.yaml': fhpa(
          '{type: ContainerResource, containerResource: {name: cpu, container: nope, target: {type: Utilization, averageUtilization: 50}}}',
        ),
      },
      'a container the pods lack',
    ),
    renderedCommit: fleet.work.commit(
      {
        [bindingPath({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' })]:
          'spec: {clusters: [{name: member1}]}\n',
      },
      'binding',
    ),
    existing: new Map(),
    clusters: kubes,
    ready: new Set(['member1']),
    now: new Date(),
    memory: newAutoscalerMemory(),
    options: { cpuInitializationPeriodMs: 0 },
  });
  const decision = parseAutoscalerDecision(out.edits.get(autoscalerPath('default', 'web'))!);
  const active = decision.conditions?.find((c) => c.type === 'ScalingActive');
  assert.is(active?.reason, 'FailedGetContainerResourceMetric');
  assert.match(active?.message ?? '', /container nope not present in metrics for pod default\/web-/);
  assert.is(decision.desiredReplicas, 1);
});

test.run();
