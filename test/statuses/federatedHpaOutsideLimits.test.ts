// A workload whose replicas are outside its FederatedHPA's [minReplicas, maxReplicas] is brought inside them before
// any metric is read, as Karmada's reconcileAutoscaler does: the decision names no metric and leaves ScalingActive
// as it was. One emulated member runs the Deployment; the status side's decision is read directly.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newAutoscalerMemory } from '../../src/statuses/decideFederatedHpas.ts';
import { startHpaMember, type HpaMember } from './helpers/federatedHpaMember.ts';

let member: HpaMember;

// Four busy pods: 90m of their 100m request, above the 50% target.
const DEPLOYMENT = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'api', namespace: 'default' },
  spec: {
    replicas: 4,
    selector: { matchLabels: { app: 'api' } },
    template: {
      metadata: { labels: { app: 'api' }, annotations: { 'emulator.flotilla.io/cpu-usage': '90m' } },
      spec: { containers: [{ name: 'api', image: 'nginx', resources: { requests: { cpu: '100m' } } }] },
    },
  },
};

test.before(async () => {
  member = await startHpaMember([DEPLOYMENT]);
  await member.waitForItems('the pods sampled', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods', 4);
});
test.after(async () => {
  await member?.close();
});

test('replicas above maxReplicas come down to it without a metric read, as Karmada clamps before computing metrics', async () => {
  const commits = member.commit(
    {
      'templates/api-fhpa.yaml': `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: api, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  minReplicas: 1
  maxReplicas: 2
  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}]
`,
    },
    'api with a FederatedHPA of at most 2',
  );
  const decision = (
    await member.decide(commits, {
      now: new Date(),
      memory: newAutoscalerMemory(),
      options: { cpuInitializationPeriodMs: 0 },
    })
  )('api')!;
  assert.equal([decision.desiredReplicas, decision.reason], [2, 'Current number of replicas above Spec.MaxReplicas']);
  assert.equal(
    decision.conditions?.map((c) => `${c.type}=${c.status} ${c.reason}`),
    ['AbleToScale=True SucceededRescale'],
  );
  assert.equal(decision.metrics, []);
});

test('a workload set to 0 replicas in Git while its members still run it is brought back to minReplicas', async () => {
  // Karmada's scale-to-zero check reads the members' summed scale, not the template: while they still run the old
  // count, the template's 0 is merely below minReplicas.
  const commits = member.commit(
    {
      'templates/api.yaml': JSON.stringify({ ...DEPLOYMENT, spec: { ...DEPLOYMENT.spec, replicas: 0 } }),
      'templates/api-fhpa.yaml': `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: api, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  minReplicas: 2
  maxReplicas: 6
`,
    },
    'api scaled to 0 in Git under a FederatedHPA of at least 2',
  );
  const decision = (await member.decide(commits, { now: new Date(), memory: newAutoscalerMemory() }))('api')!;
  assert.equal(
    [decision.currentReplicas, decision.desiredReplicas, decision.reason],
    [0, 2, 'Current number of replicas below Spec.MinReplicas'],
  );
  assert.equal(
    decision.conditions?.map((c) => `${c.type}=${c.status} ${c.reason}`),
    ['AbleToScale=True SucceededRescale'],
  );
});

test.run();
