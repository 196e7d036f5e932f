// Karmada's WorkloadRebalancer controller, case by case (pkg/controllers/workloadrebalancer/
// workloadrebalancer_controller_test.go at f8fdd02, TestRebalancerController_Reconcile): which listed workloads are
// scheduled afresh, once, and which are left alone. Karmada marks each listed workload's binding with
// rescheduleTriggeredAt; Flotilla records the request as observed in the binding. The expectations are Karmada's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding } from '../../src/api/binding.ts';
import type { Template } from '../../src/api/model.ts';
import type { PropagationPolicy } from '../../src/api/policy.ts';
import type { WorkloadRebalancer } from '../../src/api/rebalancer.ts';
import { pendingRequests, requestsFor } from '../../src/assignments/rebalanceRequests.ts';
import { scheduleBinding } from '../../src/assignments/scheduleBinding.ts';
import { claimTemplate, type ClaimedBinding } from '../../src/bindings/claimTemplate.ts';
import { clustersOf, deployment, memberCluster, modelOf, templateOf } from '../helpers/inMemoryModel.ts';

type Workload = WorkloadRebalancer['spec']['workloads'][number];

const rebalancer = (name: string, workloads: Workload[], generation?: number): WorkloadRebalancer => ({
  apiVersion: 'apps.karmada.io/v1alpha1',
  kind: 'WorkloadRebalancer',
  metadata: { name, ...(generation !== undefined ? { generation } : {}) },
  spec: { workloads },
});

const inTestNs = (name: string): Template =>
  templateOf(
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: 'test-ns' },
      spec: { replicas: 4, template: { spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } },
    },
    `templates/${name}.yaml`,
  );
const ref = (t: Template): Workload => ({
  apiVersion: t.ref.apiVersion,
  kind: t.ref.kind,
  name: t.ref.name,
  ...(t.ref.namespace ? { namespace: t.ref.namespace } : {}),
});

const deploy1 = inTestNs('test-1');
const deploy2 = inTestNs('test-2'); // never in the model: Karmada's "binding not found"
const deploy3 = inTestNs('test-3');
const clusterRole = templateOf(
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'test-cluster-role' } },
  'templates/role.yaml',
  true,
);

/** A ClusterPropagationPolicy that divides every listed kind over member1 and member2 by static weights 1:3. */
const cpp = (kinds: { apiVersion: string; kind: string }[]) => ({
  object: {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterPropagationPolicy',
    metadata: { name: 'everything' },
    spec: {
      resourceSelectors: kinds,
      placement: {
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
      },
    },
  } as PropagationPolicy,
  source: { file: 'policies/everything.yaml', line: 1, column: 1 },
});

/** Claims and schedules `template`; previous is the binding the last render wrote. */
function schedule(template: Template, rebalancers: WorkloadRebalancer[], previous?: ResourceBinding) {
  const model = modelOf({
    templates: [template],
    policies: [cpp([{ apiVersion: template.ref.apiVersion, kind: template.ref.kind }])],
    clusters: [memberCluster('member1'), memberCluster('member2')],
  });
  const claim = claimTemplate(template, model, previous) as ClaimedBinding;
  const previousResult = { clusters: previous?.spec.clusters ?? [], tasks: [] };
  return scheduleBinding(template, claim, previous, previousResult, clustersOf(model), rebalancers);
}

// "reconcile pendingRebalancer": deploy2 (listed first, no binding) fails as not found and takes nothing with it;
// deploy1 is rescheduled.
test('a pending rebalancer reschedules the listed workload that exists; one that does not exist stops nothing', () => {
  const first = schedule(deploy1, []).binding;
  const pending = rebalancer('rebalancer-with-pending-workloads', [ref(deploy2), ref(deploy1)]);
  const fresh = schedule(deploy1, [pending], first);
  assert.is(fresh.result.status, 'Scheduled');
  assert.equal(fresh.rescheduledBy, ['rebalancer-with-pending-workloads']);
  assert.equal(requestsFor(deploy3.ref, [pending]), [], 'a workload it does not list is not touched');
});

// "reconcile notFoundRebalancer": a rebalancer whose only workload has no binding changes no other binding.
test('a rebalancer naming only a workload that does not exist requests nothing of any other', () => {
  const notFound = rebalancer('rebalancer-with-workloads-whose-binding-not-found', [ref(deploy2)]);
  assert.equal(requestsFor(deploy1.ref, [notFound]), []);
  const b = schedule(deploy1, []).binding;
  const again = schedule(deploy1, [notFound], b);
  assert.is(again.rescheduledBy, undefined);
  assert.is(again.result.status, 'Unchanged');
});

// "reconcile failedRebalancer": a workload whose reschedule did not go through is retried until it does.
test('a request not carried out yet stays pending, and is carried out by the next schedule', () => {
  const failed = rebalancer('rebalancer-with-failed-workloads', [ref(deploy1)]);
  const before = schedule(deploy1, []).binding;
  assert.equal(pendingRequests(requestsFor(deploy1.ref, [failed]), before), ['rebalancer-with-failed-workloads']);
  const fresh = schedule(deploy1, [failed], before);
  assert.equal(fresh.rescheduledBy, ['rebalancer-with-failed-workloads']);
  assert.equal(pendingRequests(requestsFor(deploy1.ref, [failed]), fresh.binding), []);
});

// "reconcile modifiedRebalancer": the spec went from [deploy1, deploy2] to [deploy3]. deploy3, newly listed, is
// rescheduled; deploy1, done before and no longer listed, is not rescheduled again.
test('an edited rebalancer reschedules the newly listed workload, not the one it no longer lists', () => {
  const before = rebalancer('rebalancer-which-experienced-modification', [ref(deploy1), ref(deploy2)], 1);
  const after = rebalancer('rebalancer-which-experienced-modification', [ref(deploy3)], 2);
  const d1 = schedule(deploy1, [before], schedule(deploy1, []).binding);
  assert.ok(d1.rescheduledBy, 'deploy1 was rescheduled by the first version');
  const d1Later = schedule(deploy1, [after], d1.binding);
  assert.is(d1Later.rescheduledBy, undefined);
  assert.is(d1Later.result.status, 'Unchanged');
  const d3 = schedule(deploy3, [after], schedule(deploy3, []).binding);
  assert.is(d3.result.status, 'Scheduled');
  assert.equal(d3.rescheduledBy, ['rebalancer-which-experienced-modification']);
});

// "reconcile cluster-wide resource rebalancer": a workload listed without a namespace is a cluster-scoped object
// (workloadrebalancer_types.go ObjectReference.Namespace: "Default is empty, which means it is a non-namespacescoped
// resource"); its ClusterResourceBinding is rescheduled.
test('a workload listed without a namespace is a cluster-scoped object: its ClusterResourceBinding is rescheduled', () => {
  const clusterWide = rebalancer('cluster-rebalancer', [ref(clusterRole)]);
  assert.equal(requestsFor(clusterRole.ref, [clusterWide]), ['cluster-rebalancer']);
  const first = schedule(clusterRole, []).binding;
  assert.is(first.kind, 'ClusterResourceBinding');
  const again = schedule(clusterRole, [clusterWide], first);
  assert.equal(again.rescheduledBy, ['cluster-rebalancer']);
});

// The same case, read the other way: workloadrebalancer_controller.go triggerReschedule looks an entry without a
// namespace up as a ClusterResourceBinding. A namespaced Deployment listed without its namespace has none, so the
// entry fails with ObjectNotFound and no ResourceBinding (default's included) is rescheduled.
test('a namespaced Deployment listed without its namespace is not found, and default/web is not rescheduled', () => {
  const web = deployment('web', 4);
  const noNamespace = rebalancer('rebalance-web', [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }]);
  assert.equal(requestsFor(web.ref, [noNamespace]), []);
  const first = schedule(web, []).binding;
  assert.is(schedule(web, [noNamespace], first).rescheduledBy, undefined);
});

// Karmada's triggerReschedule skips a workload whose result is Successful already, and needTriggerReschedule compares
// the rebalancer's creationTimestamp, which an edit keeps: a workload is rescheduled once per rebalancer.
test('an edited rebalancer that lists one more workload reschedules only the one it adds', () => {
  const first = rebalancer('grow', [ref(deploy1)], 1);
  const grown = rebalancer('grow', [ref(deploy1), ref(deploy3)], 2);
  const d1 = schedule(deploy1, [first], schedule(deploy1, []).binding);
  assert.equal(d1.rescheduledBy, ['grow']);
  const d1Later = schedule(deploy1, [grown], d1.binding);
  assert.is(d1Later.rescheduledBy, undefined);
  assert.is(d1Later.result.status, 'Unchanged');
  const d3 = schedule(deploy3, [grown], schedule(deploy3, []).binding);
  assert.equal(d3.rescheduledBy, ['grow']);
});

test('a binding that recorded a request as name@generation has observed that rebalancer', () => {
  const before = schedule(deploy1, []).binding;
  const recorded = {
    ...before,
    metadata: {
      ...before.metadata,
      annotations: { ...before.metadata.annotations, 'flotilla.io/observed-rebalancers': 'grow@1' },
    },
  };
  assert.equal(pendingRequests(requestsFor(deploy1.ref, [rebalancer('grow', [ref(deploy1)], 3)]), recorded), []);
});

test.run();
