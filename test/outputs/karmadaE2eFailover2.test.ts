// Karmada's end-to-end scenarios for WorkloadRebalancer (test/e2e/suites/base/workloadrebalancer_test.go) and for
// seamless migration and rollback (migration_and_rollback_test.go), replayed as commits to a config repo rendered by
// syncRepo. Where Karmada's e2e reads the bindings, these read the rendered bindings; where it reads a member's object
// after an apply, these read what the applier is told: the conflict resolution of each manifest (planDelivery) and
// the objects released under preserveResourcesOnDeletion (.flotilla/released.json). The rebalancer's status
// (observedWorkloads) and its ttlSecondsAfterFinished clean-up are not reproduced (README).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse, stringify } from 'yaml';
import type { ObservedCluster } from '../../src/api/cluster.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { planDelivery } from '../../src/deliveries/planDelivery.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { at } from '../helpers/failoverState.ts';
import { clusterYaml, makeConfigRepoWith, RENDERED_REF, SOURCE_REF, type ConfigRepo } from '../helpers/fleet.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

type Obj = Record<string, unknown>;
const MEMBERS = {
  'clusters/member1.yaml': clusterYaml('member1'),
  'clusters/member2.yaml': clusterYaml('member2'),
  'clusters/member3.yaml': clusterYaml('member3'),
};
const TARGETS = ['member1', 'member2'];

/** testhelper.NewDeployment: 3 replicas of nginx:1.19.0 asking 10m CPU each; `spec` adds to its pod spec. */
const deployment = (name: string, podSpec: Obj = {}) =>
  stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'nginx' } },
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: {
          containers: [{ name: 'nginx', image: 'nginx:1.19.0', resources: { requests: { cpu: '10m' } } }],
          ...podSpec,
        },
      },
    },
  });
const clusterRole = (name: string) =>
  stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name } });

/** Free capacity on every member, as a status pass records it (the scheduler's estimate of available replicas). */
const capacity = (): Map<string, ObservedCluster> =>
  new Map(
    ['member1', 'member2', 'member3'].map((name) => [
      name,
      {
        status: {
          conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-11-29T14:00:00Z' }],
          apiEnablements: [
            {
              groupVersion: 'v1',
              resources: [
                { name: 'services', kind: 'Service' },
                { name: 'secrets', kind: 'Secret' },
              ],
            },
            { groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] },
            {
              groupVersion: 'rbac.authorization.k8s.io/v1',
              resources: [{ name: 'clusterroles', kind: 'ClusterRole' }],
            },
          ],
          resourceSummary: { allocatable: { cpu: '8', memory: '16Gi', pods: '110' } },
        },
      } as ObservedCluster,
    ]),
  );

async function repoWith(files: Record<string, string>) {
  const r = makeConfigRepoWith(repos, { ...MEMBERS, ...files }, 'base');
  const repo = await openRepo(r.dir);
  const sync = (s: number, clusterStatus = capacity()) =>
    syncRepo(repo, { sourceRef: SOURCE_REF, outputRef: RENDERED_REF, now: at(s), clusterStatus });
  const binding = (path: string) => parse(r.show('flotilla/rendered', path)) as Obj & { metadata: Obj; spec: Obj };
  return { r, repo, sync, binding };
}

// ---- WorkloadRebalancer ------------------------------------------------------------------------------------------

const DEPLOY_BINDING = 'bindings/default/deploy-deployment.yaml';
const ref = (kind: string, name: string, namespace?: string) => ({
  apiVersion: kind === 'Deployment' ? 'apps/v1' : 'rbac.authorization.k8s.io/v1',
  kind,
  name,
  ...(namespace ? { namespace } : {}),
});
const rebalancer = (workloads: Obj[], generation: number) =>
  stringify({
    apiVersion: 'apps.karmada.io/v1alpha1',
    kind: 'WorkloadRebalancer',
    metadata: { name: 'rebalancer', generation },
    spec: { workloads },
  });
const TAINT = 'workload-rebalancer-test';
/** The e2e's ClusterPropagationPolicy: deploy, deploy-3 and the ClusterRole on member1 and member2. */
const cpp = (replicaScheduling: Obj, tolerate: boolean) =>
  stringify({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterPropagationPolicy',
    metadata: { name: 'cpp' },
    spec: {
      resourceSelectors: [
        ref('Deployment', 'deploy', 'default'),
        ref('Deployment', 'deploy-3', 'default'),
        ref('ClusterRole', 'role'),
      ],
      placement: {
        clusterAffinity: { clusterNames: TARGETS },
        replicaScheduling,
        ...(tolerate
          ? { clusterTolerations: [{ key: TAINT, effect: 'NoExecute', operator: 'Exists', tolerationSeconds: 0 }] }
          : {}),
      },
    },
  });
const REBALANCER_FILES = {
  'templates/deploy.yaml': deployment('deploy'),
  'templates/deploy-3.yaml': deployment('deploy-3'),
  'templates/role.yaml': clusterRole('role'),
};

const names = (b: { spec: Obj }) =>
  ((b.spec.clusters as { name: string }[] | undefined) ?? []).map((c) => c.name).sort();
const observed = (b: { metadata: Obj }) =>
  (b.metadata.annotations as Record<string, string> | undefined)?.['flotilla.io/observed-rebalancers'];

/** The ClusterResourceBinding of the ClusterRole, wherever the rendered branch keeps it. */
const roleBindingPath = (r: ConfigRepo) =>
  r.ls('flotilla/rendered').find((p) => /^bindings\/.*role-clusterrole/.test(p))!;

/**
 * Steps 1-3 of the dynamic and static weight scenarios: first schedule over both targets, member1 tainted NoExecute
 * (tolerated 0 s) so everything goes to member2, the eviction done and the taint removed, then a WorkloadRebalancer
 * listing deploy, the ClusterRole and a Deployment that does not exist.
 */
async function taintThenRebalance(replicaScheduling: Obj) {
  const s = await repoWith({ ...REBALANCER_FILES, 'policies/cpp.yaml': cpp(replicaScheduling, true) });
  await s.sync(0);
  assert.equal(names(s.binding(DEPLOY_BINDING)), TARGETS, 'first schedule over both target clusters');
  for (const c of TARGETS)
    assert.ok(
      s.r.ls('flotilla/rendered').includes(`clusters/${c}/_cluster/clusterrole.rbac.authorization.k8s.io_role.yaml`),
      c,
    );

  s.r.commit(
    {
      'clusters/member1.yaml': clusterYaml('member1', {
        taints: `\n  taints:\n    - {key: ${TAINT}, effect: NoExecute, timeAdded: "2026-11-29T15:00:10Z"}`,
      }),
    },
    'taint member1',
  );
  await s.sync(10);
  assert.equal(names(s.binding(DEPLOY_BINDING)), ['member2'], 'evicted from the tainted cluster');
  await s.sync(10 + 601);
  assert.is(s.binding(DEPLOY_BINDING).spec.gracefulEvictionTasks, undefined, 'graceful eviction tasks done');
  s.r.commit({ 'clusters/member1.yaml': clusterYaml('member1') }, 'untaint member1');
  await s.sync(700);
  assert.equal(names(s.binding(DEPLOY_BINDING)), ['member2'], 'Divided replicas stay where they are');

  s.r.commit(
    {
      'rebalancers/rebalancer.yaml': rebalancer(
        [ref('Deployment', 'deploy', 'default'), ref('ClusterRole', 'role'), ref('Deployment', 'deploy-2', 'default')],
        1,
      ),
    },
    'rebalance',
  );
  await s.sync(710);
  assert.equal(names(s.binding(DEPLOY_BINDING)), TARGETS, 'rescheduled back over both target clusters');
  assert.match(observed(s.binding(DEPLOY_BINDING)) ?? '', /rebalancer/, 'deploy rescheduled');
  assert.match(observed(s.binding(roleBindingPath(s.r))) ?? '', /rebalancer/, 'the ClusterRole rescheduled');
  return s;
}

/** Step 4: the rebalancer lists the ClusterRole and deploy-3 instead (its generation moves, as the API server's does). */
async function editRebalancer(s: Awaited<ReturnType<typeof repoWith>>) {
  s.r.commit(
    {
      'rebalancers/rebalancer.yaml': rebalancer(
        [ref('ClusterRole', 'role'), ref('Deployment', 'deploy-3', 'default')],
        2,
      ),
    },
    'edit rebalancer',
  );
  await s.sync(800);
  assert.match(
    observed(s.binding('bindings/default/deploy-3-deployment.yaml')) ?? '',
    /rebalancer/,
    'the newly listed workload is rescheduled',
  );
}

// workloadrebalancer_test.go, "dynamic weight schedule type" / "reschedule when policy is dynamic weight schedule type"
test('dynamic weight: a workload squeezed onto one cluster by a taint spreads again over both once a WorkloadRebalancer lists it', async () => {
  const s = await taintThenRebalance({
    replicaSchedulingType: 'Divided',
    replicaDivisionPreference: 'Weighted',
    weightPreference: { dynamicWeight: 'AvailableReplicas' },
  });
  await editRebalancer(s);
});

// "static weight schedule type" / "reschedule when policy is static weight schedule type"
test('static weight 2:1: after a taint moved everything to member2, a WorkloadRebalancer restores the 2:1 split', async () => {
  const s = await taintThenRebalance({
    replicaSchedulingType: 'Divided',
    replicaDivisionPreference: 'Weighted',
    weightPreference: {
      staticWeightList: [
        { targetCluster: { clusterNames: ['member1'] }, weight: 2 },
        { targetCluster: { clusterNames: ['member2'] }, weight: 1 },
      ],
    },
  });
  assert.equal(s.binding(DEPLOY_BINDING).spec.clusters, [
    { name: 'member1', replicas: 2 },
    { name: 'member2', replicas: 1 },
  ]);
  await editRebalancer(s);
});

// workloadrebalancer_controller.go finds each entry's binding by names.GenerateBindingName(kind, name) in its
// namespace: the kind lowercased, the apiVersion not read.
test('a WorkloadRebalancer entry names its workload as Karmada looks up the binding: kind in any case, any apiVersion', async () => {
  const s = await repoWith({
    ...REBALANCER_FILES,
    'policies/cpp.yaml': cpp({ replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' }, false),
  });
  await s.sync(0);
  assert.is(observed(s.binding(DEPLOY_BINDING)), undefined);
  s.r.commit(
    {
      'rebalancers/rebalancer.yaml': rebalancer(
        [{ apiVersion: 'apps/v1beta2', kind: 'deployment', name: 'deploy', namespace: 'default' }],
        1,
      ),
    },
    'rebalance, kind written in lower case',
  );
  await s.sync(10);
  assert.is(observed(s.binding(DEPLOY_BINDING)), 'rebalancer');
  assert.match(s.r.git('log', '-1', '--format=%B', 'flotilla/rendered'), /Rescheduled in fresh mode/);
});

// "aggregated schedule type" / "reschedule when policy is aggregated schedule type"
test('aggregated: the workload sits on one target cluster; a WorkloadRebalancer reschedules it and the ClusterRole', async () => {
  const s = await repoWith({
    ...REBALANCER_FILES,
    'policies/cpp.yaml': cpp({ replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' }, false),
  });
  await s.sync(0);
  const first = names(s.binding(DEPLOY_BINDING));
  assert.is(first.length, 1);
  assert.ok(TARGETS.includes(first[0]!));
  s.r.commit(
    {
      'rebalancers/rebalancer.yaml': rebalancer(
        [ref('Deployment', 'deploy', 'default'), ref('ClusterRole', 'role'), ref('Deployment', 'deploy-2', 'default')],
        1,
      ),
    },
    'rebalance',
  );
  await s.sync(10);
  assert.match(observed(s.binding(DEPLOY_BINDING)) ?? '', /rebalancer/);
  assert.match(observed(s.binding(roleBindingPath(s.r))) ?? '', /rebalancer/);
  assert.is(names(s.binding(DEPLOY_BINDING)).length, 1, 'still aggregated on one cluster');
  await editRebalancer(s);
});

// ---- seamless migration and rollback -----------------------------------------------------------------------------

const pp = (name: string, kind: string, apiVersion: string, spec: Obj = {}, cluster = false) =>
  stringify({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: cluster ? 'ClusterPropagationPolicy' : 'PropagationPolicy',
    metadata: { name, ...(cluster ? {} : { namespace: 'default' }) },
    spec: {
      resourceSelectors: [{ apiVersion, kind, name }],
      placement: { clusterAffinity: { clusterNames: ['member1'] } },
      ...spec,
    },
  });
const MIGRATE = { conflictResolution: 'Overwrite', preserveResourcesOnDeletion: true };

/** What the applier of `cluster` is told for each manifest: name → conflict resolution. */
function resolutions(r: ConfigRepo, cluster: string): Record<string, string> {
  const manifests = new Map<string, unknown>(
    r
      .ls('flotilla/rendered')
      .filter((p) => p.startsWith(`clusters/${cluster}/`))
      .map((p) => [p, parse(r.show('flotilla/rendered', p))]),
  );
  return Object.fromEntries(
    planDelivery({ manifests, inventory: [], prune: false })
      .rest.concat(planDelivery({ manifests, inventory: [], prune: false }).namespaces)
      .map((o) => [`${o.ref.kind}/${o.ref.name}`, o.conflictResolution]),
  );
}
const released = (r: ConfigRepo): Record<string, string[]> => {
  const text = r.ls('flotilla/rendered').includes('.flotilla/released.json')
    ? r.show('flotilla/rendered', '.flotilla/released.json')
    : '';
  return text ? (JSON.parse(text) as Record<string, string[]>) : {};
};
const onMember1 = (r: ConfigRepo, file: string) => r.ls('flotilla/rendered').includes(`clusters/member1/${file}`);

// migration_and_rollback_test.go, "Test migrate namespaced resource: Deployment" / "Verify migrate a Deployment from member cluster"
test('migrating a Deployment: Abort until the policy says Overwrite; deleting the template then releases it on member1', async () => {
  const s = await repoWith({
    'templates/web.yaml': deployment('web'),
    'policies/web.yaml': pp('web', 'Deployment', 'apps/v1'),
  });
  await s.sync(0);
  assert.is(resolutions(s.r, 'member1')['Deployment/web'], 'abort', 'the existing member object is not taken');
  s.r.commit({ 'policies/web.yaml': pp('web', 'Deployment', 'apps/v1', MIGRATE) }, 'Overwrite, preserve');
  await s.sync(10);
  assert.is(resolutions(s.r, 'member1')['Deployment/web'], 'overwrite');
  assert.is(s.binding('bindings/default/web-deployment.yaml').spec.preserveResourcesOnDeletion, true);
  s.r.commit({ 'templates/web.yaml': null }, 'delete the template');
  await s.sync(20);
  assert.not.ok(onMember1(s.r, 'default/deployment.apps_web.yaml'), 'the Work is gone');
  assert.equal(released(s.r).member1?.filter((k) => k.includes('web')).length, 1, 'left on member1, released');
});

// "Test migrate cluster resources: ClusterRole" / "Verify migrate a ClusterRole from member cluster"
test('migrating a ClusterRole under a ClusterPropagationPolicy with Overwrite: taken over, then released when deleted', async () => {
  const s = await repoWith({
    'templates/role.yaml': clusterRole('role'),
    'policies/role.yaml': pp('role', 'ClusterRole', 'rbac.authorization.k8s.io/v1', MIGRATE, true),
  });
  await s.sync(0);
  assert.is(resolutions(s.r, 'member1')['ClusterRole/role'], 'overwrite');
  s.r.commit({ 'templates/role.yaml': null }, 'delete the template');
  await s.sync(10);
  assert.not.ok(onMember1(s.r, '_cluster/clusterrole.rbac.authorization.k8s.io_role.yaml'));
  assert.equal(released(s.r).member1?.filter((k) => k.includes('role')).length, 1);
});

// "Test migrate namespaced resource: Service (ClusterIP)" / "Verify migrate a Service from member cluster"
test('migrating a ClusterIP Service with Overwrite: taken over, then released when deleted', async () => {
  const service = stringify({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'svc', namespace: 'default' },
    spec: { type: 'ClusterIP', selector: { app: 'nginx' }, ports: [{ port: 80, targetPort: 8080 }] },
  });
  const s = await repoWith({
    'templates/svc.yaml': service,
    'policies/svc.yaml': pp('svc', 'Service', 'v1', MIGRATE),
  });
  await s.sync(0);
  assert.is(resolutions(s.r, 'member1')['Service/svc'], 'overwrite');
  s.r.commit({ 'templates/svc.yaml': null }, 'delete the template');
  await s.sync(10);
  assert.not.ok(onMember1(s.r, 'default/service_svc.yaml'));
  assert.equal(released(s.r).member1?.filter((k) => k.includes('svc')).length, 1);
});

// "Test migrate dependent resource" / "Verify migrate a dependent secret from member cluster"
test('a Secret the Deployment mounts follows it with Overwrite, and is released on member1 when its template is deleted', async () => {
  const secret = stringify({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'sec', namespace: 'default' },
    data: { test: 'dGVzdA==' },
  });
  const s = await repoWith({
    'templates/sec.yaml': secret,
    'templates/web.yaml': deployment('web', { volumes: [{ name: 'sec', secret: { secretName: 'sec' } }] }),
    'policies/web.yaml': pp('web', 'Deployment', 'apps/v1', { propagateDeps: true, ...MIGRATE }),
  });
  await s.sync(0);
  const r = resolutions(s.r, 'member1');
  assert.is(r['Secret/sec'], 'overwrite', 'the dependent Secret is applied with Overwrite');
  assert.is(r['Deployment/web'], 'overwrite');
  s.r.commit({ 'templates/sec.yaml': null }, 'delete the secret template');
  await s.sync(10);
  assert.not.ok(onMember1(s.r, 'default/secret_sec.yaml'));
  assert.equal(released(s.r).member1?.filter((k) => k.includes('sec')).length, 1, 'the Secret is preserved');
});

test.run();
