// A FederatedHPA whose workload's pods have no PodMetrics at all (none runs yet): Karmada's metrics client fails
// with "no metrics returned from resource metrics API" before the replica calculation. One emulated member runs a
// Deployment whose pod cannot be scheduled; the status side's decision is read directly.
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

// More CPU than any node has: the pod stays Pending, never sampled.
const DEPLOYMENT = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'big', namespace: 'default' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'big' } },
    template: {
      metadata: { labels: { app: 'big' } },
      spec: { containers: [{ name: 'big', image: 'nginx', resources: { requests: { cpu: '100000' } } }] },
    },
  },
};

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
  await waitFor(
    'the pod created',
    async () => {
      const res = await sendRequest(kubes.get('member1')!, { method: 'GET', path: '/api/v1/namespaces/default/pods' });
      return ((res.body as { items?: unknown[] }).items ?? []).length === 1;
    },
    20_000,
    100,
  );
});
test.after(async () => {
  await Promise.all([...(kubes?.values() ?? [])].map((kube) => kube.close()));
  await fleet?.cleanup();
});

test("no PodMetrics at all fails the metric with the metrics API's message, as Karmada's metrics client does", async () => {
  const ref = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'big' };
  const rendered = fleet.work.commit({ [bindingPath(ref)]: 'spec: {clusters: [{name: member1}]}\n' }, 'binding');
  const source = fleet.work.commit(
    {
      [bindingPath(ref)]: null,
      'templates/big.yaml': JSON.stringify(DEPLOYMENT),
      'templates/big-fhpa.yaml': `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: big, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: big}
  maxReplicas: 4
`,
    },
    'big with a FederatedHPA',
  );
  const out = await decideFederatedHpas({
    repo: fleet.repo,
    sourceCommit: source,
    renderedCommit: rendered,
    existing: new Map(),
    clusters: kubes,
    ready: new Set(['member1']),
    now: new Date(),
    memory: newAutoscalerMemory(),
  });
  const decision = parseAutoscalerDecision(out.edits.get(autoscalerPath('default', 'big'))!);
  assert.equal(
    decision.conditions?.find((c) => c.type === 'ScalingActive'),
    {
      type: 'ScalingActive',
      status: 'False',
      reason: 'FailedGetResourceMetric',
      message:
        'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
    },
  );
});

test.run();
