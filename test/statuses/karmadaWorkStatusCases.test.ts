// A template's per-cluster status, its FullyApplied condition and its aggregated status as Karmada's work status
// controller and status helpers build them (cases after pkg/util/helper/workstatus_test.go, job_test.go, pod_test.go
// and pkg/controllers/status/work_status_controller_test.go), through the status branch's pure builders.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { ClusterDelivery } from '../../src/deliveries/applyRendered.ts';
import type { ApplyResult } from '../../src/deliveries/types.ts';
import { asKarmadaStatusItem, templateStatusPath } from '../../src/branches/status/statusFiles.ts';
import { aggregateStatus, fullyApplied } from '../../src/interpreters/aggregateStatus.ts';
import { interpretDependencies } from '../../src/interpreters/interpretDependencies.ts';
import { buildStatusFiles, type ClusterReport } from '../../src/statuses/buildStatusFiles.ts';
import { interpretHealth } from '../../src/statuses/interpretHealth.ts';

const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'test-deployment' };
const PATH = templateStatusPath(deployment);
const now = new Date('2026-01-02T03:04:05Z');
const liveDeployment = (ready: number) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'test-deployment', namespace: 'default', generation: 1 },
  spec: { replicas: 3 },
  status: { observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: ready, availableReplicas: ready },
});
const report = (cluster: string, results: ApplyResult[]): ClusterReport => ({
  cluster,
  delivery: {
    cluster,
    results,
    inventory: results.map((r) => r.ref),
    previousInventory: [],
    writes: 0,
    notes: [],
    durationMs: 0,
  } satisfies ClusterDelivery,
});
const fileOf = (edits: Map<string, string | null>) => parse(edits.get(PATH)!);

// workstatus_test.go, TestGenerateFullyAppliedCondition.
test('an applied member whose health is Unknown still counts towards FullyApplied; a target without status keeps it False', () => {
  const targets = new Set(['cluster1', 'cluster2']);
  const statuses = [
    { clusterName: 'cluster1', applied: true, health: 'Healthy' as const },
    { clusterName: 'cluster2', applied: true, health: 'Unknown' as const },
  ];
  const full = fullyApplied(statuses, targets);
  assert.is(full.status, 'True');
  assert.is(full.reason, 'FullyAppliedSuccess');
  assert.is(full.message, 'All works have been successfully applied');
  const partial = fullyApplied(statuses.slice(0, 1), targets);
  assert.is(partial.status, 'False');
  assert.is(partial.reason, 'FullyAppliedFailed');
});

// workstatus_test.go, TestAssembleWorkStatus ("work applied successfully with health status", "work not applied with
// error message") and TestAggregateClusterResourceBindingWorkStatus ("multiple clusters with mixed status").
test('a member that applied carries its reflected status and health; one that failed is not applied, Unknown, with the reason', () => {
  const edits = buildStatusFiles(
    new Map(),
    [
      report('member2', [{ ref: deployment, action: 'failed', message: 'Failed to apply' }]),
      report('member1', [{ ref: deployment, action: 'created', message: 'created', live: liveDeployment(3) }]),
    ],
    now,
    undefined,
    undefined,
    () => new Set(['member1', 'member2']),
  );
  const file = fileOf(edits);
  assert.equal(
    file.aggregatedStatus.map((i: { clusterName: string }) => i.clusterName),
    ['member1', 'member2'],
    'sorted by cluster name',
  );
  const [m1, m2] = file.aggregatedStatus;
  assert.is(m1.applied, true);
  assert.is(m1.health, 'Healthy');
  assert.is(m1.status.replicas, 3);
  assert.is(m2.applied, false);
  assert.is(m2.health, 'Unknown');
  assert.is(m2.status, undefined);
  assert.match(m2.message, 'Failed to apply');
  assert.is(file.conditions[0].status, 'False');
  // The template status sums only what members reflected.
  assert.is(file.status.replicas, 3);
});

// workstatus_test.go, TestAssembleWorkStatus: an applied Work with no manifest status yet ("resources with no
// status, only record whether the propagation is successful in work").
test('an object applied but not yet read back is applied with Unknown health and no status', () => {
  const edits = buildStatusFiles(
    new Map(),
    [report('member1', [{ ref: deployment, action: 'created', message: 'created' }])],
    now,
    undefined,
    undefined,
    () => new Set(['member1']),
  );
  const file = fileOf(edits);
  assert.equal(file.aggregatedStatus, [{ clusterName: 'member1', applied: true, health: 'Unknown' }]);
  assert.is(file.conditions[0].status, 'True');
});

// workstatus.go assembleWorkStatus: a Work with no Applied condition yet (made by the binding controller, not yet synced
// by the execution controller) is listed not applied, health Unknown, with no appliedMessage; a Work deleted with its
// cluster's place in the binding is not listed.
test('a target that has reported nothing yet is listed not applied, Unknown, without a message, and goes when untargeted', () => {
  const first = buildStatusFiles(
    new Map(),
    [report('member1', [{ ref: deployment, action: 'created', message: 'created' }])],
    now,
    undefined,
    undefined,
    () => new Set(['member1', 'member2']),
  );
  const file = fileOf(first);
  assert.equal(file.aggregatedStatus, [
    { clusterName: 'member1', applied: true, health: 'Unknown' },
    { clusterName: 'member2', applied: false, health: 'Unknown' },
  ]);
  assert.is(file.conditions[0].status, 'False');
  const existing = new Map([[PATH, first.get(PATH)!]]);
  // member2 no longer targeted: its Work is gone, so is its line; member1 alone is fully applied.
  const untargeted = fileOf(
    buildStatusFiles(
      existing,
      [report('member1', [{ ref: deployment, action: 'unchanged', message: 'unchanged' }])],
      now,
      undefined,
      undefined,
      () => new Set(['member1']),
    ),
  );
  assert.equal(
    untargeted.aggregatedStatus.map((i: { clusterName: string }) => i.clusterName),
    ['member1'],
  );
  assert.is(untargeted.conditions[0].status, 'True');
  // member2 then found not answering: the line says why, as Karmada's Work does, in client-go's words for the request.
  const down = 'cluster member2 did not answer after 5 attempts: ECONNREFUSED';
  const refused = 'Get "https://127.0.0.1:6443/apis/apps/v1": dial tcp 127.0.0.1:6443: connect: connection refused';
  const unanswered = fileOf(
    buildStatusFiles(
      existing,
      [report('member2', [{ ref: deployment, action: 'failed', message: down, error: refused, unreachable: true }])],
      now,
      undefined,
      undefined,
      () => new Set(['member1', 'member2']),
    ),
  );
  assert.equal(unanswered.aggregatedStatus[1], {
    clusterName: 'member2',
    applied: false,
    health: 'Unknown',
    message: refused,
  });
});

// work_status_controller_test.go, TestWorkStatusController_syncWorkStatus ("happy path updates work
// ManifestStatuses") and TestWorkStatusController_Reconcile ("work's status is not applied"): a later read of the
// member object updates the status and health of what was applied, and a Work that did not apply stays not applied.
test('a status pass refreshes the status and health of applied entries only; a failed entry stays not applied', () => {
  const first = buildStatusFiles(
    new Map(),
    [
      report('member1', [{ ref: deployment, action: 'created', message: 'created', live: liveDeployment(0) }]),
      report('member2', [{ ref: deployment, action: 'failed', message: 'Failed to apply' }]),
    ],
    now,
  );
  const before = fileOf(first);
  assert.is(before.aggregatedStatus[0].health, 'Unhealthy');
  const existing = new Map([[PATH, first.get(PATH)!]]);
  const later = buildStatusFiles(
    existing,
    [
      { cluster: 'member1', observed: [{ ref: deployment, live: liveDeployment(3) }] },
      { cluster: 'member2', observed: [{ ref: deployment, live: liveDeployment(3) }] },
    ],
    new Date('2026-01-02T03:05:05Z'),
  );
  const after = fileOf(later);
  assert.is(after.aggregatedStatus[0].health, 'Healthy');
  assert.is(after.aggregatedStatus[0].status.readyReplicas, 3);
  assert.is(after.aggregatedStatus[1].applied, false);
  assert.is(after.aggregatedStatus[1].health, 'Unknown');
  assert.is(after.aggregatedStatus[1].status, undefined);
  assert.is(after.status.readyReplicas, 3);
});

// execution_controller.go Reconcile: a Work on a member that is not ready is not synced, and one it did sync keeps its
// Applied condition; work_status_controller.go reads nothing from such a member. The binding keeps the Work's item.
test('an apply pass that finds a member not answering leaves what it last reported: applied, health, status, FullyApplied', () => {
  const targets = () => new Set(['member1', 'member2']);
  const first = buildStatusFiles(
    new Map(),
    [
      report('member1', [{ ref: deployment, action: 'created', message: 'created', live: liveDeployment(3) }]),
      report('member2', [{ ref: deployment, action: 'created', message: 'created', live: liveDeployment(3) }]),
    ],
    now,
    undefined,
    undefined,
    targets,
  );
  const before = first.get(PATH)!;
  const down = 'cluster member2 did not answer after 5 attempts: ECONNREFUSED';
  const later = buildStatusFiles(
    new Map([[PATH, before]]),
    [
      report('member1', [{ ref: deployment, action: 'unchanged', message: 'unchanged', live: liveDeployment(3) }]),
      report('member2', [{ ref: deployment, action: 'failed', message: down, unreachable: true }]),
    ],
    new Date('2026-01-02T03:09:05Z'),
    undefined,
    undefined,
    targets,
  );
  assert.is(later.has(PATH), false, 'the template status stays byte for byte');
  // A Work the member never got, on a member that does not answer, is not applied.
  const fresh = fileOf(
    buildStatusFiles(
      new Map(),
      [report('member2', [{ ref: deployment, action: 'failed', message: down, unreachable: true }])],
      now,
    ),
  );
  assert.equal(fresh.aggregatedStatus, [
    { clusterName: 'member2', applied: false, health: 'Unknown', message: `failed: ${down}` },
  ]);
});

// execution_controller.go Reconcile: a Work on a cluster that is not Ready is not synced at all ("cluster(%s) not
// ready"), so it has no Applied condition, and assembleWorkStatus lists it not applied, Unknown, with no
// appliedMessage. A cluster still Ready whose member stops answering did try, and its apply failed.
test('a member not Ready that never got the object is listed not applied with no message; FullyApplied stays False', () => {
  const down = 'cluster member2 did not answer after 5 attempts: ECONNREFUSED';
  const unanswered = (notReady: boolean): ClusterReport => {
    const r = report('member2', [{ ref: deployment, action: 'failed', message: down, unreachable: true }]);
    return notReady ? { ...r, delivery: { ...r.delivery!, notReady: true } } : r;
  };
  const targets = () => new Set(['member1', 'member2']);
  const reached = report('member1', [
    { ref: deployment, action: 'created', message: 'created', live: liveDeployment(3) },
  ]);
  const notReady = fileOf(buildStatusFiles(new Map(), [reached, unanswered(true)], now, undefined, undefined, targets));
  assert.equal(notReady.aggregatedStatus[1], { clusterName: 'member2', applied: false, health: 'Unknown' });
  assert.is(notReady.conditions[0].status, 'False');
  assert.is(notReady.conditions[0].reason, 'FullyAppliedFailed');
  const ready = fileOf(buildStatusFiles(new Map(), [reached, unanswered(false)], now, undefined, undefined, targets));
  assert.is(ready.aggregatedStatus[1].applied, false);
  assert.match(ready.aggregatedStatus[1].message, down);
});

// execution_controller.go syncToClusters: a Work whose manifest the member refused has Applied False with "Failed to
// apply all manifests (0/1): " and the error, client-go's text of the member's Status; assembleWorkStatus copies that
// message into the binding's appliedMessage.
test("a refused apply records the member's own words, which the binding's appliedMessage quotes as Karmada's does", () => {
  const refusal =
    'Deployment.apps "test-deployment" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0';
  const edits = buildStatusFiles(
    new Map(),
    [
      report('member1', [
        {
          ref: deployment,
          action: 'failed',
          message: `server-side apply failed: HTTP 422: ${refusal}`,
          error: refusal,
        },
      ]),
    ],
    now,
  );
  const [item] = fileOf(edits).aggregatedStatus;
  assert.equal(item, { clusterName: 'member1', applied: false, health: 'Unknown', message: refusal });
  assert.equal(asKarmadaStatusItem(item), {
    clusterName: 'member1',
    appliedMessage: `Failed to apply all manifests (0/1): ${refusal}`,
    health: 'Unknown',
  });
});

// execution_controller.go Reconcile returns before syncing a Work whose dispatching is suspended, so its Applied
// condition stays and a member object deleted by hand is not re-created; work_status_controller.go syncWorkStatus
// returns on NotFound, so the manifest status stays the last reflected one.
test('a suspended member keeps whether it applied; its status follows the object, and stays when the object is gone', () => {
  const first = buildStatusFiles(
    new Map(),
    [
      report('member1', [{ ref: deployment, action: 'created', message: 'created', live: liveDeployment(3) }]),
      report('member2', [{ ref: deployment, action: 'failed', message: 'Failed to apply' }]),
    ],
    now,
  );
  const suspended = (live?: Record<string, unknown>): ApplyResult => ({
    ref: deployment,
    action: 'unchanged',
    message: 'dispatching suspended by its policy: nothing sent to the member',
    suspended: true,
    ...(live ? { live } : {}),
  });
  const later = (results: Record<string, ApplyResult[]>) =>
    buildStatusFiles(
      new Map([[PATH, first.get(PATH)!]]),
      Object.entries(results).map(([cluster, r]) => report(cluster, r)),
      new Date('2026-01-02T03:09:05Z'),
    );
  assert.is(
    later({ member1: [suspended()], member2: [suspended(liveDeployment(3))] }).has(PATH),
    false,
    'deleted by hand on member1, never applied on member2: the file stays',
  );
  const read = fileOf(later({ member1: [suspended(liveDeployment(1))] }));
  assert.equal(
    read.aggregatedStatus.map((i: { applied: boolean; health: string }) => [i.applied, i.health]),
    [
      [true, 'Unhealthy'],
      [false, 'Unknown'],
    ],
  );
  assert.is(read.aggregatedStatus[0].status.readyReplicas, 1);
});

// work_status_controller_test.go, TestWorkStatusController_interpretHealth.
test('a Deployment with no status yet is Unhealthy; a ClusterRole, which has no health rule, is Healthy', () => {
  assert.is(
    interpretHealth({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'bar', namespace: 'foo' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'nginx' } } },
    }),
    'Unhealthy',
  );
  assert.is(
    interpretHealth({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'foo' } }),
    'Healthy',
  );
});

const job = (clusterName: string, status: Record<string, unknown>) => ({
  clusterName,
  applied: true,
  health: 'Healthy' as const,
  status,
});

// job_test.go, TestParsingJobStatus (second case).
test('a Job failed on every member sums its failures under one Failed condition naming the members, and is not Complete', () => {
  const failed = {
    active: 0,
    succeeded: 0,
    failed: 1,
    startTime: '2026-01-01T00:00:00Z',
    completionTime: '2026-01-01T00:01:00Z',
    conditions: [{ type: 'Failed', status: 'True' }],
  };
  const agg = aggregateStatus('batch/v1', 'Job', [job('memberA', failed), job('memberB', failed)])!;
  assert.is(agg.active, undefined, 'omitempty');
  assert.is(agg.succeeded, undefined, 'omitempty');
  assert.is(agg.failed, 2);
  assert.equal(agg.conditions, [
    {
      type: 'Failed',
      status: 'True',
      reason: 'JobFailed',
      message: 'Job executed failed in member clusters memberA,memberB',
    },
  ]);
});

// job_test.go, TestGetJobFinishedStatus: only a True Complete or Failed condition finishes a member's Job.
test('a suspended Job, or one whose Complete condition is Unknown, is not finished; a True Complete or Failed is', () => {
  const one = (conditions: unknown[]) =>
    aggregateStatus('batch/v1', 'Job', [job('member1', { conditions })])!.conditions as { type: string }[] | undefined;
  assert.is(one([{ type: 'Suspended', status: 'True' }]), undefined);
  assert.is(one([{ type: 'Complete', status: 'Unknown' }]), undefined);
  assert.equal(
    one([{ type: 'Complete', status: 'True' }])!.map((c) => c.type),
    ['Complete'],
  );
  assert.equal(
    one([{ type: 'Failed', status: 'True' }])!.map((c) => c.type),
    ['Failed'],
  );
});

// pod_test.go: the dependencies a pod template names (TestGetSecretNames, TestGetConfigMapNames, TestGetPVCNames,
// TestGetDependenciesFromPodTemplate, Test_getServiceAccountNames).
const pod = (spec: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'pod', namespace: 'ns' },
  spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
});
const namesOf = (spec: Record<string, unknown>, kind: string) =>
  interpretDependencies(pod(spec), 'ns')
    .filter((d) => d.kind === kind)
    .map((d) => d.name)
    .sort();

test('a pod template depends on the Secrets of its image pull secrets, every container kind and every secret volume', () => {
  const envFrom = (prefix: string) => ({
    envFrom: [{ secretRef: { name: `${prefix}-envfrom-secret` } }],
    env: [{ name: 'E', valueFrom: { secretKeyRef: { name: `${prefix}-env-secret`, key: 'k' } } }],
  });
  const spec = {
    imagePullSecrets: [{ name: 'image-secret' }],
    initContainers: [{ name: 'init', ...envFrom('initcontainer') }],
    containers: [{ name: 'app', ...envFrom('container') }],
    ephemeralContainers: [{ name: 'debug', ...envFrom('ephemeralcontainer') }],
    volumes: [
      { name: 'a', azureFile: { secretName: 'azure-secret', shareName: 's' } },
      { name: 'b', cephfs: { monitors: ['m'], secretRef: { name: 'cephfs-secret' } } },
      { name: 'c', cinder: { volumeID: 'v', secretRef: { name: 'cinder-secret' } } },
      { name: 'd', flexVolume: { driver: 'd', secretRef: { name: 'flex-secret' } } },
      { name: 'e', projected: { sources: [{ secret: { name: 'projected-secret' } }] } },
      { name: 'f', rbd: { monitors: ['m'], image: 'i', secretRef: { name: 'rbd-secret' } } },
      { name: 'g', secret: { secretName: 'secret-config' } },
      { name: 'h', scaleIO: { gateway: 'g', system: 's', secretRef: { name: 'scaleio-secret' } } },
      { name: 'i', iscsi: { targetPortal: 't', iqn: 'q', lun: 0, secretRef: { name: 'iscsi-secret' } } },
      { name: 'j', storageos: { volumeName: 'v', secretRef: { name: 'storageos-secret' } } },
      { name: 'k', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi-secret' } } },
    ],
  };
  assert.equal(
    namesOf(spec, 'Secret'),
    [
      'image-secret',
      'initcontainer-envfrom-secret',
      'initcontainer-env-secret',
      'container-envfrom-secret',
      'container-env-secret',
      'ephemeralcontainer-envfrom-secret',
      'ephemeralcontainer-env-secret',
      'azure-secret',
      'cephfs-secret',
      'cinder-secret',
      'flex-secret',
      'projected-secret',
      'rbd-secret',
      'secret-config',
      'scaleio-secret',
      'iscsi-secret',
      'storageos-secret',
      'csi-secret',
    ].sort(),
  );
  assert.equal(namesOf({}, 'Secret'), []);
});

test('a pod template depends on the ConfigMaps of every container kind, projected and configMap volumes', () => {
  const refs = (prefix: string) => ({
    envFrom: [{ configMapRef: { name: `${prefix}-envfrom-configmap` } }],
    env: [{ name: 'E', valueFrom: { configMapKeyRef: { name: `${prefix}-env-configmap`, key: 'k' } } }],
  });
  const spec = {
    initContainers: [{ name: 'init', ...refs('initcontainer') }],
    containers: [{ name: 'app', ...refs('container') }],
    ephemeralContainers: [{ name: 'debug', ...refs('ephemeralcontainer') }],
    volumes: [
      { name: 'a', projected: { sources: [{ configMap: { name: 'projected-configmap' } }] } },
      { name: 'b', configMap: { name: 'configmap-config' } },
    ],
  };
  assert.equal(
    namesOf(spec, 'ConfigMap'),
    [
      'initcontainer-envfrom-configmap',
      'initcontainer-env-configmap',
      'container-envfrom-configmap',
      'container-env-configmap',
      'ephemeralcontainer-envfrom-configmap',
      'ephemeralcontainer-env-configmap',
      'projected-configmap',
      'configmap-config',
    ].sort(),
  );
  assert.equal(namesOf({}, 'ConfigMap'), []);
});

test('a pod template depends on its claims, its ServiceAccount unless default, and nothing when it names none', () => {
  const volumes = [
    { name: 'foo-name', persistentVolumeClaim: { claimName: 'fake-foo', readOnly: true } },
    { name: 'bar-name', persistentVolumeClaim: { claimName: 'fake-bar', readOnly: true } },
  ];
  assert.equal(namesOf({ volumes }, 'PersistentVolumeClaim'), ['fake-bar', 'fake-foo']);
  assert.equal(interpretDependencies(pod({}), 'ns'), []);
  assert.equal(namesOf({ serviceAccountName: 'test' }, 'ServiceAccount'), ['test']);
  assert.equal(namesOf({ serviceAccountName: 'default' }, 'ServiceAccount'), []);
  const deps = interpretDependencies(
    pod({
      serviceAccountName: 'fake-sa',
      volumes: [
        { name: 'foo-name', configMap: { name: 'fake-foo' } },
        { name: 'bar-name', secret: { secretName: 'fake-bar' } },
        { name: 'pvc-name', persistentVolumeClaim: { claimName: 'fake-pvc' } },
      ],
    }),
    'ns',
  );
  assert.equal(deps.map((d) => `${d.apiVersion} ${d.kind} ${d.namespace}/${d.name}`).sort(), [
    'v1 ConfigMap ns/fake-foo',
    'v1 PersistentVolumeClaim ns/fake-pvc',
    'v1 Secret ns/fake-bar',
    'v1 ServiceAccount ns/fake-sa',
  ]);
});

test.run();
