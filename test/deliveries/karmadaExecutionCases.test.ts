// Karmada's execution controller, case by case (pkg/controllers/execution/execution_controller_test.go,
// TestExecutionController_Reconcile): what happens on a member when a Work is deleted. Karmada deletes a Work when its
// template is deleted and when its cluster leaves the binding's result (binding controller removeOrphanWorks); the
// execution controller's handleWorkDelete then either deletes the member object or, when the Work says
// preserveResourcesOnDeletion (every Work of a binding that says so: binding/common.go ensureWork), leaves it and
// strips Karmada's claim labels and annotations from it (cleanupPolicyClaimMetadata). In Flotilla a Work deleted is a
// manifest gone from a cluster's folder. reconcileOnce (sync -> apply -> status) against two emulated members on
// loopback; the tests run in order and build on each other.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { reconcileOnce, type ReconcileResult } from '../../src/reconcile.ts';
import { clusterYaml } from '../helpers/fleet.ts';
import { startMemberFleet, type MemberFleet } from './helpers/e2e.ts';

let fleet: MemberFleet;

const configMap = (name: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n  app: ${name}\n`;
const policy = (
  name: string,
  configMaps: string[],
  clusters: string[],
  preserve: boolean,
  extra = '',
) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: ${name}, namespace: default}
spec:
  resourceSelectors:
${configMaps.map((cm) => `    - {apiVersion: v1, kind: ConfigMap, name: ${cm}}`).join('\n')}
  placement: {clusterAffinity: {clusterNames: [${clusters.join(', ')}]}}${preserve ? '\n  preserveResourcesOnDeletion: true' : ''}${extra}
`;
const BOTH = ['member1', 'member2'];

const pass = () =>
  reconcileOnce({
    repo: fleet.repo,
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
    clusters: fleet.kubes,
    render: true,
    log: () => undefined,
  });
const result = (r: ReconcileResult, cluster: string, name: string) =>
  r.delivery!.clusters.get(cluster)!.results.find((x) => x.ref.name === name);
type Live = { metadata: { labels?: Record<string, string>; annotations?: Record<string, string> } };
/** The ConfigMap as the member holds it; undefined when it is not there. */
const live = async (cluster: string, name: string): Promise<Live | undefined> => {
  const res = await fleet.kubes
    .get(cluster)!
    .request({ method: 'GET', path: `/api/v1/namespaces/default/configmaps/${name}` });
  return res.status === 200 ? (res.body as Live) : undefined;
};

// What cleanupPolicyClaimMetadata takes off a preserved object: the PropagationPolicy claim
// (detector.CleanupPPClaimMetadata), util.ManagedResourceLabels and util.ManagedResourceAnnotations.
const STRIPPED_LABELS = [
  'karmada.io/managed',
  'propagationpolicy.karmada.io/permanent-id',
  'resourcebinding.karmada.io/permanent-id',
  'work.karmada.io/permanent-id',
];
const STRIPPED_ANNOTATIONS = [
  'propagationpolicy.karmada.io/name',
  'propagationpolicy.karmada.io/namespace',
  'resourcebinding.karmada.io/name',
  'resourcebinding.karmada.io/namespace',
  'work.karmada.io/name',
  'work.karmada.io/namespace',
];

test.before(async () => {
  fleet = await startMemberFleet(
    BOTH,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'policies/kept.yaml': policy('kept', ['kept'], BOTH, true),
      'policies/narrowed.yaml': policy('narrowed', ['narrowed'], BOTH, true),
      'policies/others.yaml': policy('others', ['other1', 'other2', 'other3'], BOTH, false),
      'policies/held.yaml': policy('held', ['held'], BOTH, false),
      'templates/kept.yaml': configMap('kept'),
      'templates/narrowed.yaml': configMap('narrowed'),
      'templates/other1.yaml': configMap('other1'),
      'templates/other2.yaml': configMap('other2'),
      'templates/other3.yaml': configMap('other3'),
      'templates/held.yaml': configMap('held'),
    },
    'six ConfigMaps on both members, two of them preserved on deletion',
  );
  const first = await pass();
  for (const cluster of BOTH)
    for (const name of ['kept', 'narrowed', 'other1', 'held'])
      assert.is(result(first, cluster, name)?.action, 'created', `${name} on ${cluster}`);
  assert.is((await live('member1', 'kept'))?.metadata.labels?.['karmada.io/managed'], 'true');
});

test.after(async () => {
  await fleet?.cleanup();
});

// "PreserveResourcesOnDeletion=true, deletion timestamp set, does not delete resource": the object stays, and
// handleWorkDelete's cleanupPolicyClaimMetadata updates it without Karmada's claim labels and annotations, so nothing
// marks it as Karmada's any more.
test("a template deleted under preserveResourcesOnDeletion leaves its objects on the members, without Karmada's labels and annotations", async () => {
  fleet.config.commit({ 'templates/kept.yaml': null }, 'retire kept, keep it running');
  const r = await pass();
  for (const cluster of BOTH) {
    assert.not.ok(
      r.delivery!.clusters.get(cluster)!.results.some((x) => x.ref.name === 'kept' && x.action === 'pruned'),
      `kept is not pruned on ${cluster}`,
    );
    const obj = await live(cluster, 'kept');
    assert.ok(obj, `kept is still on ${cluster}`);
    const labels = obj.metadata.labels ?? {};
    const annotations = obj.metadata.annotations ?? {};
    assert.equal(
      [...STRIPPED_LABELS.filter((k) => k in labels), ...STRIPPED_ANNOTATIONS.filter((k) => k in annotations)],
      [],
      `Karmada's labels and annotations left on kept in ${cluster}`,
    );
  }
});

// The same case for the other way Karmada deletes a Work: its cluster left the binding's result. The orphan Work
// still says preserveResourcesOnDeletion, so handleWorkDelete leaves the object on member2.
test('a cluster leaving the placement of a policy with preserveResourcesOnDeletion keeps its object', async () => {
  fleet.config.commit(
    { 'policies/narrowed.yaml': policy('narrowed', ['narrowed'], ['member1'], true) },
    'narrowed only on member1',
  );
  const r = await pass();
  assert.ok(await live('member1', 'narrowed'), 'still applied on member1');
  assert.is.not(result(r, 'member2', 'narrowed')?.action, 'pruned');
  assert.ok(await live('member2', 'narrowed'), 'left on member2');
});

// "work dispatching is suspended, no error, no apply": the execution controller returns before syncing a suspended
// Work, whatever the member holds, so a change made on member2 meanwhile stays there until dispatching resumes.
test('while dispatching is suspended on a cluster, nothing is applied there: a change made on the member stays', async () => {
  fleet.config.commit(
    {
      'policies/held.yaml': policy(
        'held',
        ['held'],
        BOTH,
        false,
        '\n  suspension: {dispatchingOnClusters: {clusterNames: [member2]}}',
      ),
    },
    'dispatching of held suspended on member2',
  );
  await pass();
  const edited = await fleet.kubectl([
    '--context',
    'member2',
    'patch',
    'configmap',
    'held',
    '-n',
    'default',
    '--type',
    'merge',
    '-p',
    '{"data":{"app":"edited on member2"}}',
  ]);
  assert.is(edited.code, 0, edited.stderr);
  const r = await pass();
  const data = async (cluster: string) =>
    ((await live(cluster, 'held')) as { data?: Record<string, string> } | undefined)?.data?.app;
  assert.is(await data('member2'), 'edited on member2', `member2: ${result(r, 'member2', 'held')?.action}`);
  assert.is(await data('member1'), 'held');
  assert.ok(result(r, 'member2', 'held')?.live, 'its status is still read');
  // Resumed: the next pass puts back what Git says.
  fleet.config.commit({ 'policies/held.yaml': policy('held', ['held'], BOTH, false) }, 'dispatching resumed');
  await pass();
  assert.is(await data('member2'), 'held');
});

// "cluster(%s) not ready": Reconcile returns that error before syncWork when the Cluster's Ready condition is not True,
// so nothing reaches the member, each Work keeps the Applied condition it had, and the requeue syncs it once the
// cluster is Ready. Flotilla's Ready is the status branch's when the pass starts (no damping here: thresholds 0).
test('while its cluster is not Ready, nothing is sent there and its Works keep their Applied condition; the first pass after it is Ready applies', async () => {
  const undamped = () =>
    reconcileOnce({
      repo: fleet.repo,
      sourceRef: 'refs/heads/main',
      outputRef: 'refs/heads/flotilla/rendered',
      clusters: fleet.kubes,
      render: true,
      readyThresholds: { successMs: 0, failureMs: 0 },
      log: () => undefined,
    });
  const member2 = fleet.members[1]!;
  const ready = () =>
    (
      parse(fleet.config.git('show', 'flotilla/status:clusters/member2.yaml')) as {
        status: { conditions: { type: string; status: string }[] };
      }
    ).status.conditions.find((c) => c.type === 'Ready')?.status;
  const entry = (name: string) =>
    (
      parse(fleet.config.git('show', `flotilla/status:templates/default/configmap_${name}.yaml`)) as {
        aggregatedStatus: { clusterName: string; applied: boolean; message?: string }[];
      }
    ).aggregatedStatus.find((i) => i.clusterName === 'member2');
  const data = async (cluster: string, name: string) =>
    ((await live(cluster, name)) as { data?: Record<string, string> } | undefined)?.data?.app;

  await member2.faults.set({ readyzFalse: true });
  await undamped();
  assert.is(ready(), 'False');
  const edited = await fleet.kubectl([
    '--context',
    'member2',
    'patch',
    'configmap',
    'other1',
    '-n',
    'default',
    '--type',
    'merge',
    '-p',
    '{"data":{"app":"edited on member2"}}',
  ]);
  assert.is(edited.code, 0, edited.stderr);
  fleet.config.commit({ 'templates/other2.yaml': configMap('other2').replace('app: other2', 'app: v2') }, 'other2 v2');
  const r = await undamped();
  assert.is(r.delivery!.clusters.get('member2')!.writes, 0, 'nothing sent to member2');
  assert.is(await data('member2', 'other1'), 'edited on member2', 'the drift stays');
  assert.is(await data('member2', 'other2'), 'other2', 'the change waits');
  assert.is(await data('member1', 'other2'), 'v2', 'member1 is Ready: applied there');
  assert.match(result(r, 'member2', 'other2')!.message, /member2 is Ready=False/);
  assert.equal(entry('other2'), { clusterName: 'member2', applied: true, health: 'Healthy' }, 'Applied as it was');

  await member2.faults.set({ readyzFalse: false });
  await undamped();
  assert.is(ready(), 'True');
  await undamped();
  assert.is(await data('member2', 'other2'), 'v2');
  assert.is(await data('member2', 'other1'), 'other1', 'the drift is repaired');
  assert.equal(entry('other2'), { clusterName: 'member2', applied: true, health: 'Healthy' });
});

test.run();
