// The interpreters Karmada bundles for OpenKruise kinds. Each Karmada case cited below comes from
// pkg/resourceinterpreter/default/thirdparty/resourcecustomizations/apps.kruise.io/<version>/<Kind>/testdata/, its
// input reduced to the fields the operation reads. Every input is deep-frozen: an operation that wrote into what it
// was given would throw.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LuaHookError } from '../../src/interpreters/lua/luaRuntime.ts';
import { KRUISE } from '../../src/interpreters/thirdParty/kruise.ts';
import type {
  AggregatedStatusItem,
  Obj,
  ThirdPartyInterpreter,
} from '../../src/interpreters/thirdParty/thirdPartyInterpreter.ts';

function kind(key: string): Required<ThirdPartyInterpreter> {
  const found = KRUISE[key];
  if (!found) throw new Error(`no interpreter for ${key}`);
  return found as Required<ThirdPartyInterpreter>;
}

const ACJ = kind('apps.kruise.io/v1alpha1/AdvancedCronJob');
const BCJ = kind('apps.kruise.io/v1alpha1/BroadcastJob');
const CLONESET = kind('apps.kruise.io/v1alpha1/CloneSet');
const DAEMONSET = kind('apps.kruise.io/v1alpha1/DaemonSet');
const SIDECARSET = kind('apps.kruise.io/v1alpha1/SidecarSet');
const UNITED = kind('apps.kruise.io/v1alpha1/UnitedDeployment');
const STS = kind('apps.kruise.io/v1beta1/StatefulSet');

function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) frozen(v);
    Object.freeze(value);
  }
  return value;
}

const obj = (value: Obj): Obj => frozen(value);
const items = (value: AggregatedStatusItem[]): AggregatedStatusItem[] => frozen(value);

function throwsHookError(run: () => unknown, fn: string, message: RegExp): void {
  try {
    run();
  } catch (err) {
    assert.instance(err, LuaHookError);
    assert.is((err as LuaHookError).fn, fn);
    assert.match((err as Error).message, message);
    return;
  }
  assert.unreachable('expected a LuaHookError');
}

test('each Kruise kind has exactly the operations its bundled customization defines', () => {
  const ops = (key: string) =>
    Object.entries(KRUISE[key] ?? {})
      .filter(([, fn]) => typeof fn === 'function')
      .map(([name]) => name)
      .sort();
  assert.equal(ops('apps.kruise.io/v1alpha1/AdvancedCronJob'), ['aggregateStatus', 'getDependencies']);
  assert.equal(ops('apps.kruise.io/v1alpha1/BroadcastJob'), [
    'aggregateStatus',
    'getDependencies',
    'getReplicas',
    'interpretHealth',
    'reflectStatus',
    'retain',
    'reviseReplica',
  ]);
  const replicated = [
    'aggregateStatus',
    'getDependencies',
    'getReplicas',
    'interpretHealth',
    'reflectStatus',
    'reviseReplica',
  ];
  assert.equal(ops('apps.kruise.io/v1alpha1/CloneSet'), replicated);
  assert.equal(ops('apps.kruise.io/v1alpha1/UnitedDeployment'), replicated);
  assert.equal(ops('apps.kruise.io/v1beta1/StatefulSet'), replicated);
  assert.equal(ops('apps.kruise.io/v1alpha1/DaemonSet'), [
    'aggregateStatus',
    'getDependencies',
    'interpretHealth',
    'reflectStatus',
  ]);
  assert.equal(ops('apps.kruise.io/v1alpha1/SidecarSet'), [
    'aggregateStatus',
    'getDependencies',
    'getReplicas',
    'interpretHealth',
    'reflectStatus',
    'retain',
  ]);
});

// ---------------------------------------------------------------------------------------------------------------
// AdvancedCronJob

const ACJ_DESIRED = obj({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'AdvancedCronJob',
  metadata: { name: 'sample', namespace: 'test-acj' },
  spec: {
    schedule: '*/2 * * * *',
    template: { broadcastJobTemplate: { spec: { template: { spec: { containers: [{ name: 'nginx' }] } } } } },
  },
});

const bcjRef = (name: string, uid?: string) => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'BroadcastJob',
  name,
  namespace: 'test-acj',
  ...(uid ? { uid } : {}),
});

// AdvancedCronJob/testdata/aggregatestatus-test.yaml, "AdvancedCronJob with empty statusItems list". Karmada's test
// harness hands the script an empty list, which yields status {type: ""}; a controller never does: a binding with no
// member status reaches the script as nil (see luaAggregateStatus), and the script then returns its template as is.
test('an AdvancedCronJob on no member keeps its template as it is', () => {
  assert.equal(ACJ.aggregateStatus(ACJ_DESIRED, items([])), ACJ_DESIRED);
});

// AdvancedCronJob/testdata/aggregatestatus-test.yaml, "AdvancedCronJob with multiple clusters"
test("an AdvancedCronJob's active jobs are listed from every member; type and last schedule from the last", () => {
  const out = ACJ.aggregateStatus(
    ACJ_DESIRED,
    items([
      {
        clusterName: 'member1',
        status: {
          active: [bcjRef('sample-1681378080', 'f96013ef-2869-49d7-adf3-8f7231cc5e2a')],
          type: 'BroadcastJob',
          lastScheduleTime: '2023-04-13T09:30:00Z',
        },
      },
      {
        clusterName: 'member2',
        status: {
          active: [bcjRef('sample-1681378080', 'd1f3c194-d650-4cce-b23d-307a445bb92e')],
          type: 'BroadcastJob',
          lastScheduleTime: '2023-04-13T09:30:00Z',
        },
      },
      {
        clusterName: 'member3',
        status: {
          active: [bcjRef('sample-1681378100', 'a2b3c4d5-e6f7-8901-2345-6789abcdef01')],
          type: 'BroadcastJob',
          lastScheduleTime: '2023-04-13T09:31:00Z',
        },
      },
    ]),
  );
  assert.equal(out, {
    ...ACJ_DESIRED,
    status: {
      active: [
        bcjRef('sample-1681378080', 'f96013ef-2869-49d7-adf3-8f7231cc5e2a'),
        bcjRef('sample-1681378080', 'd1f3c194-d650-4cce-b23d-307a445bb92e'),
        bcjRef('sample-1681378100', 'a2b3c4d5-e6f7-8901-2345-6789abcdef01'),
      ],
      type: 'BroadcastJob',
      lastScheduleTime: '2023-04-13T09:31:00Z',
    },
  });
});

// AdvancedCronJob/testdata/aggregatestatus-test.yaml, "AdvancedCronJob with multiple active jobs per cluster"
test("an AdvancedCronJob lists every active job of each member, in the members' order", () => {
  const out = ACJ.aggregateStatus(
    ACJ_DESIRED,
    items([
      {
        clusterName: 'member1',
        status: {
          active: [bcjRef('sample-1681378080'), bcjRef('sample-1681378100')],
          type: 'BroadcastJob',
          lastScheduleTime: '2023-04-13T09:30:00Z',
        },
      },
      {
        clusterName: 'member2',
        status: {
          active: [bcjRef('sample-1681378120'), bcjRef('sample-1681378140'), bcjRef('sample-1681378160')],
          type: 'BroadcastJob',
          lastScheduleTime: '2023-04-13T09:31:00Z',
        },
      },
    ]),
  );
  assert.equal(out, {
    ...ACJ_DESIRED,
    status: {
      active: ['080', '100', '120', '140', '160'].map((n) => bcjRef(`sample-1681378${n}`)),
      type: 'BroadcastJob',
      lastScheduleTime: '2023-04-13T09:31:00Z',
    },
  });
});

// AdvancedCronJob/testdata/aggregatestatus-test.yaml, "AdvancedCronJob with partial data"
test('an AdvancedCronJob member with an empty status or no active jobs adds none', () => {
  const out = ACJ.aggregateStatus(
    ACJ_DESIRED,
    items([
      {
        clusterName: 'member1',
        status: {
          active: [bcjRef('sample-1681378080')],
          type: 'BroadcastJob',
          lastScheduleTime: '2023-04-13T09:30:00Z',
        },
      },
      { clusterName: 'member2', status: {} },
      { clusterName: 'member3', status: { type: 'BroadcastJob', lastScheduleTime: '2023-04-13T09:30:00Z' } },
    ]),
  );
  assert.equal(out, {
    ...ACJ_DESIRED,
    status: { active: [bcjRef('sample-1681378080')], type: 'BroadcastJob', lastScheduleTime: '2023-04-13T09:30:00Z' },
  });
});

// AdvancedCronJob/testdata/aggregatestatus-test.yaml, "AdvancedCronJob with single cluster"
test("an AdvancedCronJob on one member takes that member's status", () => {
  const status = {
    active: [bcjRef('sample-1681378080')],
    type: 'BroadcastJob',
    lastScheduleTime: '2023-04-13T09:30:00Z',
  };
  assert.equal(ACJ.aggregateStatus(ACJ_DESIRED, items([{ clusterName: 'member1', status }])), {
    ...ACJ_DESIRED,
    status,
  });
});

const acjWith = (template: Obj): Obj =>
  obj({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'AdvancedCronJob',
    metadata: { name: 'sample', namespace: 'test-acj' },
    spec: { template },
  });

const configMapEnv = (name: string, key: string) => ({ name: key, valueFrom: { configMapKeyRef: { name, key } } });
const secretEnv = (name: string, key: string) => ({ name: key, valueFrom: { secretKeyRef: { name, key } } });
const dep = (kind: 'ConfigMap' | 'Secret', name: string, namespace: string) => ({
  apiVersion: 'v1',
  kind,
  name,
  namespace,
});

// AdvancedCronJob/testdata/interpretdependency-test.yaml, "AdvancedCronJob dependency: broadcastjob configmap env"
test("an AdvancedCronJob depends on the ConfigMap its BroadcastJob template's env names, once", () => {
  const desired = acjWith({
    broadcastJobTemplate: {
      spec: {
        template: {
          spec: {
            containers: [{ name: 'app', env: [configMapEnv('db-config', 'host'), configMapEnv('db-config', 'port')] }],
          },
        },
      },
    },
  });
  assert.equal(ACJ.getDependencies(desired), [dep('ConfigMap', 'db-config', 'test-acj')]);
});

// AdvancedCronJob/testdata/interpretdependency-test.yaml, "AdvancedCronJob broadcastjob configmap volume"
test('an AdvancedCronJob depends on the ConfigMap its BroadcastJob template mounts', () => {
  const desired = acjWith({
    broadcastJobTemplate: {
      spec: {
        template: {
          spec: {
            containers: [{ name: 'nginx' }],
            volumes: [{ name: 'config-volume', configMap: { name: 'my-config' } }],
          },
        },
      },
    },
  });
  assert.equal(ACJ.getDependencies(desired), [dep('ConfigMap', 'my-config', 'test-acj')]);
});

// AdvancedCronJob/testdata/interpretdependency-test.yaml, "AdvancedCronJob dependency broadcast job mixed"
test("an AdvancedCronJob's ConfigMaps and Secrets from env and volumes come sorted by kind, then name", () => {
  const desired = acjWith({
    broadcastJobTemplate: {
      spec: {
        template: {
          spec: {
            containers: [{ name: 'app', env: [configMapEnv('db-config', 'host'), secretEnv('db-secret', 'password')] }],
            volumes: [
              { name: 'app-config', configMap: { name: 'app-config' } },
              { name: 'tls-certs', secret: { secretName: 'tls-secret' } },
            ],
          },
        },
      },
    },
  });
  assert.equal(ACJ.getDependencies(desired), [
    dep('ConfigMap', 'app-config', 'test-acj'),
    dep('ConfigMap', 'db-config', 'test-acj'),
    dep('Secret', 'db-secret', 'test-acj'),
    dep('Secret', 'tls-secret', 'test-acj'),
  ]);
});

// AdvancedCronJob/testdata/interpretdependency-test.yaml, "AdvancedCronJob dependency: jobtemplate configmap"
test("an AdvancedCronJob with a Job template depends on what the Job's pods reference", () => {
  const desired = acjWith({
    jobTemplate: {
      spec: {
        template: {
          spec: {
            containers: [{ name: 'worker', env: [configMapEnv('worker-config', 'path')] }],
            volumes: [{ name: 'shared-data', configMap: { name: 'shared-config' } }],
          },
        },
      },
    },
  });
  assert.equal(ACJ.getDependencies(desired), [
    dep('ConfigMap', 'shared-config', 'test-acj'),
    dep('ConfigMap', 'worker-config', 'test-acj'),
  ]);
});

// AdvancedCronJob/testdata/interpretdependency-test.yaml, "AdvancedCronJob dependency: secret only"
test('an AdvancedCronJob referencing only Secrets depends on each of them once', () => {
  const desired = acjWith({
    broadcastJobTemplate: {
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: 'secure-app',
                env: [secretEnv('api-credentials', 'key'), secretEnv('api-credentials', 'secret')],
              },
            ],
            volumes: [{ name: 'tls', secret: { secretName: 'tls-certs' } }],
          },
        },
      },
    },
  });
  assert.equal(ACJ.getDependencies(desired), [
    dep('Secret', 'api-credentials', 'test-acj'),
    dep('Secret', 'tls-certs', 'test-acj'),
  ]);
});

// ---------------------------------------------------------------------------------------------------------------
// BroadcastJob

const BCJ_DESIRED = obj({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'BroadcastJob',
  metadata: { labels: { app: 'sample' }, name: 'sample', namespace: 'test-bcj' },
});

const FAILED_MEMBER_STATUS = {
  active: 0,
  completionTime: '2023-04-06T15:01:47Z',
  conditions: [
    {
      lastProbeTime: '2023-04-06T15:01:47Z',
      lastTransitionTime: '2023-04-06T15:01:47Z',
      message: 'Job test-bcj/sample was active longer than specified deadline',
      reason: 'Failed',
      status: 'True',
      type: 'Failed',
    },
  ],
  desired: 1,
  failed: 1,
  phase: 'failed',
  startTime: '2023-04-06T15:01:37Z',
  succeeded: 0,
};

// BroadcastJob/testdata/aggregatestatus-test.yaml, "BroadcastJob with two status items"
test('a BroadcastJob that failed on members gets one Failed condition naming them, and summed counters', () => {
  const out = BCJ.aggregateStatus(
    BCJ_DESIRED,
    items([
      { clusterName: 'member1', applied: true, health: 'Healthy', status: FAILED_MEMBER_STATUS },
      { clusterName: 'member3', applied: true, health: 'Healthy', status: FAILED_MEMBER_STATUS },
    ]),
  );
  assert.equal(out, {
    ...BCJ_DESIRED,
    status: {
      active: 0,
      conditions: [
        {
          type: 'Failed',
          status: 'True',
          reason: 'JobFailed',
          message: 'Job executed failed in member clusters: member1, member3',
        },
      ],
      desired: 2,
      failed: 2,
      phase: 'failed',
      succeeded: 0,
    },
  });
});

// BroadcastJob/testdata/aggregatestatus-test.yaml, "BroadcastJob completed in all clusters"
test('a BroadcastJob complete on every member gets a Completed condition', () => {
  const complete = { succeeded: 1, desired: 1, conditions: [{ type: 'Complete', status: 'True' }] };
  const desired = obj({ ...BCJ_DESIRED, metadata: { name: 'sample', namespace: 'test-bcj' } });
  const out = BCJ.aggregateStatus(
    desired,
    items([
      { clusterName: 'member1', status: complete },
      { clusterName: 'member2', status: complete },
    ]),
  );
  assert.equal(out, {
    ...desired,
    status: {
      active: 0,
      conditions: [{ type: 'Completed', status: 'True', reason: 'Completed', message: 'Job completed' }],
      desired: 2,
      failed: 0,
      phase: '',
      succeeded: 2,
    },
  });
});

// BroadcastJob/testdata/aggregatestatus-test.yaml, "BroadcastJob with active and succeeded jobs"
test('a BroadcastJob still running somewhere gets its counters summed and no condition', () => {
  const desired = obj({ ...BCJ_DESIRED, metadata: { name: 'sample', namespace: 'test-bcj' } });
  const out = BCJ.aggregateStatus(
    desired,
    items([
      { clusterName: 'member1', status: { active: 1, desired: 1 } },
      { clusterName: 'member2', status: { succeeded: 1, desired: 1 } },
    ]),
  );
  assert.equal(out, { ...desired, status: { active: 1, desired: 2, phase: '', failed: 0, succeeded: 1 } });
});

// BroadcastJob/testdata/aggregatestatus-test.yaml, "BroadcastJob with no status items" (Karmada checks no output)
test('a BroadcastJob on no member keeps its template as it is', () => {
  assert.equal(BCJ.aggregateStatus(BCJ_DESIRED, items([])), BCJ_DESIRED);
});

const bcjWithTemplate = (spec: Obj): Obj =>
  obj({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'BroadcastJob',
    metadata: { name: 'sample', namespace: 'test-bcj' },
    spec: { template: { spec } },
  });

// BroadcastJob/testdata/interpretdependency-test.yaml, "BroadcastJob with configmap dependency"
test('a BroadcastJob depends on the ConfigMaps its pod template mounts and reads', () => {
  const desired = bcjWithTemplate({
    volumes: [{ name: 'configmap', configMap: { name: 'my-sample-config' } }],
    containers: [{ name: 'nginx', env: [configMapEnv('mysql-config', 'log'), configMapEnv('mysql-config', 'lower')] }],
  });
  assert.equal(BCJ.getDependencies(desired), [
    dep('ConfigMap', 'my-sample-config', 'test-bcj'),
    dep('ConfigMap', 'mysql-config', 'test-bcj'),
  ]);
});

// BroadcastJob/testdata/interpretdependency-test.yaml, "BroadcastJob with secret dependency"
test('a BroadcastJob depends on the Secret its env reads', () => {
  const desired = bcjWithTemplate({ containers: [{ name: 'nginx', env: [secretEnv('my-secret', 'password')] }] });
  assert.equal(BCJ.getDependencies(desired), [dep('Secret', 'my-secret', 'test-bcj')]);
});

// BroadcastJob/testdata/interpretdependency-test.yaml, "BroadcastJob with configmap and secret dependency"
test('a BroadcastJob depends on a mounted ConfigMap and an env Secret', () => {
  const desired = bcjWithTemplate({
    volumes: [{ name: 'cm', configMap: { name: 'app-config' } }],
    containers: [{ name: 'nginx', env: [secretEnv('api-secret', 'token')] }],
  });
  assert.equal(BCJ.getDependencies(desired), [
    dep('ConfigMap', 'app-config', 'test-bcj'),
    dep('Secret', 'api-secret', 'test-bcj'),
  ]);
});

const bcjStatus = (status: Obj): Obj =>
  obj({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'BroadcastJob', metadata: { name: 'sample' }, status });

// BroadcastJob/testdata/interprethealth-test.yaml, "BroadcastJob with failed phase should be Unhealthy"
test('a BroadcastJob with a failed pod is unhealthy', () => {
  assert.is(BCJ.interpretHealth(bcjStatus(FAILED_MEMBER_STATUS)), false);
});

// BroadcastJob/testdata/interprethealth-test.yaml, "BroadcastJob with desired zero should be Unhealthy"
test('a BroadcastJob that wants no pod is unhealthy', () => {
  assert.is(BCJ.interpretHealth(bcjStatus({ desired: 0, active: 0, succeeded: 0, failed: 0 })), false);
});

// BroadcastJob/testdata/interprethealth-test.yaml, "BroadcastJob with no active and no succeeded should be Unhealthy"
test('a BroadcastJob with no pod active and none succeeded is unhealthy', () => {
  assert.is(BCJ.interpretHealth(bcjStatus({ desired: 1, active: 0, succeeded: 0, failed: 0 })), false);
});

// BroadcastJob/testdata/interprethealth-test.yaml, "BroadcastJob healthy when active or succeeded exists"
test('a BroadcastJob with a pod running and none failed is healthy', () => {
  assert.is(BCJ.interpretHealth(bcjStatus({ desired: 1, active: 1, succeeded: 0, failed: 0 })), true);
});

// BroadcastJob/testdata/interpretreplica-test.yaml, "BroadcastJob with parallelism set to 3"
test("a BroadcastJob's replicas are its parallelism", () => {
  const desired = obj({
    ...BCJ_DESIRED,
    spec: { parallelism: 3, template: { spec: { containers: [{ name: 'nginx' }] } } },
  });
  assert.equal(BCJ.getReplicas(desired), { replicas: 3 });
});

// BroadcastJob/testdata/interpretreplica-test.yaml, "BroadcastJob without parallelism"
test('a BroadcastJob without parallelism has one replica', () => {
  assert.equal(BCJ.getReplicas(bcjWithTemplate({ containers: [{ name: 'nginx' }] })), { replicas: 1 });
});

// BroadcastJob/testdata/interpretstatus-test.yaml, "BroadcastJob with failed phase status"
test('a BroadcastJob reflects its counters, phase, times and conditions', () => {
  assert.equal(BCJ.reflectStatus(bcjStatus({ ...FAILED_MEMBER_STATUS, collisionCount: 0 })), FAILED_MEMBER_STATUS);
});

// BroadcastJob/testdata/interpretstatus-test.yaml, "BroadcastJob with completed phase status"
test('a completed BroadcastJob reflects its Complete condition', () => {
  const status = {
    active: 0,
    succeeded: 1,
    failed: 0,
    desired: 1,
    phase: 'completed',
    startTime: '2023-04-06T15:01:10Z',
    completionTime: '2023-04-06T15:01:20Z',
    conditions: [{ type: 'Complete', status: 'True' }],
  };
  assert.equal(BCJ.reflectStatus(bcjStatus(status)), status);
});

// BroadcastJob/testdata/interpretstatus-test.yaml, "BroadcastJob with empty status"
test('a BroadcastJob without a status reflects an empty one', () => {
  assert.equal(BCJ.reflectStatus(obj({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'BroadcastJob' })), {});
});

// BroadcastJob/testdata/retain-test.yaml, "BroadcastJob retain should preserve observed labels"
test("a BroadcastJob keeps the pod template labels the member's object has", () => {
  const withLabels = (app: string) =>
    obj({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'BroadcastJob',
      metadata: { name: 'sample', namespace: 'test-bcj' },
      spec: { template: { metadata: { labels: { app } } } },
    });
  assert.equal(BCJ.retain(withLabels('old-label'), withLabels('new-label')), withLabels('new-label'));
});

// BroadcastJob/testdata/revisereplica-test.yaml, "BroadcastJob revise replica should update parallelism"
test("a BroadcastJob's share of replicas is written as its parallelism", () => {
  const desired = obj({ ...BCJ_DESIRED, spec: { parallelism: 1 } });
  assert.equal(BCJ.reviseReplica(desired, 3), { ...desired, spec: { parallelism: 3 } });
});

// ---------------------------------------------------------------------------------------------------------------
// CloneSet

const cloneSet = (extra: Obj): Obj =>
  obj({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'sample', namespace: 'test-cloneset', generation: 1 },
    ...extra,
  });

// CloneSet/testdata/aggregatestatus-test.yaml, "CloneSet with two status items"
test("a CloneSet's counters are summed, its revisions taken, and its generation observed once members caught up", () => {
  const member = {
    availableReplicas: 2,
    currentRevision: 'sample-59df6bd888',
    expectedUpdatedReplicas: 2,
    labelSelector: 'app=sample,test=cloneset',
    observedGeneration: 1,
    readyReplicas: 2,
    replicas: 2,
    updateRevision: 'sample-59df6bd888',
    updatedReadyReplicas: 2,
    updatedReplicas: 2,
    generation: 1,
    resourceTemplateGeneration: 1,
  };
  const desired = cloneSet({
    metadata: { labels: { app: 'sample' }, name: 'sample', namespace: 'test-cloneset', generation: 1 },
  });
  const out = CLONESET.aggregateStatus(
    desired,
    items([
      { clusterName: 'member1', applied: true, health: 'Healthy', status: member },
      { clusterName: 'member3', applied: true, health: 'Healthy', status: member },
    ]),
  );
  assert.equal(out, {
    ...desired,
    status: {
      replicas: 4,
      readyReplicas: 4,
      availableReplicas: 4,
      updatedReplicas: 4,
      updatedReadyReplicas: 4,
      expectedUpdatedReplicas: 4,
      observedGeneration: 1,
      currentRevision: 'sample-59df6bd888',
      updateRevision: 'sample-59df6bd888',
      labelSelector: 'app=sample,test=cloneset',
    },
  });
});

// CloneSet/testdata/aggregatestatus-test.yaml, "CloneSet with partially ready replicas"
test('a CloneSet whose members report no revision gets empty revisions and label selector', () => {
  const member = (ready: number) => ({
    replicas: 2,
    readyReplicas: ready,
    availableReplicas: ready,
    updatedReplicas: 2,
    updatedReadyReplicas: ready,
    expectedUpdatedReplicas: 2,
    generation: 2,
    observedGeneration: 2,
    resourceTemplateGeneration: 2,
  });
  const desired = cloneSet({
    metadata: { name: 'sample', namespace: 'test-cloneset', generation: 2 },
    spec: { replicas: 4 },
  });
  const out = CLONESET.aggregateStatus(
    desired,
    items([
      { clusterName: 'member1', status: member(1) },
      { clusterName: 'member2', status: member(2) },
    ]),
  );
  assert.equal(out, {
    ...desired,
    status: {
      replicas: 4,
      readyReplicas: 3,
      availableReplicas: 3,
      updatedReplicas: 4,
      updatedReadyReplicas: 3,
      expectedUpdatedReplicas: 4,
      observedGeneration: 2,
      currentRevision: '',
      updateRevision: '',
      labelSelector: '',
    },
  });
});

// CloneSet/testdata/aggregatestatus-test.yaml, "CloneSet with mixed observed generations"
test('a CloneSet keeps its observed generation while a member has not observed its own', () => {
  const desired = cloneSet({
    metadata: { name: 'sample', namespace: 'test-cloneset', generation: 3 },
    status: { observedGeneration: 2 },
  });
  const out = CLONESET.aggregateStatus(
    desired,
    items([
      {
        clusterName: 'member1',
        status: { replicas: 2, readyReplicas: 2, generation: 3, observedGeneration: 3, resourceTemplateGeneration: 3 },
      },
      {
        clusterName: 'member2',
        status: { replicas: 2, readyReplicas: 2, generation: 3, observedGeneration: 2, resourceTemplateGeneration: 3 },
      },
    ]),
  );
  assert.equal(out, {
    ...desired,
    status: {
      replicas: 4,
      readyReplicas: 4,
      availableReplicas: 0,
      updatedReplicas: 0,
      updatedReadyReplicas: 0,
      expectedUpdatedReplicas: 0,
      observedGeneration: 2,
      currentRevision: '',
      updateRevision: '',
      labelSelector: '',
    },
  });
});

// CloneSet/testdata/aggregatestatus-test.yaml, "CloneSet with no status items"
test('a CloneSet on no member reports zero replicas and its generation observed', () => {
  const desired = cloneSet({});
  assert.equal(CLONESET.aggregateStatus(desired, items([])), {
    ...desired,
    status: {
      replicas: 0,
      readyReplicas: 0,
      availableReplicas: 0,
      updatedReplicas: 0,
      updatedReadyReplicas: 0,
      expectedUpdatedReplicas: 0,
      observedGeneration: 1,
    },
  });
});

const PODS_WITH_CONFIG = {
  volumes: [{ name: 'configmap', configMap: { name: 'my-sample-config' } }],
  containers: [{ name: 'nginx', env: [configMapEnv('mysql-config', 'log'), configMapEnv('mysql-config', 'lower')] }],
};

// CloneSet/testdata/interpretdependency-test.yaml, "CloneSet with configmap dependency"
test('a CloneSet depends on the ConfigMaps its pod template mounts and reads', () => {
  assert.equal(CLONESET.getDependencies(cloneSet({ spec: { replicas: 4, template: { spec: PODS_WITH_CONFIG } } })), [
    dep('ConfigMap', 'my-sample-config', 'test-cloneset'),
    dep('ConfigMap', 'mysql-config', 'test-cloneset'),
  ]);
});

const replicated = (generation: number, replicas: number, status: Obj): Obj =>
  obj({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'X', metadata: { generation }, spec: { replicas }, status });

// CloneSet/testdata/interprethealth-test.yaml, "CloneSet interpreting health test"
test('a CloneSet with its generation observed and every replica updated and available is healthy', () => {
  assert.is(
    CLONESET.interpretHealth(replicated(1, 2, { observedGeneration: 1, updatedReplicas: 2, availableReplicas: 2 })),
    true,
  );
});

// CloneSet/testdata/interprethealth-test.yaml, "CloneSet health when observedGeneration mismatches generation"
test('a CloneSet whose generation is not observed yet is unhealthy', () => {
  assert.is(
    CLONESET.interpretHealth(replicated(2, 2, { observedGeneration: 1, updatedReplicas: 2, availableReplicas: 2 })),
    false,
  );
});

// CloneSet/testdata/interprethealth-test.yaml, "CloneSet health when updatedReplicas less than desired replicas"
test('a CloneSet with fewer updated replicas than it wants is unhealthy', () => {
  assert.is(
    CLONESET.interpretHealth(replicated(1, 3, { observedGeneration: 1, updatedReplicas: 2, availableReplicas: 2 })),
    false,
  );
});

// CloneSet/testdata/interprethealth-test.yaml, "CloneSet health when availableReplicas less than updatedReplicas"
test('a CloneSet with an updated replica not available is unhealthy', () => {
  assert.is(
    CLONESET.interpretHealth(replicated(1, 2, { observedGeneration: 1, updatedReplicas: 2, availableReplicas: 1 })),
    false,
  );
});

// CloneSet/testdata/interpretreplica-test.yaml, "CloneSet with replicas set to 4"
test("a CloneSet's replicas are spec.replicas; a template without requests or placement asks for nothing", () => {
  assert.equal(CLONESET.getReplicas(cloneSet({ spec: { replicas: 4, template: { spec: PODS_WITH_CONFIG } } })), {
    replicas: 4,
  });
});

const CLONESET_STATUS = {
  availableReplicas: 2,
  currentRevision: 'sample-59df6bd888',
  expectedUpdatedReplicas: 2,
  labelSelector: 'app=sample,test=cloneset',
  observedGeneration: 1,
  readyReplicas: 2,
  replicas: 2,
  updateRevision: 'sample-59df6bd888',
  updatedReadyReplicas: 2,
  updatedReplicas: 2,
};

// CloneSet/testdata/interpretstatus-test.yaml, "CloneSet: interpret status test"
test('a CloneSet reflects its status fields with its generation and the resource template generation', () => {
  const observed = cloneSet({
    metadata: { annotations: { 'resourcetemplate.karmada.io/generation': '1' }, generation: 1 },
    status: { ...CLONESET_STATUS, collisionCount: 0 },
  });
  assert.equal(CLONESET.reflectStatus(observed), { ...CLONESET_STATUS, generation: 1, resourceTemplateGeneration: 1 });
});

// CloneSet/testdata/revisereplica-test.yaml, "CloneSet: revise replica test"
test("a CloneSet's share of replicas is written as spec.replicas", () => {
  const desired = cloneSet({
    spec: {
      replicas: 4,
      selector: { matchLabels: { app: 'sample' } },
      template: { metadata: { labels: { app: 'sample' } } },
    },
  });
  assert.equal(CLONESET.reviseReplica(desired, 1), {
    ...desired,
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'sample' } },
      template: { metadata: { labels: { app: 'sample' } } },
    },
  });
});

// ---------------------------------------------------------------------------------------------------------------
// DaemonSet

const daemonSet = (metadata: Obj, extra: Obj = {}): Obj =>
  obj({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'DaemonSet',
    metadata: { namespace: 'test-kruise-daemonset', ...metadata },
    ...extra,
  });

const dsMember = (hash: string | undefined, generation: number, observed: number, template: number) => ({
  currentNumberScheduled: 1,
  ...(hash ? { daemonSetHash: hash } : {}),
  desiredNumberScheduled: 1,
  numberAvailable: 1,
  numberMisscheduled: 0,
  numberReady: 1,
  observedGeneration: observed,
  updatedNumberScheduled: 1,
  generation,
  resourceTemplateGeneration: template,
});

const dsTotals = (observedGeneration: number, daemonSetHash: string | number) => ({
  observedGeneration,
  currentNumberScheduled: 2,
  numberMisscheduled: 0,
  desiredNumberScheduled: 2,
  numberReady: 2,
  updatedNumberScheduled: 2,
  numberAvailable: 2,
  numberUnavailable: 0,
  daemonSetHash,
});

// DaemonSet/testdata/aggregatestatus-test.yaml, "DaemonSet with two status items"
test("a DaemonSet's node counts are summed, its hash taken, its spec kept", () => {
  const desired = daemonSet(
    { name: 'sample', generation: 1 },
    { spec: { selector: { matchLabels: { app: 'sample-daemonset' } } } },
  );
  const out = DAEMONSET.aggregateStatus(
    desired,
    items([
      { clusterName: 'member1', status: dsMember('7dd59cf749', 1, 1, 1) },
      { clusterName: 'member3', status: dsMember('7dd59cf749', 1, 1, 1) },
    ]),
  );
  assert.equal(out, { ...desired, status: dsTotals(1, '7dd59cf749') });
});

// DaemonSet/testdata/aggregatestatus-test.yaml, "DaemonSet: aggregate status with no members"
test('a DaemonSet on no member reports zero nodes, hash 0, and its generation observed', () => {
  const desired = daemonSet({ name: 'sample-nil', generation: 3 });
  assert.equal(DAEMONSET.aggregateStatus(desired, items([])), {
    ...desired,
    status: {
      observedGeneration: 3,
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
      updatedNumberScheduled: 0,
      numberAvailable: 0,
      numberUnavailable: 0,
      daemonSetHash: 0,
    },
  });
});

// DaemonSet/testdata/aggregatestatus-test.yaml, "DaemonSet with all members updated to latest generation"
test('a DaemonSet observes its generation once every member reports it and observed its own', () => {
  const desired = daemonSet({ name: 'sample-updated', generation: 3 }, { status: { observedGeneration: 2 } });
  const out = DAEMONSET.aggregateStatus(
    desired,
    items([
      { clusterName: 'member1', status: dsMember('abc123', 3, 3, 3) },
      { clusterName: 'member2', status: dsMember('abc123', 3, 3, 3) },
    ]),
  );
  assert.equal(out, { ...desired, status: dsTotals(3, 'abc123') });
});

// DaemonSet/testdata/aggregatestatus-test.yaml, "DaemonSet with mixed observed generations"
test('a DaemonSet keeps its observed generation while a member has not observed its own', () => {
  const desired = daemonSet({ name: 'sample-mixed', generation: 3 }, { status: { observedGeneration: 2 } });
  const out = DAEMONSET.aggregateStatus(
    desired,
    items([
      { clusterName: 'member1', status: dsMember('def456', 3, 3, 3) },
      { clusterName: 'member2', status: dsMember('def456', 3, 2, 3) },
    ]),
  );
  assert.equal(out, { ...desired, status: dsTotals(2, 'def456') });
});

// DaemonSet/testdata/aggregatestatus-test.yaml, "DaemonSet with stale resourceTemplateGeneration"
test('a DaemonSet keeps its observed generation while a member reports an older template generation', () => {
  const desired = daemonSet({ name: 'sample-stale-template', generation: 3 }, { status: { observedGeneration: 2 } });
  const out = DAEMONSET.aggregateStatus(
    desired,
    items([
      { clusterName: 'member1', status: dsMember('ghi789', 3, 3, 3) },
      { clusterName: 'member2', status: dsMember('ghi789', 3, 3, 2) },
    ]),
  );
  assert.equal(out, { ...desired, status: dsTotals(2, 'ghi789') });
});

// DaemonSet/testdata/aggregatestatus-test.yaml, "DaemonSet with mixed nil status fields"
test('a DaemonSet member missing counters or hash adds nothing for them', () => {
  const desired = daemonSet({ name: 'sample-nil-fields', generation: 2 });
  const out = DAEMONSET.aggregateStatus(
    desired,
    items([
      {
        clusterName: 'member1',
        status: {
          currentNumberScheduled: 2,
          daemonSetHash: 'jkl012',
          desiredNumberScheduled: 2,
          numberAvailable: 2,
          numberMisscheduled: 0,
          numberReady: 2,
          observedGeneration: 2,
          updatedNumberScheduled: 2,
          generation: 2,
          resourceTemplateGeneration: 2,
        },
      },
      {
        clusterName: 'member2',
        status: {
          currentNumberScheduled: 1,
          numberMisscheduled: 0,
          numberReady: 1,
          observedGeneration: 2,
          generation: 2,
          resourceTemplateGeneration: 2,
        },
      },
    ]),
  );
  assert.equal(out, {
    ...desired,
    status: {
      observedGeneration: 2,
      currentNumberScheduled: 3,
      numberMisscheduled: 0,
      desiredNumberScheduled: 2,
      numberReady: 3,
      updatedNumberScheduled: 2,
      numberAvailable: 2,
      numberUnavailable: 0,
      daemonSetHash: 'jkl012',
    },
  });
});

const dsWithPods = (name: string, spec: Obj): Obj => daemonSet({ name }, { spec: { template: { spec } } });

// DaemonSet/testdata/interpretdependency-test.yaml, "DaemonSet with configmap dependency"
test('a DaemonSet depends on the ConfigMaps its pod template mounts and reads', () => {
  assert.equal(DAEMONSET.getDependencies(dsWithPods('sample', PODS_WITH_CONFIG)), [
    dep('ConfigMap', 'my-sample-config', 'test-kruise-daemonset'),
    dep('ConfigMap', 'mysql-config', 'test-kruise-daemonset'),
  ]);
});

// DaemonSet/testdata/interpretdependency-test.yaml, "DaemonSet with secret dependency"
test('a DaemonSet depends on the Secret its env reads', () => {
  const desired = dsWithPods('sample-secret', {
    containers: [{ name: 'nginx', env: [secretEnv('my-secret', 'password')] }],
  });
  assert.equal(DAEMONSET.getDependencies(desired), [dep('Secret', 'my-secret', 'test-kruise-daemonset')]);
});

// DaemonSet/testdata/interpretdependency-test.yaml, "DaemonSet with multiple containers sharing configmap"
test("a DaemonSet's containers sharing a ConfigMap make one dependency", () => {
  const desired = dsWithPods('sample-multicontainer', {
    containers: [
      { name: 'app1', env: [configMapEnv('shared-config', 'abc')] },
      { name: 'app2', env: [configMapEnv('shared-config', 'cba')] },
    ],
  });
  assert.equal(DAEMONSET.getDependencies(desired), [dep('ConfigMap', 'shared-config', 'test-kruise-daemonset')]);
});

// DaemonSet/testdata/interpretdependency-test.yaml, "DaemonSet with no dependencies"
test('a DaemonSet whose pods reference nothing has no dependencies', () => {
  const desired = dsWithPods('sample-no-deps', {
    containers: [{ name: 'nginx', env: [{ name: 'STATIC_VALUE', value: 'hello-world' }] }],
  });
  assert.equal(DAEMONSET.getDependencies(desired), []);
});

const dsHealth = (generation: number, status: Obj): Obj => daemonSet({ name: 'sample', generation }, { status });

// DaemonSet/testdata/interprethealth-test.yaml, "DaemonSet interpreting health test"
test('a DaemonSet with its generation observed and every node updated and available is healthy', () => {
  const status = { observedGeneration: 1, desiredNumberScheduled: 1, updatedNumberScheduled: 1, numberAvailable: 1 };
  assert.is(DAEMONSET.interpretHealth(dsHealth(1, status)), true);
});

// DaemonSet/testdata/interprethealth-test.yaml, "DaemonSet unhealthy - generation mismatch"
test('a DaemonSet whose generation is not observed yet is unhealthy', () => {
  const status = { observedGeneration: 3, desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 3 };
  assert.is(DAEMONSET.interpretHealth(dsHealth(5, status)), false);
});

// DaemonSet/testdata/interprethealth-test.yaml, "DaemonSet unhealthy - not all updated pods available"
test('a DaemonSet with an updated pod not available is unhealthy', () => {
  const status = { observedGeneration: 2, desiredNumberScheduled: 5, updatedNumberScheduled: 5, numberAvailable: 3 };
  assert.is(DAEMONSET.interpretHealth(dsHealth(2, status)), false);
});

// DaemonSet/testdata/interprethealth-test.yaml, "DaemonSet unhealthy - not all pods updated"
test('a DaemonSet with a node not updated is unhealthy', () => {
  const status = { observedGeneration: 2, desiredNumberScheduled: 5, updatedNumberScheduled: 3, numberAvailable: 3 };
  assert.is(DAEMONSET.interpretHealth(dsHealth(2, status)), false);
});

// DaemonSet/testdata/interprethealth-test.yaml, "DaemonSet healthy - zero desired pods"
test('a DaemonSet scheduled on no node is healthy', () => {
  const status = { observedGeneration: 1, desiredNumberScheduled: 0, updatedNumberScheduled: 0, numberAvailable: 0 };
  assert.is(DAEMONSET.interpretHealth(dsHealth(1, status)), true);
});

const dsStatus = (n: number, available: number, observedGeneration: number, hash: string, extra: Obj = {}) => ({
  currentNumberScheduled: n,
  daemonSetHash: hash,
  desiredNumberScheduled: n,
  numberAvailable: available,
  numberMisscheduled: 0,
  numberReady: n,
  observedGeneration,
  updatedNumberScheduled: n,
  numberUnavailable: n - available,
  ...extra,
});

// DaemonSet/testdata/interpretstatus-test.yaml, "DaemonSet: interpret status test"
test('a DaemonSet reflects its status fields with its generation and the resource template generation', () => {
  const observed = daemonSet(
    { name: 'sample', generation: 1, annotations: { 'resourcetemplate.karmada.io/generation': '1' } },
    { status: dsStatus(1, 1, 1, '7dd59cf749') },
  );
  assert.equal(DAEMONSET.reflectStatus(observed), {
    ...dsStatus(1, 1, 1, '7dd59cf749'),
    generation: 1,
    resourceTemplateGeneration: 1,
  });
});

// DaemonSet/testdata/interpretstatus-test.yaml, "DaemonSet: interpret status with empty status"
test('a DaemonSet without a status reflects an empty one', () => {
  const observed = daemonSet({
    name: 'sample-nil',
    generation: 1,
    annotations: { 'resourcetemplate.karmada.io/generation': '1' },
  });
  assert.equal(DAEMONSET.reflectStatus(observed), {});
});

// DaemonSet/testdata/interpretstatus-test.yaml, "DaemonSet: interpret status with missing metadata"
test('a DaemonSet without metadata reflects its status fields alone', () => {
  const observed = obj({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'DaemonSet',
    status: dsStatus(3, 2, 5, 'abc123'),
  });
  assert.equal(DAEMONSET.reflectStatus(observed), dsStatus(3, 2, 5, 'abc123'));
});

// DaemonSet/testdata/interpretstatus-test.yaml, "DaemonSet: interpret status with missing annotations"
test('a DaemonSet without annotations reflects its generation but no template generation', () => {
  const observed = daemonSet({ name: 'sample', generation: 7 }, { status: dsStatus(5, 5, 7, 'xyz789') });
  assert.equal(DAEMONSET.reflectStatus(observed), { ...dsStatus(5, 5, 7, 'xyz789'), generation: 7 });
});

// DaemonSet/testdata/interpretstatus-test.yaml, "DaemonSet: interpret status with missing resourcetemplate annotation"
test("a DaemonSet whose annotations lack Karmada's template generation reflects none", () => {
  const observed = daemonSet(
    { name: 'sample', generation: 3, annotations: { 'some-other-annotation': 'value' } },
    { status: dsStatus(2, 2, 3, 'def456') },
  );
  assert.equal(DAEMONSET.reflectStatus(observed), { ...dsStatus(2, 2, 3, 'def456'), generation: 3 });
});

// DaemonSet/testdata/interpretstatus-test.yaml, "DaemonSet: interpret status with invalid resourceTemplateGeneration"
test('a DaemonSet whose template generation annotation is not a number reflects none', () => {
  const observed = daemonSet(
    { name: 'sample', generation: 4, annotations: { 'resourcetemplate.karmada.io/generation': 'not-a-number' } },
    { status: dsStatus(4, 4, 4, 'ghi789') },
  );
  assert.equal(DAEMONSET.reflectStatus(observed), { ...dsStatus(4, 4, 4, 'ghi789'), generation: 4 });
});

// DaemonSet/testdata/interpretstatus-test.yaml, "DaemonSet: interpret status with high generation numbers"
test('a DaemonSet reflects large generations as numbers', () => {
  const status = { ...dsStatus(10, 8, 998, 'jkl012'), numberMisscheduled: 1, numberReady: 9 };
  const observed = daemonSet(
    { name: 'sample', generation: 999, annotations: { 'resourcetemplate.karmada.io/generation': '888' } },
    { status },
  );
  assert.equal(DAEMONSET.reflectStatus(observed), { ...status, generation: 999, resourceTemplateGeneration: 888 });
});

// ---------------------------------------------------------------------------------------------------------------
// SidecarSet

const SIDECAR_SPEC = {
  selector: { matchLabels: { app: 'sample', test: 'sidecarset' } },
  containers: [
    { name: 'sidecar', env: [configMapEnv('sidecar-config', 'config'), secretEnv('sidecar-secret', 'secret')] },
  ],
  volumes: [
    { name: 'configmap', configMap: { name: 'sidecar-config' } },
    { name: 'secret', secret: { secretName: 'sidecar-secret' } },
  ],
};

const sidecarSet = (extra: Obj): Obj =>
  obj({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 'sample-sidecarset', namespace: 'test-sidecarset' },
    ...extra,
  });

// SidecarSet/testdata/aggregatestatus-test.yaml, "SidecarSet with two status items"
test("a SidecarSet's pod counters are summed, and only its identity and status come back", () => {
  const desired = sidecarSet({
    metadata: { labels: { app: 'sample' }, name: 'sample-sidecarset', namespace: 'test-sidecarset', generation: 1 },
    spec: SIDECAR_SPEC,
  });
  const out = SIDECARSET.aggregateStatus(
    desired,
    items([
      { clusterName: '', status: { matchedPods: 2, updatedPods: 2, readyPods: 2 } },
      { clusterName: '', status: { matchedPods: 1, updatedPods: 1, readyPods: 1 } },
    ]),
  );
  assert.equal(out, {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 'sample-sidecarset', namespace: 'test-sidecarset', generation: 1, labels: { app: 'sample' } },
    status: { matchedPods: 3, updatedPods: 3, readyPods: 3 },
  });
});

// SidecarSet/testdata/interpretdependency-test.yaml, "SidecarSet with configmap and secret dependency"
test('a SidecarSet depends on the ConfigMaps and Secrets its sidecars read and mount, each once', () => {
  assert.equal(SIDECARSET.getDependencies(sidecarSet({ spec: SIDECAR_SPEC })), [
    dep('ConfigMap', 'sidecar-config', 'test-sidecarset'),
    dep('Secret', 'sidecar-secret', 'test-sidecarset'),
  ]);
});

// SidecarSet/testdata/interpretdependency-test.yaml, "SidecarSet with volume configmap and secret dependency"
test('a SidecarSet depends on the ConfigMap and Secret its volumes name', () => {
  const desired = sidecarSet({
    spec: {
      containers: [{ name: 'sidecar' }],
      volumes: [
        { name: 'config-vol', configMap: { name: 'sidecar-config' } },
        { name: 'secret-vol', secret: { secretName: 'sidecar-secret' } },
      ],
    },
  });
  assert.equal(SIDECARSET.getDependencies(desired), [
    dep('ConfigMap', 'sidecar-config', 'test-sidecarset'),
    dep('Secret', 'sidecar-secret', 'test-sidecarset'),
  ]);
});

// SidecarSet/testdata/interpretdependency-test.yaml, "SidecarSet with no dependencies"
test('a SidecarSet whose sidecars reference nothing has no dependencies', () => {
  assert.equal(SIDECARSET.getDependencies(sidecarSet({ spec: { containers: [{ name: 'sidecar' }] } })), []);
});

// SidecarSet/testdata/interprethealth-test.yaml, "SidecarSet interpreting health test"
test('a SidecarSet whose matched pods are all updated is healthy', () => {
  assert.is(SIDECARSET.interpretHealth(sidecarSet({ status: { matchedPods: 3, updatedPods: 3, readyPods: 3 } })), true);
});

// SidecarSet/testdata/interprethealth-test.yaml, "SidecarSet unhealthy when rollout is not complete"
test('a SidecarSet with a matched pod not updated is unhealthy', () => {
  assert.is(
    SIDECARSET.interpretHealth(sidecarSet({ status: { matchedPods: 3, updatedPods: 2, readyPods: 2 } })),
    false,
  );
});

// SidecarSet/testdata/interprethealth-test.yaml, "SidecarSet healthy when no pods are matched"
test('a SidecarSet matching no pod is healthy', () => {
  assert.is(SIDECARSET.interpretHealth(sidecarSet({ status: { matchedPods: 0, updatedPods: 0, readyPods: 0 } })), true);
});

// SidecarSet/testdata/interprethealth-test.yaml, "SidecarSet unhealthy when status is missing"
test('a SidecarSet without a status is unhealthy', () => {
  assert.is(SIDECARSET.interpretHealth(sidecarSet({})), false);
});

// SidecarSet/testdata/interpretreplica-test.yaml, "SidecarSet replicas should always be 0"
test('a SidecarSet has no replicas of its own', () => {
  assert.equal(SIDECARSET.getReplicas(sidecarSet({ spec: SIDECAR_SPEC })), { replicas: 0 });
});

// SidecarSet/testdata/interpretstatus-test.yaml, "SidecarSet: interpret status test"
test('a SidecarSet reflects its pod counters', () => {
  const status = { matchedPods: 3, updatedPods: 3, readyPods: 3 };
  assert.equal(SIDECARSET.reflectStatus(sidecarSet({ status: { ...status, observedGeneration: 1 } })), status);
});

// SidecarSet/testdata/interpretstatus-test.yaml, "SidecarSet interpret status with partial status"
test('a SidecarSet reflects a missing pod counter as 0', () => {
  assert.equal(SIDECARSET.reflectStatus(sidecarSet({ status: { matchedPods: 2 } })), {
    matchedPods: 2,
    updatedPods: 0,
    readyPods: 0,
  });
});

// SidecarSet/testdata/interpretstatus-test.yaml, "SidecarSet interpret status with no status"
test('a SidecarSet without a status reflects an empty one', () => {
  assert.equal(SIDECARSET.reflectStatus(sidecarSet({})), {});
});

// ---------------------------------------------------------------------------------------------------------------
// UnitedDeployment

const UNITED_PODS = {
  containers: [{ name: 'nginx', env: [configMapEnv('app-config', 'config'), secretEnv('app-secret', 'token')] }],
  volumes: [{ name: 'config-volume', configMap: { name: 'app-config' } }],
};

const united = (extra: Obj): Obj =>
  obj({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'UnitedDeployment',
    metadata: { name: 'sample-uniteddeployment', namespace: 'test-namespace', generation: 1 },
    ...extra,
  });

// UnitedDeployment/testdata/aggregatestatus-test.yaml, "UnitedDeployment with two status items"
test("a UnitedDeployment's replicas are summed and its generation observed once members caught up", () => {
  const desired = united({
    spec: { replicas: 3, topologySpread: [{ topologyKey: 'kubernetes.io/hostname', maxSkew: 1 }] },
  });
  const member = (n: number) => ({
    replicas: n,
    readyReplicas: n,
    updatedReplicas: n,
    availableReplicas: n,
    collisionCount: 0,
    observedGeneration: 1,
    generation: 1,
    resourceTemplateGeneration: 1,
  });
  const out = UNITED.aggregateStatus(
    desired,
    items([
      { clusterName: '', status: member(2) },
      { clusterName: '', status: member(1) },
    ]),
  );
  assert.equal(out, {
    ...desired,
    status: {
      replicas: 3,
      readyReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
      unavailableReplicas: 0,
      observedGeneration: 1,
    },
  });
});

// UnitedDeployment/testdata/aggregatestatus-test.yaml, "UnitedDeployment with mixed observed generations"
test('a UnitedDeployment keeps its observed generation while a member has not observed its own', () => {
  const desired = united({
    metadata: { name: 'sample-uniteddeployment', namespace: 'test-namespace', generation: 2 },
    status: { observedGeneration: 1 },
  });
  const member = (n: number, observedGeneration: number) => ({
    replicas: n,
    readyReplicas: n,
    updatedReplicas: n,
    availableReplicas: n,
    generation: 2,
    observedGeneration,
    resourceTemplateGeneration: 2,
  });
  const out = UNITED.aggregateStatus(
    desired,
    items([
      { clusterName: '', status: member(2, 2) },
      { clusterName: '', status: member(1, 1) },
    ]),
  );
  assert.equal(out, {
    ...desired,
    status: {
      replicas: 3,
      readyReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
      unavailableReplicas: 0,
      observedGeneration: 1,
    },
  });
});

// UnitedDeployment/testdata/aggregatestatus-test.yaml, "UnitedDeployment with no status items"
test('a UnitedDeployment on no member reports zero replicas and its generation observed', () => {
  const desired = united({});
  assert.equal(UNITED.aggregateStatus(desired, items([])), {
    ...desired,
    status: {
      replicas: 0,
      readyReplicas: 0,
      updatedReplicas: 0,
      availableReplicas: 0,
      unavailableReplicas: 0,
      observedGeneration: 1,
    },
  });
});

// UnitedDeployment/testdata/interpretdependency-test.yaml, "UnitedDeployment with configmap and secret dependency"
test('a UnitedDeployment depends on the ConfigMap and Secret its pod template references', () => {
  assert.equal(UNITED.getDependencies(united({ spec: { replicas: 3, template: { spec: UNITED_PODS } } })), [
    dep('ConfigMap', 'app-config', 'test-namespace'),
    dep('Secret', 'app-secret', 'test-namespace'),
  ]);
});

const CONDITIONS = [
  {
    type: 'Available',
    status: 'True',
    lastTransitionTime: '2023-01-01T00:00:00Z',
    reason: 'MinimumReplicasAvailable',
    message: 'Deployment has minimum availability.',
  },
  {
    type: 'Progressing',
    status: 'True',
    lastTransitionTime: '2023-01-01T00:00:00Z',
    reason: 'NewReplicaSetAvailable',
    message: 'ReplicaSet has successfully progressed.',
  },
];

// UnitedDeployment/testdata/interprethealth-test.yaml, "UnitedDeployment interpreting health test"
test('a UnitedDeployment with its generation observed and every replica updated and available is healthy', () => {
  const observed = united({
    spec: { replicas: 3 },
    status: {
      replicas: 3,
      readyReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
      observedGeneration: 1,
      conditions: CONDITIONS,
    },
  });
  assert.is(UNITED.interpretHealth(observed), true);
});

// UnitedDeployment/testdata/interprethealth-test.yaml, "UnitedDeployment unhealthy when observedGeneration mismatches"
test('a UnitedDeployment whose generation is not observed yet is unhealthy', () => {
  assert.is(
    UNITED.interpretHealth(replicated(2, 3, { observedGeneration: 1, updatedReplicas: 3, availableReplicas: 3 })),
    false,
  );
});

// UnitedDeployment/testdata/interprethealth-test.yaml, "UnitedDeployment unhealthy when rollout not complete"
test('a UnitedDeployment with fewer updated replicas than it wants is unhealthy', () => {
  assert.is(
    UNITED.interpretHealth(replicated(1, 3, { observedGeneration: 1, updatedReplicas: 2, availableReplicas: 2 })),
    false,
  );
});

// UnitedDeployment/testdata/interpretreplica-test.yaml, "UnitedDeployment with replicas set to 3"
test("a UnitedDeployment's replicas are spec.replicas", () => {
  assert.equal(UNITED.getReplicas(united({ spec: { replicas: 3, template: { spec: UNITED_PODS } } })), { replicas: 3 });
});

// UnitedDeployment/testdata/interpretstatus-test.yaml, "UnitedDeployment: interpret status test"
test('a UnitedDeployment reflects its counters, conditions and generation', () => {
  const status = {
    replicas: 3,
    updatedReplicas: 3,
    readyReplicas: 3,
    availableReplicas: 3,
    observedGeneration: 1,
    conditions: CONDITIONS,
  };
  assert.equal(UNITED.reflectStatus(united({ status: { ...status, collisionCount: 0 } })), {
    ...status,
    generation: 1,
  });
});

// UnitedDeployment/testdata/interpretstatus-test.yaml, "UnitedDeployment interpret status with resourceTemplateGeneration"
test('a UnitedDeployment reflects the resource template generation Karmada annotated it with', () => {
  const status = { replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 };
  const observed = united({
    metadata: { generation: 1, annotations: { 'resourcetemplate.karmada.io/generation': '5' } },
    status,
  });
  assert.equal(UNITED.reflectStatus(observed), { ...status, resourceTemplateGeneration: 5, generation: 1 });
});

// UnitedDeployment/testdata/revisereplica-test.yaml, "UnitedDeployment: revise replica test"
test("a UnitedDeployment's share of replicas is written as spec.replicas", () => {
  const spec = { selector: { matchLabels: { app: 'sample' } }, template: { spec: UNITED_PODS } };
  const desired = united({ spec: { replicas: 3, ...spec } });
  assert.equal(UNITED.reviseReplica(desired, 1), { ...desired, spec: { replicas: 1, ...spec } });
});

// ---------------------------------------------------------------------------------------------------------------
// StatefulSet (v1beta1)

const statefulSet = (extra: Obj): Obj =>
  obj({
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name: 'sample', namespace: 'test-statefulset', generation: 1 },
    ...extra,
  });

const stsMember = (
  ready: number,
  generation: number,
  observedGeneration: number,
  template: number,
  extra: Obj = {},
) => ({
  replicas: 2,
  readyReplicas: ready,
  availableReplicas: ready,
  updatedReplicas: 2,
  updatedReadyReplicas: ready,
  currentReplicas: 2,
  generation,
  observedGeneration,
  resourceTemplateGeneration: template,
  ...extra,
});

// StatefulSet/testdata/aggregatestatus-test.yaml, "StatefulSet with two status items"
test("a StatefulSet's counters are summed, its revisions taken, and its spec kept", () => {
  const desired = statefulSet({
    spec: { replicas: 2, serviceName: 'sample-statefulset-headless-service', podManagementPolicy: 'Parallel' },
  });
  const revisions = { currentRevision: 'sample-5675547df7', updateRevision: 'sample-5675547df7' };
  const out = STS.aggregateStatus(
    desired,
    items([
      { clusterName: 'member1', applied: true, status: stsMember(2, 1, 1, 1, revisions) },
      { clusterName: 'member3', applied: true, status: stsMember(2, 1, 1, 1, revisions) },
    ]),
  );
  assert.equal(out, {
    ...desired,
    status: {
      replicas: 4,
      readyReplicas: 4,
      currentReplicas: 4,
      updatedReplicas: 4,
      availableReplicas: 4,
      updatedReadyReplicas: 4,
      ...revisions,
      observedGeneration: 1,
    },
  });
});

// StatefulSet/testdata/aggregatestatus-test.yaml, "StatefulSet with partially ready replicas"
test('a StatefulSet whose members report no revision gets empty revisions', () => {
  const desired = statefulSet({ metadata: { name: 'sample', namespace: 'test-statefulset', generation: 2 } });
  const out = STS.aggregateStatus(
    desired,
    items([
      { clusterName: 'member1', status: stsMember(1, 2, 2, 2) },
      { clusterName: 'member2', status: stsMember(2, 2, 2, 2) },
    ]),
  );
  assert.equal(out, {
    ...desired,
    status: {
      replicas: 4,
      readyReplicas: 3,
      currentReplicas: 4,
      updatedReplicas: 4,
      availableReplicas: 3,
      updatedReadyReplicas: 3,
      currentRevision: '',
      updateRevision: '',
      observedGeneration: 2,
    },
  });
});

const STS_STALE = {
  replicas: 4,
  readyReplicas: 4,
  currentReplicas: 0,
  updatedReplicas: 0,
  availableReplicas: 0,
  updatedReadyReplicas: 0,
  currentRevision: '',
  updateRevision: '',
  observedGeneration: 2,
};

// StatefulSet/testdata/aggregatestatus-test.yaml, "StatefulSet with mixed observed generations"
test('a StatefulSet keeps its observed generation while a member has not observed its own', () => {
  const desired = statefulSet({
    metadata: { name: 'sample', namespace: 'test-statefulset', generation: 3 },
    status: { observedGeneration: 2 },
  });
  const member = (observedGeneration: number) => ({
    replicas: 2,
    readyReplicas: 2,
    generation: 3,
    observedGeneration,
    resourceTemplateGeneration: 3,
  });
  const out = STS.aggregateStatus(
    desired,
    items([
      { clusterName: 'member1', status: member(3) },
      { clusterName: 'member2', status: member(2) },
    ]),
  );
  assert.equal(out, { ...desired, status: STS_STALE });
});

// StatefulSet/testdata/aggregatestatus-test.yaml, "StatefulSet with no status items"
test('a StatefulSet on no member reports zero replicas, empty revisions and its generation observed', () => {
  const desired = statefulSet({});
  assert.equal(STS.aggregateStatus(desired, items([])), {
    ...desired,
    status: {
      replicas: 0,
      readyReplicas: 0,
      currentReplicas: 0,
      updatedReplicas: 0,
      availableReplicas: 0,
      updatedReadyReplicas: 0,
      updateRevision: '',
      currentRevision: '',
      observedGeneration: 1,
    },
  });
});

// StatefulSet/testdata/aggregatestatus-test.yaml, "StatefulSet with stale resourceTemplateGeneration"
test('a StatefulSet keeps its observed generation while a member reports an older template generation', () => {
  const desired = statefulSet({
    metadata: { name: 'sample', namespace: 'test-statefulset', generation: 3 },
    status: { observedGeneration: 2 },
  });
  const member = (template: number) => ({
    replicas: 2,
    readyReplicas: 2,
    generation: 3,
    observedGeneration: 3,
    resourceTemplateGeneration: template,
  });
  const out = STS.aggregateStatus(
    desired,
    items([
      { clusterName: 'member1', status: member(3) },
      { clusterName: 'member2', status: member(2) },
    ]),
  );
  assert.equal(out, { ...desired, status: STS_STALE });
});

// StatefulSet/testdata/interpretdependency-test.yaml, "StatefulSet with configmap and secret dependency"
test('a StatefulSet depends on the ConfigMap and Secret its pod template references', () => {
  const desired = statefulSet({
    metadata: { name: 'sample', namespace: 'test-ns' },
    spec: {
      replicas: 1,
      template: {
        spec: {
          volumes: [{ name: 'config-vol', configMap: { name: 'my-config' } }],
          containers: [{ name: 'nginx', env: [secretEnv('my-secret', 'password')] }],
        },
      },
    },
  });
  assert.equal(STS.getDependencies(desired), [
    dep('ConfigMap', 'my-config', 'test-ns'),
    dep('Secret', 'my-secret', 'test-ns'),
  ]);
});

const stsHealth = (generation: number, status: Obj): Obj =>
  statefulSet({ metadata: { name: 'sample', generation }, spec: { replicas: 3 }, status });

// StatefulSet/testdata/interprethealth-test.yaml, "StatefulSet unhealthy when observedGeneration mismatches"
test('a StatefulSet whose generation is not observed yet is unhealthy', () => {
  assert.is(
    STS.interpretHealth(stsHealth(2, { observedGeneration: 1, updatedReplicas: 3, availableReplicas: 3 })),
    false,
  );
});

// StatefulSet/testdata/interprethealth-test.yaml, "StatefulSet unhealthy when rollout is not complete"
test('a StatefulSet with fewer updated replicas than it wants is unhealthy', () => {
  assert.is(
    STS.interpretHealth(stsHealth(1, { observedGeneration: 1, updatedReplicas: 2, availableReplicas: 2 })),
    false,
  );
});

// StatefulSet/testdata/interprethealth-test.yaml, "StatefulSet unhealthy when availableReplicas < updatedReplicas"
test('a StatefulSet with an updated replica not available is unhealthy', () => {
  assert.is(
    STS.interpretHealth(stsHealth(1, { observedGeneration: 1, updatedReplicas: 3, availableReplicas: 2 })),
    false,
  );
});

// StatefulSet/testdata/interprethealth-test.yaml, "StatefulSet healthy when rollout and availability are complete"
test('a StatefulSet with its generation observed and every replica updated and available is healthy', () => {
  assert.is(
    STS.interpretHealth(stsHealth(1, { observedGeneration: 1, updatedReplicas: 3, availableReplicas: 3 })),
    true,
  );
});

const stsReplicas = (replicas: number): Obj =>
  statefulSet({ spec: { replicas, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] } } } });

// StatefulSet/testdata/interpretreplica-test.yaml, "StatefulSet with replicas set to 3"
test("a StatefulSet's replicas are spec.replicas", () => {
  assert.equal(STS.getReplicas(stsReplicas(3)), { replicas: 3 });
});

// StatefulSet/testdata/interpretreplica-test.yaml, "StatefulSet with zero replicas"
test('a StatefulSet scaled to zero has zero replicas', () => {
  assert.equal(STS.getReplicas(stsReplicas(0)), { replicas: 0 });
});

const STS_STATUS = {
  replicas: 2,
  readyReplicas: 2,
  currentReplicas: 2,
  updatedReplicas: 2,
  availableReplicas: 2,
  updatedReadyReplicas: 2,
  updateRevision: 'sample-5675547df7',
  currentRevision: 'sample-5675547df7',
  observedGeneration: 1,
};

// StatefulSet/testdata/interpretstatus-test.yaml, "StatefulSet: interpret status test"
test('a StatefulSet reflects its status fields with its generation and the resource template generation', () => {
  const observed = statefulSet({
    metadata: { annotations: { 'resourcetemplate.karmada.io/generation': '1' }, generation: 1 },
    status: { ...STS_STATUS, collisionCount: 0, labelSelector: 'app=sample' },
  });
  assert.equal(STS.reflectStatus(observed), { ...STS_STATUS, generation: 1, resourceTemplateGeneration: 1 });
});

// StatefulSet/testdata/interpretstatus-test.yaml, "StatefulSet interpret status without resourceTemplateGeneration annotation"
test('a StatefulSet without the template generation annotation reflects its own generation only', () => {
  const status = {
    replicas: 3,
    readyReplicas: 2,
    currentReplicas: 3,
    updatedReplicas: 3,
    availableReplicas: 2,
    updatedReadyReplicas: 2,
    observedGeneration: 2,
  };
  const observed = statefulSet({ metadata: { name: 'sample', generation: 2 }, status });
  assert.equal(STS.reflectStatus(observed), { ...status, generation: 2 });
});

// StatefulSet/testdata/revisereplica-test.yaml, "StatefulSet revise replica from 1 to 3"
test("a StatefulSet's share of replicas is written as spec.replicas", () => {
  assert.equal(STS.reviseReplica(stsReplicas(1), 3), stsReplicas(3));
});

// ---------------------------------------------------------------------------------------------------------------
// Behaviour of Karmada's scripts beyond its cases

test("a Kruise workload's per-replica requirements come from its pod template, as kube.accuratePodRequirements gives", () => {
  const desired = cloneSet({
    spec: {
      replicas: 2,
      template: {
        spec: {
          nodeSelector: { zone: 'a' },
          containers: [{ name: 'app', resources: { requests: { cpu: '250m', memory: '64Mi' } } }],
        },
      },
    },
  });
  assert.equal(CLONESET.getReplicas(desired), {
    replicas: 2,
    requirements: { nodeClaim: { nodeSelector: { zone: 'a' } }, resourceRequest: { cpu: '250m', memory: '64Mi' } },
  });
});

test('a Kruise workload without replicas, or whose pod template names nothing, fails like its script', () => {
  // spec.replicas unset: the script returns nil where Karmada requires a number.
  throwsHookError(() => CLONESET.getReplicas(cloneSet({ spec: { template: {} } })), 'GetReplicas', /not number/);
  // kube.getPodDependencies gives nil for a template that references nothing, and the script returns it as is.
  throwsHookError(
    () => STS.getDependencies(statefulSet({ spec: { template: { spec: { containers: [{ name: 'app' }] } } } })),
    'GetDependencies',
    /got nil/,
  );
  // The SidecarSet script takes the length of the member list, nil when no member reported.
  throwsHookError(() => SIDECARSET.aggregateStatus(sidecarSet({}), items([])), 'AggregateStatus', /length of a nil/);
});

test('a BroadcastJob member without a terminal condition counts as the member before it', () => {
  const out = BCJ.aggregateStatus(
    BCJ_DESIRED,
    items([
      { clusterName: 'member1', status: { failed: 1, conditions: [{ type: 'Failed', status: 'True' }] } },
      { clusterName: 'member2', status: { active: 1 } },
    ]),
  );
  assert.equal((out.status as Obj).conditions, [
    {
      type: 'Failed',
      status: 'True',
      reason: 'JobFailed',
      message: 'Job executed failed in member clusters: member1, member2',
    },
  ]);
});

test("a UnitedDeployment's conditions are merged by type, the last member's winning", () => {
  const out = UNITED.aggregateStatus(
    united({}),
    items([
      {
        clusterName: 'a',
        status: {
          conditions: [
            { type: 'Available', status: 'True' },
            { type: 'Progressing', status: 'True' },
          ],
        },
      },
      { clusterName: 'b', status: { conditions: [{ type: 'Available', status: 'False' }] } },
    ]),
  );
  assert.equal((out.status as Obj).conditions, [
    { type: 'Available', status: 'False' },
    { type: 'Progressing', status: 'True' },
  ]);
});

test('the template generation annotation is read as Lua tonumber reads it', () => {
  const reflect = (value: string) =>
    CLONESET.reflectStatus(
      cloneSet({ metadata: { annotations: { 'resourcetemplate.karmada.io/generation': value } }, status: {} }),
    ).resourceTemplateGeneration;
  assert.is(reflect(' 12\n'), 12);
  assert.is(reflect('0x1F'), 31);
  assert.is(reflect('2.5'), 2.5);
  assert.is(reflect('1e3'), undefined);
  assert.is(reflect('9223372036854775808'), undefined);
});

test('a reflected status leaves out empty lists, and a revised object keeps the empty fields it was given', () => {
  assert.equal(UNITED.reflectStatus(united({ status: { replicas: 1, conditions: [] } })), {
    replicas: 1,
    generation: 1,
  });
  const desired = cloneSet({ spec: { replicas: 1, template: { metadata: { labels: {} } }, volumeClaimTemplates: [] } });
  assert.equal(CLONESET.reviseReplica(desired, 2), {
    ...desired,
    spec: { replicas: 2, template: { metadata: { labels: {} } }, volumeClaimTemplates: [] },
  });
});

test.run();
