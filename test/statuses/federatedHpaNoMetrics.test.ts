// A FederatedHPA whose workload's pods have no PodMetrics at all (none runs yet): Karmada's metrics client fails
// with "no metrics returned from resource metrics API" before the replica calculation. One emulated member runs a
// Deployment whose pod cannot be scheduled; the status side's decision is read directly.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newAutoscalerMemory } from '../../src/statuses/decideFederatedHpas.ts';
import { startHpaMember, type HpaMember } from './helpers/federatedHpaMember.ts';

let member: HpaMember;

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
  member = await startHpaMember([DEPLOYMENT]);
  await member.waitForItems('the pod created', '/api/v1/namespaces/default/pods', 1);
});
test.after(async () => {
  await member?.close();
});

test("no PodMetrics at all fails the metric with the metrics API's message, as Karmada's metrics client does", async () => {
  const commits = member.commit(
    {
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
  const decision = (await member.decide(commits, { now: new Date(), memory: newAutoscalerMemory() }))('big')!;
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
