import { test } from 'uvu';
import { placementJson } from '../../src/assignments/placementJson.ts';
import { placementChanged } from '../../src/assignments/needsReschedule.ts';
import * as assert from 'uvu/assert';
import type { ResourceBinding } from '../../src/api/binding.ts';
import type { Placement } from '../../src/api/policy.ts';
import type { WorkloadRebalancer } from '../../src/api/rebalancer.ts';
import { OBSERVED_REBALANCERS_ANNOTATION } from '../../src/assignments/rebalanceRequests.ts';
import { scheduleBinding } from '../../src/assignments/scheduleBinding.ts';
import { claimTemplate, type ClaimedBinding } from '../../src/bindings/claimTemplate.ts';
import type { Template } from '../../src/api/model.ts';
import {
  clustersOf,
  configMap,
  deployment,
  memberCluster,
  modelOf,
  propagationPolicy,
} from '../helpers/inMemoryModel.ts';

const web = deployment('web', 4);
const weighted: Placement = {
  clusterAffinity: { clusterNames: ['member1', 'member2'] },
  replicaScheduling: {
    replicaSchedulingType: 'Divided',
    replicaDivisionPreference: 'Weighted',
    weightPreference: {
      staticWeightList: [
        { targetCluster: { clusterNames: ['member1'] }, weight: 1 },
        { targetCluster: { clusterNames: ['member2'] }, weight: 3 },
      ],
    },
  },
};

function run(
  template: Template,
  placement: Placement,
  previous?: ResourceBinding,
  rebalancers: WorkloadRebalancer[] = [],
) {
  const policy = propagationPolicy('apps', {
    resourceSelectors: [{ apiVersion: template.ref.apiVersion, kind: template.ref.kind }],
    placement,
  });
  // Registered out of order: the snapshot is sorted, the result too.
  const model = modelOf({
    templates: [template],
    policies: [policy],
    clusters: [memberCluster('member2'), memberCluster('member1')],
  });
  const claim = claimTemplate(template, model, previous) as ClaimedBinding;
  const previousResult = { clusters: previous?.spec.clusters ?? [], tasks: previous?.spec.gracefulEvictionTasks ?? [] };
  return {
    claim,
    scheduled: scheduleBinding(template, claim, previous, previousResult, clustersOf(model), rebalancers),
  };
}

test("the applied placement is Go's json.Marshal of Karmada's Placement: struct order, empty omitempty fields left out", () => {
  const written = {
    replicaScheduling: { replicaSchedulingType: 'Duplicated' },
    spreadConstraints: [{ maxGroups: 2, spreadByField: 'cluster', minGroups: 1 }],
    clusterTolerations: [],
    clusterAffinity: {
      exclude: [],
      clusterNames: ['member1', 'member2'],
      labelSelector: { matchLabels: { b: '2', a: '1' } },
    },
  } as Placement;
  const { scheduled } = run(web, written);
  assert.is(
    scheduled.binding.metadata.annotations?.['policy.karmada.io/applied-placement'],
    '{"clusterAffinity":{"labelSelector":{"matchLabels":{"a":"1","b":"2"}},"clusterNames":["member1","member2"]},' +
      '"spreadConstraints":[{"spreadByField":"cluster","maxGroups":2,"minGroups":1}],"replicaScheduling":{"replicaSchedulingType":"Duplicated"}}',
  );
  // Read back, the annotation is the same placement: no reschedule for the fields Go left out.
  assert.is(
    placementChanged(
      written,
      scheduled.binding.metadata.annotations?.['policy.karmada.io/applied-placement'],
      undefined,
    ),
    false,
  );
  assert.is(placementChanged(written, JSON.stringify(written), undefined), false);
  assert.is(
    placementChanged(
      { ...written, clusterAffinity: { clusterNames: ['member1'] } },
      JSON.stringify(written),
      undefined,
    ),
    true,
  );
});

test('the result is written into the claimed binding: clusters sorted by name, applied placement, Scheduled condition', () => {
  const { claim, scheduled } = run(web, weighted);
  assert.is(scheduled.result.status, 'Scheduled');
  assert.equal(scheduled.targets, [
    { name: 'member1', replicas: 1 },
    { name: 'member2', replicas: 3 },
  ]);
  const b = scheduled.binding;
  assert.equal(b.spec.clusters, scheduled.targets);
  assert.is(b.metadata.annotations?.['policy.karmada.io/applied-placement'], placementJson(weighted));
  assert.equal(b.status?.conditions, [
    { type: 'Scheduled', status: 'True', reason: 'Success', message: 'Binding has been scheduled successfully.' },
  ]);
  assert.equal(
    Object.keys(b.spec),
    Object.keys(claim.binding.spec),
    'every field keeps the place the detector gave it',
  );
  assert.equal(claim.binding.spec.clusters, [], 'the claimed binding itself is not changed');
  assert.is(scheduled.problem, undefined);
  assert.is(scheduled.waiting, undefined, 'a divided workload that fits waits on nothing');
});

test('placement and replicas as before: the previous result and its success message are kept (Unchanged)', () => {
  const first = run(web, weighted).scheduled.binding;
  const withMessage = {
    ...first,
    status: { conditions: [{ ...first.status!.conditions![0]!, message: 'scheduled last week' }] },
  };
  const again = run(web, weighted, withMessage).scheduled;
  assert.is(again.result.status, 'Unchanged');
  assert.equal(again.targets, first.spec.clusters);
  assert.is(again.binding.status?.conditions?.[0]?.message, 'scheduled last week');
});

// scheduler.go doScheduleBinding: a binding whose placement and replicas did not change is not scheduled, and no
// Scheduled condition is patched, so one that never had it (made outside Karmada's scheduler) still has none.
test('placement and replicas as before on a binding with no Scheduled condition: the result is kept, no condition written', () => {
  const first = run(web, weighted).scheduled.binding;
  const { status: _none, ...unscheduled } = first;
  const again = run(web, weighted, unscheduled).scheduled;
  assert.is(again.result.status, 'Unchanged');
  assert.equal(again.targets, first.spec.clusters);
  assert.is(again.binding.status?.conditions, undefined);
  assert.is(
    again.binding.metadata.annotations?.['policy.karmada.io/applied-placement'],
    placementJson(weighted),
    'the placement the kept result was computed for',
  );
});

test('no cluster fits: NO_CLUSTER_FITS at the template, Scheduled False, and the binding waits for its replicas to fit', () => {
  const nowhere: Placement = { ...weighted, clusterAffinity: { clusterNames: ['member9'] } };
  const { scheduled } = run(web, nowhere);
  assert.is(scheduled.result.status, 'NoClusterFit');
  assert.equal(scheduled.targets, []);
  assert.equal(
    [scheduled.problem?.code, scheduled.problem?.file, scheduled.problem?.severity],
    ['NO_CLUSTER_FITS', 'templates/web.yaml', 'warning'],
  );
  assert.match(scheduled.problem?.message ?? '', /^Deployment default\/web \(PropagationPolicy default\/apps\): /);
  assert.match(scheduled.problem?.fix ?? '', /widen the placement of PropagationPolicy default\/apps/);
  assert.equal(
    scheduled.binding.status?.conditions?.map((c) => [c.status, c.reason]),
    [['False', 'NoClusterFit']],
  );
  assert.equal(scheduled.waiting, { replicas: 4 });
});

test('no cluster fitting records the placement its empty result was computed for', () => {
  const first = run(web, weighted).scheduled.binding;
  const nowhere = { ...weighted, clusterAffinity: { clusterNames: ['member9'] } };
  const { scheduled } = run(web, nowhere, first);
  assert.is(scheduled.result.status, 'NoClusterFit');
  assert.equal(scheduled.binding.spec.clusters, []);
  assert.is(scheduled.binding.metadata.annotations?.['policy.karmada.io/applied-placement'], placementJson(nowhere));
});

test('a non-workload that cannot be placed waits on cluster status with no replica count', () => {
  const cm = configMap('settings');
  const { scheduled } = run(cm, { clusterAffinity: { clusterNames: ['member9'] } });
  assert.equal(scheduled.waiting, {});
});

test('a Deployment at 0 replicas is a workload when its pods request resources: its binding names no cluster', () => {
  const requests = {
    template: {
      spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '100m' } } }] },
    },
  };
  const idle = run(deployment('idle', 0, requests), { replicaScheduling: { replicaSchedulingType: 'Duplicated' } });
  assert.ok(idle.claim.binding.spec.replicaRequirements, 'the binding carries replicaRequirements');
  assert.is(idle.scheduled.result.status, 'Scheduled');
  assert.equal(idle.scheduled.binding.spec.clusters, []);
  // Without requests or a node claim it is a non-workload: every cluster, 0 replicas.
  const bare = run(deployment('bare', 0), { replicaScheduling: { replicaSchedulingType: 'Duplicated' } });
  assert.equal(bare.scheduled.binding.spec.clusters, [
    { name: 'member1', replicas: 0 },
    { name: 'member2', replicas: 0 },
  ]);
});

test('a WorkloadRebalancer not yet observed schedules afresh once, and the binding records it as observed', () => {
  const first = run(web, weighted).scheduled.binding;
  const rebalancer: WorkloadRebalancer = {
    apiVersion: 'apps.karmada.io/v1alpha1',
    kind: 'WorkloadRebalancer',
    metadata: { name: 'rebalance-web' },
    spec: { workloads: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' }] },
  };
  const fresh = run(web, weighted, first, [rebalancer]).scheduled;
  assert.is(fresh.result.status, 'Scheduled', 'fresh mode schedules even though nothing changed');
  assert.equal(fresh.rescheduledBy, ['rebalance-web']);
  assert.is(fresh.binding.metadata.annotations?.[OBSERVED_REBALANCERS_ANNOTATION], 'rebalance-web');
  const after = run(web, weighted, fresh.binding, [rebalancer]).scheduled;
  assert.is(after.result.status, 'Unchanged', 'an observed request is not carried out again');
  assert.is(after.rescheduledBy, undefined);
  assert.is(after.binding.metadata.annotations?.[OBSERVED_REBALANCERS_ANNOTATION], 'rebalance-web');
});

test.run();
