// The interpreters bundled for Kubeflow (Notebook, PyTorchJob, TFJob, MPIJob), KubeRay (RayCluster, RayJob,
// RayService), Volcano's Job, SparkApplication and FlinkDeployment: one or a few small cases per rule of
// src/interpreters/thirdParty/kubeflowRayBatch.ts. Inputs hold only the fields an operation reads; they are frozen,
// so an operation that changed what it was given would fail.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { KUBEFLOW_RAY_BATCH } from '../../src/interpreters/thirdParty/kubeflowRayBatch.ts';
import type {
  AggregatedStatusItem,
  Obj,
  ThirdPartyInterpreter,
} from '../../src/interpreters/thirdParty/thirdPartyInterpreter.ts';

// ---------------------------------------------------------------------------------------------------------------
// Builders

function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) frozen(v);
    Object.freeze(value);
  }
  return value;
}

const kind = (key: string): ThirdPartyInterpreter => {
  const interpreter = KUBEFLOW_RAY_BATCH[key];
  if (!interpreter) throw new Error(`no bundled interpreter for ${key}`);
  return interpreter;
};

/** An object of this kind named demo in team-a, with the given spec, status or metadata. */
const resource =
  (apiVersion: string, kindName: string) =>
  (extra: Obj = {}): Obj =>
    frozen({ apiVersion, kind: kindName, metadata: { name: 'demo', namespace: 'team-a' }, ...extra });

/** The members' statuses, from clusters m1, m2, … */
const members = (...statuses: (Obj | undefined)[]): AggregatedStatusItem[] =>
  frozen(
    statuses.map((status, i) =>
      status === undefined ? { clusterName: `m${i + 1}` } : { clusterName: `m${i + 1}`, status },
    ),
  );

/** A timestamp on a fixed day. */
const at = (hhmm: string) => `2024-01-01T${hhmm}:00Z`;
const NOW = '<now>';

/** Runs fn and replaces the timestamps it took from the clock (between its start and end) with NOW. */
function clocked<T>(fn: () => T): T {
  const stamp = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const from = stamp();
  const result = fn();
  const to = stamp();
  const replace = (v: unknown): unknown => {
    if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(v) && v >= from && v <= to) return NOW;
    if (Array.isArray(v)) return v.map(replace);
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replace(x)]));
    return v;
  };
  return replace(result) as T;
}

const podSpec = (spec: Obj): Obj => ({ template: { spec } });
const container = (extra: Obj = {}): Obj => ({ name: 'main', image: 'example/app:1', ...extra });
const requests = (req: Obj): Obj => container({ resources: { requests: req } });
const ref = (refKind: string, name: string, namespace = 'team-a') => ({
  apiVersion: 'v1',
  kind: refKind,
  ...(namespace ? { namespace } : {}),
  name,
});

const NOTEBOOK = 'kubeflow.org/v1/Notebook';
const PYTORCH = 'kubeflow.org/v1/PyTorchJob';
const TFJOB = 'kubeflow.org/v1/TFJob';
const MPIJOB = 'kubeflow.org/v2beta1/MPIJob';
const RAYCLUSTER = 'ray.io/v1/RayCluster';
const RAYJOB = 'ray.io/v1/RayJob';
const RAYSERVICE = 'ray.io/v1/RayService';
const VOLCANO = 'batch.volcano.sh/v1alpha1/Job';
const SPARK = 'sparkoperator.k8s.io/v1beta2/SparkApplication';
const FLINK = 'flink.apache.org/v1beta1/FlinkDeployment';

test('the table covers the ten kinds, each with its own set of operations', () => {
  const ops = (key: string) => Object.keys(kind(key)).sort();
  assert.equal(Object.keys(KUBEFLOW_RAY_BATCH).sort(), [
    VOLCANO,
    FLINK,
    NOTEBOOK,
    PYTORCH,
    TFJOB,
    MPIJOB,
    RAYCLUSTER,
    RAYJOB,
    RAYSERVICE,
    SPARK,
  ]);
  assert.equal(ops(NOTEBOOK), ['aggregateStatus', 'getReplicas', 'interpretHealth', 'reflectStatus']);
  assert.equal(ops(PYTORCH), ['aggregateStatus', 'getDependencies', 'interpretHealth']);
  assert.equal(ops(TFJOB), ['aggregateStatus', 'getDependencies', 'interpretHealth']);
  assert.equal(ops(MPIJOB), ['aggregateStatus', 'interpretHealth', 'reflectStatus']);
  assert.equal(ops(RAYCLUSTER), ['aggregateStatus', 'interpretHealth']);
  assert.equal(ops(RAYJOB), ['aggregateStatus', 'getDependencies', 'interpretHealth']);
  assert.equal(ops(RAYSERVICE), [
    'aggregateStatus',
    'getDependencies',
    'getReplicas',
    'interpretHealth',
    'reviseReplica',
  ]);
  assert.equal(ops(VOLCANO), ['aggregateStatus', 'interpretHealth', 'reflectStatus']);
  assert.equal(ops(SPARK), ['aggregateStatus', 'interpretHealth', 'reflectStatus']);
  assert.equal(ops(FLINK), ['aggregateStatus', 'getReplicas', 'interpretHealth', 'reflectStatus']);
});

// ---------------------------------------------------------------------------------------------------------------
// The rules several kinds share: no member keeps the template; a single member's status is taken as is

for (const [key, apiVersion, name] of [
  [NOTEBOOK, 'kubeflow.org/v1', 'Notebook'],
  [MPIJOB, 'kubeflow.org/v2beta1', 'MPIJob'],
  [VOLCANO, 'batch.volcano.sh/v1alpha1', 'Job'],
  [SPARK, 'sparkoperator.k8s.io/v1beta2', 'SparkApplication'],
] as const) {
  const make = resource(apiVersion, name);
  test(`${name}: with no member the template is returned unchanged; with one, that member's status as is`, () => {
    const desired = make({ spec: { size: 1 }, status: { note: 'from the template' } });
    assert.equal(kind(key).aggregateStatus?.(desired, []), desired);
    const status = { anything: 'x', count: 0, nested: { kept: true } };
    assert.equal(kind(key).aggregateStatus?.(desired, members(status)), { ...desired, status });
  });
}

for (const [key, name] of [
  [RAYCLUSTER, 'RayCluster'],
  [RAYJOB, 'RayJob'],
  [RAYSERVICE, 'RayService'],
] as const) {
  const make = resource('ray.io/v1', name);
  test(`${name}: with no member the template is returned unchanged; with one, its status as is and no spec`, () => {
    const desired = make({ spec: { suspend: false }, status: { note: 'from the template' } });
    assert.equal(kind(key).aggregateStatus?.(desired, []), desired);
    const status = { anything: 'x', nested: { kept: true } };
    const { spec: _spec, ...rest } = desired;
    assert.equal(kind(key).aggregateStatus?.(desired, members(status)), { ...rest, status });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// kubeflow.org/v1 Notebook

const notebook = kind(NOTEBOOK);
const nb = resource('kubeflow.org/v1', 'Notebook');

test('a Notebook is one replica, with no requirements when its pod asks for nothing', () => {
  assert.equal(notebook.getReplicas?.(nb({ spec: podSpec({ containers: [container()] }) })), { replicas: 1 });
});

test("a Notebook's replica carries its pod's requests and node claim", () => {
  const spec = podSpec({
    nodeSelector: { disk: 'ssd' },
    tolerations: [{ key: 'gpu', operator: 'Exists' }],
    containers: [requests({ cpu: '1', memory: '2Gi' }), requests({ cpu: '500m' })],
  });
  assert.equal(notebook.getReplicas?.(nb({ spec })), {
    replicas: 1,
    requirements: {
      nodeClaim: { nodeSelector: { disk: 'ssd' }, tolerations: [{ key: 'gpu', operator: 'Exists' }] },
      resourceRequest: { cpu: '1500m', memory: '2Gi' },
    },
  });
});

test('a Notebook with no container state is unhealthy; a running one is healthy', () => {
  const health = (containerState?: Obj) =>
    notebook.interpretHealth?.(nb(containerState ? { status: { containerState } } : {}));
  assert.is(health(), false);
  assert.is(health({}), false);
  assert.is(health({ running: { startedAt: at('10:00') } }), true);
});

test('a waiting Notebook is healthy only while its container is being created', () => {
  const health = (reason: string) =>
    notebook.interpretHealth?.(nb({ status: { containerState: { waiting: { reason } } } }));
  assert.is(health('ContainerCreating'), true);
  assert.is(health('ImagePullBackOff'), false);
});

test('a terminated Notebook is healthy when it exited 0 for a reason other than an error', () => {
  const health = (terminated: Obj) => notebook.interpretHealth?.(nb({ status: { containerState: { terminated } } }));
  assert.is(health({ reason: 'Completed', exitCode: 0 }), true);
  assert.is(health({}), true);
  assert.is(health({ reason: 'Completed', exitCode: 2 }), false);
  for (const reason of ['Error', 'OOMKilled', 'ContainerCannotRun']) assert.is(health({ reason, exitCode: 0 }), false);
});

test('Notebooks running in every member are Ready, with summed replicas and the latest start', () => {
  const result = clocked(() =>
    notebook.aggregateStatus?.(
      nb(),
      members(
        { readyReplicas: 1, containerState: { running: { startedAt: at('10:00') } } },
        { readyReplicas: 2, containerState: { running: { startedAt: at('11:00') } } },
      ),
    ),
  );
  assert.equal(result?.status, {
    readyReplicas: 3,
    containerState: { running: { startedAt: at('11:00') } },
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        lastProbeTime: NOW,
        lastTransitionTime: NOW,
        reason: 'Ready',
        message: 'All notebooks are ready',
      },
    ],
  });
});

test('a waiting Notebook member makes the aggregate Failed, with that member named and its state', () => {
  const result = clocked(() =>
    notebook.aggregateStatus?.(
      nb(),
      members(
        { readyReplicas: 0, containerState: { waiting: { reason: 'ImagePullBackOff' } } },
        { readyReplicas: 1, containerState: { running: { startedAt: at('10:00') } } },
      ),
    ),
  );
  assert.equal(result?.status, {
    readyReplicas: 1,
    containerState: { waiting: { reason: 'ImagePullBackOff' } },
    conditions: [
      {
        type: 'Failed',
        status: 'True',
        lastProbeTime: NOW,
        lastTransitionTime: NOW,
        reason: 'NotebookFailed',
        message: 'Notebook executed failed in member clusters: m1',
      },
    ],
  });
});

test('a Notebook member reporting no container state counts as failed and unschedulable', () => {
  const result = clocked(() =>
    notebook.aggregateStatus?.(
      nb(),
      members({ containerState: { terminated: { reason: 'Error', exitCode: 1 } } }, { readyReplicas: 0 }),
    ),
  );
  assert.equal(result?.status, {
    readyReplicas: 0,
    containerState: { waiting: { reason: 'Unschedulable' } },
    conditions: [
      {
        type: 'Failed',
        status: 'True',
        lastProbeTime: NOW,
        lastTransitionTime: NOW,
        reason: 'NotebookFailed',
        message: 'Notebook executed failed in member clusters: m1, m2',
      },
    ],
  });
});

test("a Notebook's reflected status keeps its ready replicas, container state and conditions", () => {
  assert.equal(notebook.reflectStatus?.(nb()), {});
  assert.equal(notebook.reflectStatus?.(nb({ status: {} })), { readyReplicas: 0 });
  const status = {
    readyReplicas: 1,
    containerState: { running: { startedAt: at('10:00') } },
    conditions: [{ type: 'Running', status: 'True' }],
  };
  assert.equal(notebook.reflectStatus?.(nb({ status: { ...status, extra: 'dropped' } })), status);
});

// ---------------------------------------------------------------------------------------------------------------
// kubeflow.org/v1 PyTorchJob and TFJob

const pytorch = kind(PYTORCH);
const tfjob = kind(TFJOB);
const ptj = resource('kubeflow.org/v1', 'PyTorchJob');
const tfj = resource('kubeflow.org/v1', 'TFJob');

for (const [name, interpreter, make] of [
  ['PyTorchJob', pytorch, ptj],
  ['TFJob', tfjob, tfj],
] as const) {
  test(`a ${name} is healthy once it has conditions, unless one of them is Failed`, () => {
    const health = (conditions?: Obj[]) =>
      interpreter.interpretHealth?.(make(conditions ? { status: { conditions } } : {}));
    assert.is(health(), false);
    assert.is(health([]), true);
    assert.is(health([{ type: 'Running', status: 'True' }]), true);
    assert.is(health([{ type: 'Failed', status: 'False' }]), true);
    assert.is(
      health([
        { type: 'Running', status: 'True' },
        { type: 'Failed', status: 'True' },
      ]),
      false,
    );
  });
}

test("a PyTorchJob depends on what its Master's and Worker's pods refer to, each once", () => {
  const desired = ptj({
    spec: {
      pytorchReplicaSpecs: {
        Master: podSpec({
          serviceAccountName: 'trainer',
          containers: [container({ envFrom: [{ configMapRef: { name: 'settings' } }] })],
        }),
        Worker: podSpec({
          containers: [
            container({
              envFrom: [{ configMapRef: { name: 'settings' } }],
              env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'token', key: 't' } } }],
            }),
          ],
          volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'dataset' } }],
        }),
      },
    },
  });
  assert.equal(pytorch.getDependencies?.(desired), [
    ref('ConfigMap', 'settings'),
    ref('PersistentVolumeClaim', 'dataset'),
    ref('Secret', 'token'),
    ref('ServiceAccount', 'trainer'),
  ]);
});

test('a training job without replica specs depends on nothing; without a namespace its references are in default', () => {
  assert.equal(pytorch.getDependencies?.(ptj({ spec: {} })), []);
  assert.equal(tfjob.getDependencies?.(tfj({ spec: { tfReplicaSpecs: {} } })), []);
  const desired = frozen({
    apiVersion: 'kubeflow.org/v1',
    kind: 'PyTorchJob',
    metadata: { name: 'demo' },
    spec: { pytorchReplicaSpecs: { Worker: podSpec({ imagePullSecrets: [{ name: 'registry' }] }) } },
  });
  assert.equal(pytorch.getDependencies?.(desired), [ref('Secret', 'registry', 'default')]);
});

test("a TFJob depends on its PS, Chief, Master, Worker and Evaluator pods' references, not on other types", () => {
  const uses = (name: string) => podSpec({ containers: [container({ envFrom: [{ configMapRef: { name } }] })] });
  const desired = tfj({
    spec: {
      tfReplicaSpecs: {
        PS: uses('ps'),
        Chief: uses('chief'),
        Master: uses('master'),
        Worker: uses('worker'),
        Evaluator: uses('evaluator'),
        Launcher: uses('launcher'),
      },
    },
  });
  assert.equal(
    tfjob.getDependencies?.(desired),
    ['chief', 'evaluator', 'master', 'ps', 'worker'].map((name) => ref('ConfigMap', name)),
  );
});

test('a training job with no member drops its times, replica statuses and conditions, keeping the rest', () => {
  const desired = ptj({
    status: {
      startTime: at('09:00'),
      completionTime: at('10:00'),
      lastReconcileTime: at('10:00'),
      replicaStatuses: { Worker: { active: 1 } },
      conditions: [{ type: 'Running', status: 'True' }],
    },
  });
  assert.equal(pytorch.aggregateStatus?.(desired, [])?.status, { lastReconcileTime: at('10:00') });
});

const running = (time: string, status = 'True') => ({
  type: 'Running',
  status,
  lastUpdateTime: time,
  lastTransitionTime: time,
});
const created = { type: 'Created', status: 'True' };

test('PyTorchJobs succeeded everywhere aggregate to Succeeded, with summed replicas and the overall times', () => {
  const result = pytorch.aggregateStatus?.(
    ptj(),
    members(
      {
        startTime: at('10:00'),
        completionTime: at('12:00'),
        lastReconcileTime: at('12:00'),
        replicaStatuses: { Master: { succeeded: 1 }, Worker: { succeeded: 2 } },
        conditions: [created, running(at('11:00'), 'False'), { type: 'Succeeded', status: 'True' }],
      },
      {
        startTime: at('09:00'),
        completionTime: at('13:00'),
        replicaStatuses: { Worker: { succeeded: 2, failed: 0 } },
        conditions: [created, running(at('11:30'), 'False'), { type: 'Succeeded', status: 'True' }],
      },
    ),
  );
  assert.equal(result?.status, {
    startTime: at('09:00'),
    completionTime: at('13:00'),
    lastReconcileTime: at('12:00'),
    replicaStatuses: { Master: { succeeded: 1 }, Worker: { succeeded: 4 } },
    conditions: [
      {
        type: 'Created',
        status: 'True',
        lastUpdateTime: at('09:00'),
        lastTransitionTime: at('09:00'),
        reason: 'PyTorchJobCreated',
        message: 'PyTorchJob is created.',
      },
      {
        type: 'Running',
        status: 'False',
        lastUpdateTime: at('11:30'),
        lastTransitionTime: at('11:30'),
        reason: 'PyTorchJobRunning',
        message: 'PyTorchJob is running.',
      },
      {
        type: 'Succeeded',
        status: 'True',
        lastUpdateTime: at('13:00'),
        lastTransitionTime: at('13:00'),
        reason: 'PyTorchJobSucceeded',
        message: 'PyTorchJob is successfully completed.',
      },
    ],
  });
});

test('a PyTorchJob failed in one member is Failed and no longer running, without a completion time', () => {
  const result = pytorch.aggregateStatus?.(
    ptj(),
    members(
      { startTime: at('09:00'), conditions: [created, running(at('09:10'))] },
      {
        startTime: at('09:05'),
        completionTime: at('09:30'),
        conditions: [created, { type: 'Failed', status: 'True' }],
      },
    ),
  );
  assert.equal(result?.status, {
    startTime: at('09:00'),
    conditions: [
      {
        type: 'Created',
        status: 'True',
        lastUpdateTime: at('09:00'),
        lastTransitionTime: at('09:00'),
        reason: 'PyTorchJobCreated',
        message: 'PyTorchJob is created.',
      },
      {
        type: 'Running',
        status: 'False',
        lastUpdateTime: at('09:10'),
        lastTransitionTime: at('09:10'),
        reason: 'PyTorchJobRunning',
        message: 'PyTorchJob is running.',
      },
      {
        type: 'Failed',
        status: 'True',
        lastUpdateTime: at('09:30'),
        lastTransitionTime: at('09:30'),
        reason: 'PyTorchJobFailed',
        message: 'PyTorchJob executed failed in member clusters: m2',
      },
    ],
  });
});

test('a PyTorchJob succeeded in only some members is still running and has no completion time', () => {
  const result = pytorch.aggregateStatus?.(
    ptj(),
    members(
      { conditions: [running(at('09:10'))] },
      { completionTime: at('10:00'), conditions: [{ type: 'Succeeded', status: 'True' }] },
    ),
  );
  assert.equal(result?.status, {
    conditions: [
      {
        type: 'Running',
        status: 'True',
        lastUpdateTime: at('09:10'),
        lastTransitionTime: at('09:10'),
        reason: 'PyTorchJobRunning',
        message: 'PyTorchJob is running.',
      },
    ],
  });
});

test('TFJobs succeeded everywhere aggregate to Succeeded, summing every replica type', () => {
  const result = clocked(() =>
    tfjob.aggregateStatus?.(
      tfj(),
      members(
        {
          startTime: at('09:00'),
          completionTime: at('10:00'),
          replicaStatuses: { PS: { succeeded: 1 }, Chief: { succeeded: 1 }, Evaluator: { failed: 1 } },
          conditions: [running(at('09:00'), 'False'), { type: 'Succeeded', status: 'True' }],
        },
        {
          startTime: at('09:30'),
          completionTime: at('11:00'),
          replicaStatuses: { PS: { succeeded: 2 }, Worker: { active: 1 } },
          conditions: [{ type: 'Succeeded', status: 'True' }],
        },
      ),
    ),
  );
  assert.equal(result?.status, {
    startTime: at('09:00'),
    completionTime: at('11:00'),
    replicaStatuses: {
      PS: { succeeded: 3 },
      Worker: { active: 1 },
      Chief: { succeeded: 1 },
      Evaluator: { failed: 1 },
    },
    conditions: [
      {
        type: 'Succeeded',
        status: 'True',
        lastProbeTime: NOW,
        lastTransitionTime: NOW,
        reason: 'Completed',
        message: 'TFJob completed successfully',
      },
    ],
  });
});

test("a TFJob member's outcome is the last finished condition it lists", () => {
  const result = clocked(() =>
    tfjob.aggregateStatus?.(
      tfj(),
      members(
        {
          conditions: [
            { type: 'Failed', status: 'True' },
            { type: 'Succeeded', status: 'True' },
          ],
        },
        {
          completionTime: at('10:00'),
          conditions: [
            { type: 'Succeeded', status: 'True' },
            { type: 'Failed', status: 'True' },
          ],
        },
      ),
    ),
  );
  assert.equal(result?.status, {
    conditions: [
      {
        type: 'Failed',
        status: 'True',
        lastProbeTime: NOW,
        lastTransitionTime: NOW,
        reason: 'TFJobFailed',
        message: 'TFJob executed failed in member clusters: m2',
      },
    ],
  });
});

test('TFJobs still running aggregate to no condition at all', () => {
  const result = tfjob.aggregateStatus?.(
    tfj(),
    members({ startTime: at('09:00'), conditions: [running(at('09:00'))] }, { conditions: [created] }),
  );
  assert.equal(result?.status, { startTime: at('09:00') });
});

// ---------------------------------------------------------------------------------------------------------------
// kubeflow.org/v2beta1 MPIJob

const mpijob = kind(MPIJOB);
const mpi = resource('kubeflow.org/v2beta1', 'MPIJob');

test('an MPIJob is healthy when it lists conditions and none is a true Failed', () => {
  const health = (conditions?: Obj[]) => mpijob.interpretHealth?.(mpi(conditions ? { status: { conditions } } : {}));
  assert.is(health(), false);
  assert.is(health([]), false);
  assert.is(health([{ type: 'Running', status: 'True' }]), true);
  assert.is(health([{ type: 'Failed', status: 'True' }]), false);
});

test("MPIJobs aggregate to summed replica types, the overall times, and each condition type's latest", () => {
  const result = mpijob.aggregateStatus?.(
    mpi(),
    members(
      {
        replicaStatuses: { Launcher: { active: 1 }, Worker: { active: 2 } },
        startTime: at('10:00'),
        completionTime: '',
        lastReconcileTime: at('10:05'),
        conditions: [
          { type: 'Created', status: 'True', lastTransitionTime: at('10:00') },
          { type: 'Running', status: 'True', lastUpdateTime: at('10:01'), lastTransitionTime: at('10:30') },
        ],
      },
      {
        replicaStatuses: { Worker: { active: 1, failed: 1 } },
        startTime: at('09:00'),
        lastReconcileTime: at('10:02'),
        conditions: [
          { type: 'Created', status: 'True', lastTransitionTime: at('09:00') },
          { type: 'Running', status: 'False', lastUpdateTime: at('10:03'), lastTransitionTime: at('10:03') },
          { type: 'Suspended', status: 'False' },
        ],
      },
    ),
  );
  assert.equal(result?.status, {
    replicaStatuses: {
      Launcher: { active: 1, succeeded: 0, failed: 0 },
      Worker: { active: 3, succeeded: 0, failed: 1 },
    },
    conditions: [
      { type: 'Created', status: 'True', lastTransitionTime: at('10:00') },
      { type: 'Running', status: 'False', lastUpdateTime: at('10:03'), lastTransitionTime: at('10:03') },
    ],
    startTime: at('09:00'),
    lastReconcileTime: at('10:05'),
  });
});

test("an MPIJob's reflected status keeps replica counts and selectors, conditions and times", () => {
  assert.equal(mpijob.reflectStatus?.(mpi()), {});
  const observed = mpi({
    status: {
      replicaStatuses: { Launcher: null, Worker: { active: 2, selector: 'app=demo', labelSelector: {} } },
      conditions: [{ type: 'Running', status: 'True' }],
      startTime: at('09:00'),
      lastReconcileTime: at('09:01'),
      extra: 'dropped',
    },
  });
  assert.equal(mpijob.reflectStatus?.(observed), {
    replicaStatuses: { Worker: { active: 2, selector: 'app=demo' } },
    conditions: [{ type: 'Running', status: 'True' }],
    startTime: at('09:00'),
    lastReconcileTime: at('09:01'),
  });
});

// ---------------------------------------------------------------------------------------------------------------
// ray.io/v1 RayCluster

const raycluster = kind(RAYCLUSTER);
const rc = resource('ray.io/v1', 'RayCluster');

test('a RayCluster is healthy once its head is ready and it is provisioned, without replica failure', () => {
  const health = (...types: string[]) =>
    raycluster.interpretHealth?.(rc({ status: { conditions: types.map((type) => ({ type, status: 'True' })) } }));
  assert.is(raycluster.interpretHealth?.(rc()), false);
  assert.is(health('HeadPodReady', 'RayClusterProvisioned'), true);
  assert.is(health('HeadPodReady'), false);
  assert.is(health('RayClusterProvisioned'), false);
  assert.is(health('HeadPodReady', 'RayClusterProvisioned', 'RayClusterReplicaFailure'), false);
  const provisionedFalse = rc({
    status: {
      conditions: [
        { type: 'HeadPodReady', status: 'True' },
        { type: 'RayClusterProvisioned', status: 'False' },
      ],
    },
  });
  assert.is(raycluster.interpretHealth?.(provisionedFalse), false);
});

test('RayClusters aggregate to summed workers and resources, all conditions, the first state, head and endpoints', () => {
  const desired = rc({ spec: { rayVersion: '2.9' }, status: { observedGeneration: 2 } });
  const result = raycluster.aggregateStatus?.(
    desired,
    members(
      {
        conditions: [{ type: 'HeadPodReady', status: 'True' }],
        readyWorkerReplicas: 1,
        availableWorkerReplicas: 1,
        maxWorkerReplicas: 3,
        minWorkerReplicas: 1,
        desiredWorkerReplicas: 2,
        desiredCPU: '500m',
        desiredMemory: '1Gi',
        desiredGPU: '1',
        lastUpdateTime: at('10:00'),
        endpoints: { client: '10001' },
        head: { podIP: '10.0.0.1' },
      },
      {
        conditions: [{ type: 'RayClusterProvisioned', status: 'True' }],
        readyWorkerReplicas: '2',
        desiredCPU: '1',
        desiredMemory: '512Mi',
        desiredTPU: 2,
        lastUpdateTime: at('11:00'),
        endpoints: { client: '20001' },
        state: 'ready',
        stateTransitionTimes: { ready: at('10:30') },
      },
      { state: 'suspended' },
    ),
  );
  assert.equal(result, {
    apiVersion: 'ray.io/v1',
    kind: 'RayCluster',
    metadata: { name: 'demo', namespace: 'team-a' },
    status: {
      observedGeneration: 2,
      conditions: [
        { type: 'HeadPodReady', status: 'True' },
        { type: 'RayClusterProvisioned', status: 'True' },
      ],
      readyWorkerReplicas: 3,
      availableWorkerReplicas: 1,
      maxWorkerReplicas: 3,
      minWorkerReplicas: 1,
      desiredWorkerReplicas: 2,
      desiredCPU: '1500m',
      desiredGPU: '1',
      desiredTPU: '2',
      desiredMemory: '1536Mi',
      lastUpdateTime: at('11:00'),
      endpoints: { client: '10001' },
      head: { podIP: '10.0.0.1' },
      state: 'ready',
      stateTransitionTimes: { ready: at('10:30') },
    },
  });
});

test('a RayCluster member with a non-numeric replica count cannot be aggregated', () => {
  assert.throws(
    () => raycluster.aggregateStatus?.(rc(), members({ readyWorkerReplicas: 1 }, { readyWorkerReplicas: 'some' })),
    /arithmetic on a nil value/,
  );
});

// ---------------------------------------------------------------------------------------------------------------
// ray.io/v1 RayJob

const rayjob = kind(RAYJOB);
const rj = resource('ray.io/v1', 'RayJob');

test('a RayJob is healthy while running, or once complete with a succeeded job', () => {
  const health = (jobDeploymentStatus: string, jobStatus?: string) =>
    rayjob.interpretHealth?.(rj({ status: { jobDeploymentStatus, ...(jobStatus ? { jobStatus } : {}) } }));
  assert.is(rayjob.interpretHealth?.(rj()), false);
  assert.is(health('Running'), true);
  assert.is(health('Complete', 'SUCCEEDED'), true);
  assert.is(health('Complete', 'FAILED'), false);
  assert.is(health('Initializing'), false);
  assert.is(health('Failed', 'FAILED'), false);
});

test('RayJobs aggregate to the worst deployment status, with its reason and message, and the worst job status', () => {
  const result = rayjob.aggregateStatus?.(
    rj({ spec: { entrypoint: 'python main.py' }, status: { startTime: at('09:00') } }),
    members(
      { jobDeploymentStatus: 'Running', jobStatus: 'STOPPED', reason: 'fine', message: 'all good' },
      { jobDeploymentStatus: 'Failed', jobStatus: 'RUNNING', reason: 'DeadlineExceeded', message: 'too slow' },
      { jobDeploymentStatus: 'Complete', jobStatus: 'SUCCEEDED', reason: 'done' },
    ),
  );
  assert.equal(result, {
    apiVersion: 'ray.io/v1',
    kind: 'RayJob',
    metadata: { name: 'demo', namespace: 'team-a' },
    status: {
      startTime: at('09:00'),
      jobDeploymentStatus: 'Failed',
      jobStatus: 'STOPPED',
      reason: 'DeadlineExceeded',
      message: 'too slow',
    },
  });
});

test('an empty RayJob job status is ignored, and on a tie the first member stays', () => {
  const result = rayjob.aggregateStatus?.(
    rj(),
    members(
      { jobDeploymentStatus: 'Running', jobStatus: '', message: 'first' },
      { jobDeploymentStatus: 'Running', message: 'second' },
    ),
  );
  assert.equal(result?.status, { jobDeploymentStatus: 'Running', message: 'first' });
});

test("a RayJob depends on its head's, worker groups' and submitter's references, not on the default account", () => {
  const desired = rj({
    spec: {
      rayClusterSpec: {
        headGroupSpec: podSpec({
          serviceAccountName: 'default',
          imagePullSecrets: [{ name: 'registry' }],
          volumes: [{ name: 'conf', configMap: { name: 'ray-conf' } }],
        }),
        workerGroupSpecs: [
          podSpec({
            serviceAccountName: 'worker',
            volumes: [{ name: 'scratch', persistentVolumeClaim: { claimName: 'scratch' } }],
            initContainers: [container({ env: [{ name: 'C', valueFrom: { configMapKeyRef: { name: 'ray-conf' } } }] })],
          }),
        ],
      },
      submitterPodTemplate: { spec: { containers: [container({ envFrom: [{ secretRef: { name: 'submit' } }] })] } },
    },
  });
  assert.equal(rayjob.getDependencies?.(desired), [
    ref('ConfigMap', 'ray-conf'),
    ref('PersistentVolumeClaim', 'scratch'),
    ref('Secret', 'registry'),
    ref('Secret', 'submit'),
    ref('ServiceAccount', 'worker'),
  ]);
});

test('a RayJob without pods depends on nothing; without a namespace its references have none', () => {
  assert.equal(rayjob.getDependencies?.(rj({ spec: { entrypoint: 'python main.py' } })), []);
  const desired = frozen({
    apiVersion: 'ray.io/v1',
    kind: 'RayJob',
    metadata: { name: 'demo' },
    spec: { submitterPodTemplate: { spec: { serviceAccountName: 'submitter' } } },
  });
  assert.equal(rayjob.getDependencies?.(desired), [ref('ServiceAccount', 'submitter', '')]);
});

// ---------------------------------------------------------------------------------------------------------------
// ray.io/v1 RayService

const rayservice = kind(RAYSERVICE);
const rs = resource('ray.io/v1', 'RayService');
const rayConfig = (rayClusterConfig: Obj) => rs({ spec: { rayClusterConfig } });
const group = (replicas: number | undefined, spec?: Obj): Obj => ({
  groupName: 'workers',
  ...(replicas === undefined ? {} : { replicas }),
  ...(spec ? podSpec(spec) : {}),
});

test('a RayService without a cluster config or head template has no replicas', () => {
  assert.equal(rayservice.getReplicas?.(rs({ spec: {} })), { replicas: 0 });
  assert.equal(rayservice.getReplicas?.(rayConfig({ workerGroupSpecs: [group(2)] })), { replicas: 0 });
});

test("a RayService is one head plus its workers, each asking for the largest group's cpu and memory", () => {
  const desired = rayConfig({
    headGroupSpec: podSpec({ nodeSelector: { pool: 'ray' }, containers: [requests({ cpu: '1', memory: '2Gi' })] }),
    workerGroupSpecs: [
      group(2, { containers: [requests({ cpu: '2', memory: '1Gi' })] }),
      group(3, { containers: [requests({ cpu: '500m', memory: '4Gi' })] }),
      group(1),
    ],
  });
  assert.equal(rayservice.getReplicas?.(desired), {
    replicas: 7,
    requirements: { nodeClaim: { nodeSelector: { pool: 'ray' } }, resourceRequest: { cpu: '2', memory: '4Gi' } },
  });
});

test('a RayService whose head asks for nothing has no requirements, whatever its workers ask', () => {
  const desired = rayConfig({
    headGroupSpec: podSpec({ containers: [container()] }),
    workerGroupSpecs: [group(2, { containers: [requests({ cpu: '4' })] }), group(undefined)],
  });
  assert.equal(rayservice.getReplicas?.(desired), { replicas: 3 });
});

/** The worker groups' replicas after revising a RayService whose groups have these. */
function revised(replicas: number, groups: (number | undefined)[]): unknown[] {
  const result = rayservice.reviseReplica?.(rayConfig({ workerGroupSpecs: groups.map((n) => group(n)) }), replicas);
  const workerGroups = (((result ?? {}).spec as Obj).rayClusterConfig as Obj).workerGroupSpecs as Obj[];
  return workerGroups.map((g) => g.replicas);
}

test('revising a RayService without worker groups leaves it as it is', () => {
  const desired = rayConfig({ headGroupSpec: podSpec({ containers: [container()] }) });
  assert.equal(rayservice.reviseReplica?.(desired, 5), desired);
  const empty = rayConfig({ workerGroupSpecs: [] });
  assert.equal(rayservice.reviseReplica?.(empty, 5), empty);
});

test('revising a RayService gives all but the head replica to its only worker group', () => {
  assert.equal(revised(4, [1]), [3]);
  assert.equal(revised(0, [1]), [0]);
});

test("revising a RayService shares the workers by the groups' current sizes, the last group taking the rest", () => {
  assert.equal(revised(9, [1, 3]), [2, 6]);
  assert.equal(revised(6, [1, 2]), [2, 3]);
  assert.equal(revised(6, [2, undefined, 2]), [3, 0, 2]);
});

test('revising a RayService with empty groups shares the workers evenly; with one replica, none get any', () => {
  assert.equal(revised(6, [0, 0, 0]), [2, 2, 1]);
  assert.equal(revised(1, [2, 3]), [0, 0]);
});

test('a RayService is healthy once its Ready condition is true', () => {
  const health = (conditions?: Obj[]) => rayservice.interpretHealth?.(rs(conditions ? { status: { conditions } } : {}));
  assert.is(health(), false);
  assert.is(health([{ type: 'Ready', status: 'True' }]), true);
  assert.is(health([{ type: 'Ready', status: 'False' }]), false);
});

test("RayServices aggregate endpoints, the newest generation, and each application's worst status", () => {
  const result = rayservice.aggregateStatus?.(
    rs({ spec: { serveConfigV2: 'apps: []' } }),
    members(
      {
        conditions: [{ type: 'Ready', status: 'True' }],
        numServeEndpoints: 2,
        lastUpdateTime: at('10:00'),
        observedGeneration: 3,
        serviceStatus: 'Running',
        activeServiceStatus: {
          rayClusterName: 'c1',
          applicationStatuses: { web: { status: 'RUNNING' }, api: { status: 'DEPLOYING' } },
        },
      },
      {
        conditions: [{ type: 'Ready', status: 'False' }],
        numServeEndpoints: 1,
        lastUpdateTime: at('11:00'),
        observedGeneration: 5,
        serviceStatus: '',
        activeServiceStatus: {
          rayClusterName: 'c2',
          applicationStatuses: { web: { status: 'UNHEALTHY', message: 'crashed' }, api: { status: 'RUNNING' } },
        },
        pendingServiceStatus: { rayClusterName: 'next' },
      },
    ),
  );
  assert.equal(result?.spec, undefined);
  assert.equal(result?.status, {
    conditions: [
      { type: 'Ready', status: 'True' },
      { type: 'Ready', status: 'False' },
    ],
    numServeEndpoints: 3,
    lastUpdateTime: at('11:00'),
    observedGeneration: 5,
    serviceStatus: '',
    activeServiceStatus: {
      rayClusterName: 'c1',
      applicationStatuses: { web: { status: 'UNHEALTHY', message: 'crashed' }, api: { status: 'DEPLOYING' } },
    },
    pendingServiceStatus: { rayClusterName: 'next' },
  });
});

test('RayServices with no active status aggregate to a Running service without one', () => {
  const result = rayservice.aggregateStatus?.(rs(), members({}, { serviceStatus: 'Running', numServeEndpoints: 1 }));
  assert.equal(result?.status, { numServeEndpoints: 1, observedGeneration: 0, serviceStatus: 'Running' });
});

test("a RayService depends on the secrets and config maps its cluster's volumes and env name", () => {
  const desired = rs({
    spec: {
      rayClusterConfig: {
        headGroupSpec: podSpec({
          volumes: [
            {
              name: 'p',
              projected: { sources: [{ configMap: { name: 'projected-cm' } }, { secret: { name: 'projected-s' } }] },
            },
            { name: 's', secret: { secretName: 'plain' } },
            { name: 'a', azureFile: { secretName: 'azure' } },
            { name: 'c', cephfs: { secretRef: { name: 'ceph' } } },
            { name: 'd', csi: { driver: 'x', nodePublishSecretRef: { name: 'csi' } } },
          ],
        }),
        workerGroupSpecs: [group(1, { containers: [container({ envFrom: [{ configMapRef: { name: 'env-cm' } }] })] })],
      },
    },
  });
  assert.equal(rayservice.getDependencies?.(desired), [
    ref('ConfigMap', 'env-cm'),
    ref('ConfigMap', 'projected-cm'),
    ref('Secret', 'azure'),
    ref('Secret', 'ceph'),
    ref('Secret', 'csi'),
    ref('Secret', 'plain'),
    ref('Secret', 'projected-s'),
  ]);
  assert.equal(rayservice.getDependencies?.(rs({ spec: {} })), []);
});

// ---------------------------------------------------------------------------------------------------------------
// batch.volcano.sh/v1alpha1 Job

const volcano = kind(VOLCANO);
const vj = resource('batch.volcano.sh/v1alpha1', 'Job');

test('a Volcano Job is healthy in any phase but Failed, and unhealthy without one', () => {
  const health = (phase?: string) => volcano.interpretHealth?.(vj(phase ? { status: { state: { phase } } } : {}));
  assert.is(health(), false);
  for (const phase of ['Pending', 'Running', 'Completed', 'Aborted', 'Terminated']) assert.is(health(phase), true);
  assert.is(health('Failed'), false);
});

test('Volcano Jobs aggregate to summed counters, merged tasks and resources, the longest run and latest conditions', () => {
  const result = volcano.aggregateStatus?.(
    vj(),
    members(
      {
        minAvailable: 2,
        running: 2,
        version: 3,
        runningDuration: '1m30s',
        taskStatusCount: { worker: { phase: { Running: 2 } } },
        controlledResources: { 'plugin-svc': 'svc' },
        state: { phase: 'Running' },
        conditions: [
          { status: 'Pending', lastTransitionTime: at('10:00') },
          { status: 'Running', lastTransitionTime: at('10:01') },
        ],
      },
      {
        minAvailable: 2,
        running: 1,
        pending: 1,
        version: 1,
        runningDuration: '45s',
        taskStatusCount: { worker: { phase: { Running: 1, Pending: 1 } }, ps: { phase: { Running: 1 } } },
        controlledResources: { 'plugin-ssh': 'ssh' },
        state: { phase: 'Running' },
        conditions: [
          { status: 'Pending', lastTransitionTime: at('10:05') },
          { status: 'Running', lastTransitionTime: at('10:00') },
        ],
      },
    ),
  );
  assert.equal(result?.status, {
    minAvailable: 4,
    running: 3,
    pending: 1,
    version: 3,
    runningDuration: '1m30s',
    taskStatusCount: { worker: { phase: { Running: 3, Pending: 1 } }, ps: { phase: { Running: 1 } } },
    controlledResources: { 'plugin-svc': 'svc', 'plugin-ssh': 'ssh' },
    conditions: [
      { status: 'Pending', lastTransitionTime: at('10:05') },
      { status: 'Running', lastTransitionTime: at('10:01') },
    ],
  });
});

test("a Volcano Job failed in a member is Failed, with that member's conditions", () => {
  const failedConditions = [
    { status: 'Running', lastTransitionTime: at('10:00') },
    { status: 'Failed', lastTransitionTime: at('10:10') },
  ];
  const result = clocked(() =>
    volcano.aggregateStatus?.(
      vj(),
      members(
        { state: { phase: 'Running' }, conditions: [{ status: 'Running', lastTransitionTime: at('10:20') }] },
        { failed: 1, state: { phase: 'Failed' }, conditions: failedConditions },
        { state: { phase: 'Aborted' } },
      ),
    ),
  );
  assert.equal(result?.status, {
    failed: 1,
    state: {
      phase: 'Failed',
      reason: 'VolcanoJobFailed',
      message: 'Job failed in clusters: m2,m3',
      lastTransitionTime: NOW,
    },
    conditions: failedConditions,
  });
});

test('Volcano Jobs completed in every member are Completed', () => {
  const result = clocked(() =>
    volcano.aggregateStatus?.(
      vj(),
      members({ succeeded: 2, state: { phase: 'Completed' } }, { succeeded: 1, state: { phase: 'Completed' } }),
    ),
  );
  assert.equal(result?.status, {
    succeeded: 3,
    state: { phase: 'Completed', reason: 'Completed', message: 'Job completed successfully', lastTransitionTime: NOW },
  });
});

test("a Volcano Job's reflected status keeps its counters, tasks, resources, state and conditions", () => {
  assert.equal(volcano.reflectStatus?.(vj()), {});
  const status = {
    minAvailable: 1,
    pending: 0,
    running: 1,
    succeeded: 0,
    failed: 0,
    terminating: 0,
    unknown: 0,
    version: 2,
    retryCount: 1,
    runningDuration: '10s',
    taskStatusCount: { worker: { phase: { Running: 1 } } },
    controlledResources: { 'plugin-svc': 'svc' },
    state: { phase: 'Running' },
    conditions: [{ status: 'Running' }],
  };
  assert.equal(volcano.reflectStatus?.(vj({ status: { ...status, extra: 'dropped' } })), status);
});

// ---------------------------------------------------------------------------------------------------------------
// sparkoperator.k8s.io/v1beta2 SparkApplication

const spark = kind(SPARK);
const sa = resource('sparkoperator.k8s.io/v1beta2', 'SparkApplication');

test('a SparkApplication is healthy once it has a state, unless that state is FAILED', () => {
  const health = (state?: string) =>
    spark.interpretHealth?.(sa(state ? { status: { applicationState: { state } } } : {}));
  assert.is(health(), false);
  assert.is(health('RUNNING'), true);
  assert.is(health('SUBMISSION_FAILED'), true);
  assert.is(health('FAILED'), false);
});

test('SparkApplications aggregate to the worst state, summed attempts, the latest times and all executors', () => {
  const result = spark.aggregateStatus?.(
    sa({ status: { sparkApplicationId: 'kept' } }),
    members(
      {
        applicationState: { state: 'RUNNING' },
        executionAttempts: 1,
        submissionAttempts: 1,
        lastSubmissionAttemptTime: at('10:00'),
        executorState: { 'exec-1': 'RUNNING' },
        sparkApplicationId: 'not-carried',
      },
      {
        applicationState: { state: 'FAILED', errorMessage: 'oom' },
        executionAttempts: 2,
        submissionAttempts: 1,
        lastSubmissionAttemptTime: at('11:00'),
        terminationTime: at('12:00'),
        executorState: { 'exec-2': 'FAILED' },
      },
      { applicationState: { state: 'COMPLETED' }, lastSubmissionAttemptTime: at('09:00') },
    ),
  );
  assert.equal(result?.status, {
    sparkApplicationId: 'kept',
    applicationState: { state: 'FAILED', errorMessage: 'oom' },
    executionAttempts: 3,
    executorState: { 'exec-1': 'RUNNING', 'exec-2': 'FAILED' },
    submissionAttempts: 2,
    lastSubmissionAttemptTime: at('11:00'),
    terminationTime: at('12:00'),
  });
});

test('SparkApplications not yet terminated aggregate to empty times, the first of equally bad states kept', () => {
  const result = spark.aggregateStatus?.(
    sa(),
    members(
      { applicationState: { state: 'COMPLETED' } },
      { applicationState: { state: 'RUNNING' } },
      { applicationState: { state: 'RESUMING' } },
    ),
  );
  assert.equal(result?.status, {
    applicationState: { state: 'RUNNING' },
    executionAttempts: 0,
    submissionAttempts: 0,
    lastSubmissionAttemptTime: '',
    terminationTime: '',
  });
});

test('a SparkApplication member in an unknown state cannot be aggregated', () => {
  assert.throws(
    () => spark.aggregateStatus?.(sa(), members({ applicationState: { state: 'ODD' } }, {})),
    /compare nil with number/,
  );
});

test("a SparkApplication's reflected status keeps its state, driver, executors, attempts and times", () => {
  assert.equal(spark.reflectStatus?.(sa()), {});
  const status = {
    applicationState: { state: 'COMPLETED' },
    driverInfo: { podName: 'demo-driver' },
    executorState: { 'exec-1': 'COMPLETED' },
    sparkApplicationId: 'spark-1',
    lastSubmissionAttemptTime: at('10:00'),
    submissionAttempts: 1,
    executionAttempts: 1,
    submissionID: 'sub-1',
    terminationTime: at('11:00'),
  };
  assert.equal(spark.reflectStatus?.(sa({ status: { ...status, extra: 'dropped' } })), status);
});

// ---------------------------------------------------------------------------------------------------------------
// flink.apache.org/v1beta1 FlinkDeployment

const flink = kind(FLINK);
const fd = resource('flink.apache.org/v1beta1', 'FlinkDeployment');
const flinkHealth = (status?: Obj) => flink.interpretHealth?.(fd(status ? { status } : {}));

test('a FlinkDeployment without a job is healthy when its job manager is ready and its lifecycle stable', () => {
  assert.is(flinkHealth(), false);
  assert.is(flinkHealth({ jobManagerDeploymentStatus: 'READY', lifecycleState: 'STABLE' }), true);
  assert.is(flinkHealth({ jobManagerDeploymentStatus: 'READY', lifecycleState: 'DEPLOYED' }), false);
  assert.is(flinkHealth({ jobManagerDeploymentStatus: 'DEPLOYING', lifecycleState: 'STABLE' }), false);
});

test("a FlinkDeployment's job is healthy in a settled state and unhealthy in an unknown one", () => {
  const health = (state: string) => flinkHealth({ jobStatus: { state } });
  for (const state of ['RUNNING', 'FINISHED', 'FAILED', 'SUSPENDED', 'RESTARTING']) assert.is(health(state), true);
  assert.is(health('UNHEARD_OF'), false);
});

test('a starting FlinkDeployment job is healthy only when its error is one of the user errors', () => {
  const health = (state: string, error?: string) =>
    flinkHealth({ jobStatus: { state }, ...(error === undefined ? {} : { error }) });
  assert.is(health('CREATED'), false);
  assert.is(health('INITIALIZING', ''), false);
  assert.is(health('RECONCILING', 'pod failed: ImagePullBackOff'), true);
  assert.is(health('CREATED', 'back-off: CrashLoopBackOff'), true);
  assert.is(health('CREATED', 'quota exceeded'), false);
});

test('a FlinkDeployment is its job managers plus task managers, each asking for the larger cpu and memory', () => {
  const desired = fd({
    spec: {
      jobManager: { replicas: 2, resource: { cpu: 2, memory: '4Gi' } },
      taskManager: { replicas: 3, resource: { cpu: 1, memory: '2Gi' } },
    },
  });
  assert.equal(flink.getReplicas?.(desired), {
    replicas: 5,
    requirements: { resourceRequest: { cpu: '2', memory: '4Gi' }, namespace: 'team-a' },
  });
  const largerTaskManager = fd({
    spec: {
      jobManager: { resource: { cpu: 1, memory: '2Gi' } },
      taskManager: { replicas: 1, resource: { cpu: '2', memory: '4Gi' } },
    },
  });
  assert.equal(flink.getReplicas?.(largerTaskManager)?.requirements?.resourceRequest, { cpu: '2', memory: '4Gi' });
});

test("without task manager replicas, a FlinkDeployment's parallelism over its slots gives them", () => {
  const desired = fd({
    spec: {
      job: { parallelism: 5 },
      flinkConfiguration: { 'taskmanager.numberOfTaskSlots': '2' },
      taskManager: { resource: { cpu: 1.5 } },
    },
  });
  assert.equal(flink.getReplicas?.(desired), {
    replicas: 4,
    requirements: { resourceRequest: { cpu: '1500m' }, namespace: 'team-a' },
  });
  const noSlots = fd({
    spec: { job: { parallelism: 5 }, flinkConfiguration: { 'taskmanager.numberOfTaskSlots': '0' } },
  });
  assert.is(flink.getReplicas?.(noSlots)?.replicas, 2);
});

test("a FlinkDeployment's pod template gives its replicas' node claim and priority class", () => {
  const desired = fd({
    spec: {
      jobManager: { resource: { memory: '1Gi' } },
      podTemplate: {
        spec: {
          nodeSelector: { pool: 'flink' },
          tolerations: [{ key: 'batch', operator: 'Exists' }],
          priorityClassName: 'high',
        },
      },
    },
  });
  assert.equal(flink.getReplicas?.(desired), {
    replicas: 2,
    requirements: {
      nodeClaim: { nodeSelector: { pool: 'flink' }, tolerations: [{ key: 'batch', operator: 'Exists' }] },
      resourceRequest: { memory: '1Gi' },
      namespace: 'team-a',
      priorityClassName: 'high',
    },
  });
});

test('FlinkDeployments aggregate to the status of the last member that reports one', () => {
  const second = {
    clusterInfo: { 'flink-version': 'v1_17' },
    jobManagerDeploymentStatus: 'READY',
    jobStatus: { state: 'RUNNING' },
    lifecycleState: 'STABLE',
    observedGeneration: 4,
  };
  const desired = fd({ spec: { image: 'flink:1.17' }, status: { error: 'old', kept: 'yes' } });
  const result = flink.aggregateStatus?.(
    desired,
    members({ ...second, jobStatus: { state: 'FAILED' }, error: 'from m1' }, { ...second, extra: 'x' }, undefined),
  );
  assert.equal(result?.spec, { image: 'flink:1.17' });
  assert.equal(result?.status, { kept: 'yes', ...second });
  assert.equal(flink.aggregateStatus?.(desired, []), desired);
});

test('FlinkDeployments whose members report no status aggregate to an empty one', () => {
  assert.equal(flink.aggregateStatus?.(fd(), members(undefined, undefined))?.status, {
    error: '',
    jobManagerDeploymentStatus: '',
    lifecycleState: '',
    observedGeneration: 0,
  });
});

test("a FlinkDeployment's reflected status keeps its cluster, job, lifecycle and reconciliation", () => {
  assert.equal(flink.reflectStatus?.(fd()), {});
  const status = {
    clusterInfo: { 'flink-version': 'v1_17' },
    error: 'none',
    jobManagerDeploymentStatus: 'READY',
    jobStatus: { state: 'RUNNING', jobId: 'abc' },
    observedGeneration: 2,
    lifecycleState: 'STABLE',
    reconciliationStatus: { state: 'DEPLOYED' },
    taskManager: { replicas: 2 },
  };
  assert.equal(flink.reflectStatus?.(fd({ status: { ...status, extra: 'dropped' } })), status);
});

test.run();
