// The interpreters Karmada bundles for Argo Workflows and Kyverno policies, on the cases Karmada tests them with
// (pkg/resourceinterpreter/default/thirdparty/resourcecustomizations/<group>/<version>/<Kind>/testdata/*.yaml).
// Inputs keep only the fields the operation reads or carries into its result.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ARGO_KYVERNO } from '../../src/interpreters/thirdParty/argoKyverno.ts';
import type {
  AggregatedStatusItem,
  Obj,
  ThirdPartyInterpreter,
} from '../../src/interpreters/thirdParty/thirdPartyInterpreter.ts';

const kind = (key: string): ThirdPartyInterpreter => {
  const interpreter = ARGO_KYVERNO[key];
  if (!interpreter) throw new Error(`no bundled interpreter for ${key}`);
  return interpreter;
};
const workflow = kind('argoproj.io/v1alpha1/Workflow');
const clusterPolicy = kind('kyverno.io/v1/ClusterPolicy');
const policy = kind('kyverno.io/v1/Policy');

/** Runs fn on a frozen deep copy of each input: an operation must never change what it is given. */
function untouched<T>(inputs: unknown[], fn: () => T): T {
  const before = structuredClone(inputs);
  const result = fn();
  assert.equal(inputs, before, 'the inputs were changed');
  return result;
}

test('the bundled table covers exactly the Argo and Kyverno kinds, each with only the operations Karmada defines', () => {
  assert.equal(Object.keys(ARGO_KYVERNO).sort(), [
    'argoproj.io/v1alpha1/Workflow',
    'kyverno.io/v1/ClusterPolicy',
    'kyverno.io/v1/Policy',
  ]);
  assert.equal(Object.keys(workflow).sort(), [
    'getDependencies',
    'getReplicas',
    'interpretHealth',
    'retain',
    'reviseReplica',
  ]);
  assert.equal(Object.keys(clusterPolicy).sort(), ['aggregateStatus', 'interpretHealth', 'reflectStatus']);
  assert.equal(Object.keys(policy).sort(), ['aggregateStatus', 'interpretHealth', 'reflectStatus']);
});

// ---------------------------------------------------------------------------------------------------------------
// argoproj.io/v1alpha1 Workflow

const wf = (spec: Obj, extra: Obj = {}): Obj => ({
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Workflow',
  metadata: { name: 'sample', namespace: 'test-workflow' },
  spec,
  ...extra,
});

// Workflow/testdata/interpretdependency-test.yaml "Workflow with no dependencies"
test('a Workflow that names no volume, secret or service account depends on nothing', () => {
  const desired = wf({
    parallelism: 1,
    entrypoint: 'simple-task',
    templates: [{ name: 'simple-task', container: { image: 'busybox', command: ['echo'], args: ['hello'] } }],
  });
  assert.equal(
    untouched([desired], () => workflow.getDependencies?.(desired)),
    [],
  );
});

// Workflow/testdata/interpretdependency-test.yaml "Workflow with volume dependency"
test("a Workflow depends on its volumes' claims and on its service account, in its namespace", () => {
  const desired = wf({
    volumes: [{ name: 'workdir', persistentVolumeClaim: { claimName: 'my-existing-volume' } }],
    serviceAccountName: 'my-service-account',
  });
  assert.equal(
    untouched([desired], () => workflow.getDependencies?.(desired)),
    [
      { apiVersion: 'v1', kind: 'PersistentVolumeClaim', name: 'my-existing-volume', namespace: 'test-workflow' },
      { apiVersion: 'v1', kind: 'ServiceAccount', name: 'my-service-account', namespace: 'test-workflow' },
    ],
  );
});

// Workflow/testdata/interpretdependency-test.yaml "Workflow with volume ConfigMap dependency"
test('a Workflow depends on the ConfigMap a volume mounts', () => {
  const desired = wf({ volumes: [{ name: 'config-volume', configMap: { name: 'workflow-config' } }] });
  assert.equal(workflow.getDependencies?.(desired), [
    { apiVersion: 'v1', kind: 'ConfigMap', name: 'workflow-config', namespace: 'test-workflow' },
  ]);
});

// Workflow/testdata/interprethealth-test.yaml "Workflow interpreting health test - Succeeded"
test('a Workflow that succeeded is healthy', () => {
  const observed = wf({ suspend: true }, { status: { phase: 'Succeeded', progress: '1/1' } });
  assert.is(
    untouched([observed], () => workflow.interpretHealth?.(observed)),
    true,
  );
});

// Workflow/testdata/interprethealth-test.yaml "Workflow interpreting health test - Failed"
test('a Workflow that failed is unhealthy', () => {
  assert.is(workflow.interpretHealth?.(wf({}, { status: { phase: 'Failed', progress: '0/1' } })), false);
});

// Workflow/testdata/interprethealth-test.yaml "Workflow interpreting health test - Error"
test('a Workflow in error is unhealthy', () => {
  assert.is(workflow.interpretHealth?.(wf({}, { status: { phase: 'Error', progress: '0/1' } })), false);
});

const toleration = { key: 'key', operation: 'Equal', value: 'value', effect: 'NoSchedule' };

// Workflow/testdata/interpretreplica-test.yaml "Workflow with parallelism set to 2"
test("a Workflow's replicas are its parallelism, and each needs the nodes its tolerations allow", () => {
  const desired = wf({
    parallelism: 2,
    tolerations: [toleration],
    templates: [
      { name: 'whalesay', container: { image: 'docker/whalesay', resources: { requests: { memory: '1Mi' } } } },
    ],
  });
  // Karmada's case checks the count only; the requirement is what the script builds from the workflow's
  // affinity, nodeSelector and tolerations (the templates' containers are not read).
  assert.equal(
    untouched([desired], () => workflow.getReplicas?.(desired)),
    { replicas: 2, requirements: { nodeClaim: { tolerations: [toleration] } } },
  );
});

// Workflow/testdata/interpretreplica-test.yaml "Workflow with parallelism unset"
test('a Workflow without parallelism counts as one replica with no requirement', () => {
  const desired = wf({ entrypoint: 'simple-template', templates: [{ name: 'simple-template' }] });
  assert.equal(workflow.getReplicas?.(desired), { replicas: 1 });
});

// Workflow/testdata/retain-test.yaml "Workflow retain should preserve observed suspend"
test('a member keeps whether its Workflow is suspended', () => {
  const desired = wf({ parallelism: 1, suspend: false });
  const observed = wf({ parallelism: 1, suspend: true });
  assert.equal(
    untouched([desired, observed], () => workflow.retain?.(desired, observed)),
    wf({ parallelism: 1, suspend: true }),
  );
});

// Workflow/testdata/retain-test.yaml "Workflow retain should preserve observed status"
test("a member keeps its Workflow's status, the rest is what is desired", () => {
  const spec = {
    parallelism: 1,
    volumes: [{ name: 'workdir', persistentVolumeClaim: { claimName: 'my-existing-volume' } }],
    imagePullSecrets: [{ name: 'my-secret' }],
    tolerations: [toleration],
    templates: [{ name: 'volumes-existing-example', steps: [[{ name: 'hello', template: 'whalesay' }]] }],
  };
  const status = {
    finishedAt: '2025-12-12T10:05:00Z',
    phase: 'Succeeded',
    progress: '1/1',
    startedAt: '2025-12-12T10:00:00Z',
  };
  const desired = wf(spec, {
    metadata: { labels: { app: 'sample' }, name: 'sample-recent', namespace: 'test-workflow' },
  });
  const observed = wf({ parallelism: 1, serviceAccountName: 'my-service-account' }, { status });
  assert.equal(workflow.retain?.(desired, observed), { ...desired, status });
});

// Workflow/testdata/revisereplica-test.yaml "Workflow revise replica should update parallelism"
test("a member's share of the replicas is written as the Workflow's parallelism", () => {
  const desired = wf({ parallelism: 1 });
  assert.equal(
    untouched([desired], () => workflow.reviseReplica?.(desired, 3)),
    wf({ parallelism: 3 }),
  );
});

// ---------------------------------------------------------------------------------------------------------------
// kyverno.io/v1 ClusterPolicy and Policy: the same interpretation for both

const ready = (extra: Obj = {}): Obj => ({ type: 'Ready', status: 'True', reason: 'Succeeded', ...extra });
const ruleCount = (validate: number, mutate = 0) => ({ generate: 0, mutate, validate, verifyimages: 0 });

for (const [name, interpreter, namespace] of [
  ['ClusterPolicy', clusterPolicy, undefined],
  ['Policy', policy, 'test-policy'],
] as const) {
  const kyverno = (extra: Obj = {}, metadata: Obj = { name: 'sample' }): Obj => ({
    apiVersion: 'kyverno.io/v1',
    kind: name,
    metadata: namespace ? { ...metadata, namespace } : metadata,
    ...extra,
  });
  const health = (status?: Obj) =>
    interpreter.interpretHealth?.(kyverno(status === undefined ? {} : { status }, { name: 'sample' }));

  // <Kind>/testdata/interprethealth-test.yaml "… ready=true" / "… status.ready true"
  test(`a ${name} whose status says ready is healthy`, () => {
    assert.is(health({ ready: true }), true);
  });

  // <Kind>/testdata/interprethealth-test.yaml "… ready=false" / "… status.ready false"
  test(`a ${name} whose status says not ready is unhealthy`, () => {
    assert.is(health({ ready: false }), false);
  });

  // <Kind>/testdata/interprethealth-test.yaml "… Ready=True and reason=Succeeded" / "… Ready condition succeeded"
  test(`a ${name} without a ready field is healthy when its Ready condition is True for reason Succeeded`, () => {
    assert.is(health({ conditions: [ready()] }), true);
  });

  // <Kind>/testdata/interprethealth-test.yaml "… reason is not Succeeded" / "… Ready condition but failed reason"
  test(`a ${name} whose Ready condition is True for another reason is unhealthy`, () => {
    assert.is(health({ conditions: [ready({ reason: name === 'Policy' ? 'Failed' : 'Progressing' })] }), false);
  });

  // <Kind>/testdata/interprethealth-test.yaml "… Ready condition is missing" / "… no Ready condition"
  test(`a ${name} whose conditions include no Ready one is unhealthy`, () => {
    const conditions =
      name === 'Policy'
        ? [
            { type: 'Progressing', status: 'True', reason: 'InProgress' },
            { type: 'Validating', status: 'True', reason: 'Ongoing' },
          ]
        : [{ type: 'SomethingElse', status: 'True', reason: 'Succeeded' }];
    assert.is(health({ conditions }), false);
  });

  // ClusterPolicy/testdata/interprethealth-test.yaml "… conditions are empty"; Policy/…: "Policy with empty status"
  test(`a ${name} with an empty status or no conditions is unhealthy`, () => {
    assert.is(health(name === 'Policy' ? {} : { conditions: [] }), false);
  });

  // <Kind>/testdata/interprethealth-test.yaml "… without status"
  test(`a ${name} without a status is unhealthy`, () => {
    assert.is(health(), false);
  });

  // <Kind>/testdata/interpretstatus-test.yaml "<Kind>: interpret status test"
  test(`a ${name} reflects its ready, conditions, autogen and rule counts, without empty fields`, () => {
    const condition = {
      lastTransitionTime: '2023-05-07T12:28:58Z',
      message: '',
      reason: 'Succeeded',
      status: 'True',
      type: 'Ready',
    };
    const validate = { message: 'label purpose', pattern: { metadata: { labels: { purpose: 'production' } } } };
    const observed = kyverno({
      spec: { validationFailureAction: 'Enforce', rules: [{ name: 'require-purpose', validate }] },
      status: {
        autogen:
          name === 'Policy'
            ? {
                rules: [
                  {
                    exclude: { resources: {} },
                    generate: { clone: {}, cloneList: {} },
                    match: { any: [{ resources: { kinds: ['Deployment'] } }], resources: {} },
                    mutate: {},
                    name: 'autogen-require-purpose',
                    validate,
                  },
                ],
              }
            : {},
        conditions: [condition],
        ready: true,
        rulecount: ruleCount(1),
      },
    });
    const autogen =
      name === 'Policy'
        ? {
            autogen: {
              rules: [
                {
                  // An empty field is dropped; a field holding only empty fields stays, empty.
                  exclude: {},
                  generate: {},
                  match: { any: [{ resources: { kinds: ['Deployment'] } }] },
                  name: 'autogen-require-purpose',
                  validate,
                },
              ],
            },
          }
        : {};
    assert.equal(
      untouched([observed], () => interpreter.reflectStatus?.(observed)),
      { ...autogen, conditions: [condition], ready: true, rulecount: ruleCount(1) },
    );
  });

  // <Kind>/testdata/interpretstatus-test.yaml "… with nil status"
  test(`a ${name} without a status reflects an empty one`, () => {
    assert.equal(interpreter.reflectStatus?.(kyverno()), {});
  });

  // ClusterPolicy/…/interpretstatus-test.yaml "ClusterPolicy without conditions"; Policy/…: "Policy without conditions"
  test(`a ${name} without conditions reflects the fields it has`, () => {
    const status = name === 'Policy' ? { rulecount: ruleCount(0, 1) } : { ready: false, rulecount: ruleCount(0, 1) };
    assert.equal(interpreter.reflectStatus?.(kyverno({ status })), status);
  });

  // <Kind>/testdata/interpretstatus-test.yaml "… with only ready"
  test(`a ${name} with only a ready field reflects just that`, () => {
    const status = { ready: name !== 'Policy' }; // Policy's case has false, ClusterPolicy's true
    assert.equal(interpreter.reflectStatus?.(kyverno({ status })), status);
  });

  // <Kind>/testdata/aggregatestatus-test.yaml "… with two status items"
  test(`a ${name}'s members' statuses merge: rule counts add up, equal conditions join their messages by cluster`, () => {
    const autogen = {
      rules: [{ exclude: [], generate: [], match: { any: [{ resources: { kinds: ['CronJob'] } }] }, name: 'autogen' }],
    };
    const memberStatus = {
      ...(name === 'Policy' ? { autogen } : {}),
      conditions: [
        { lastTransitionTime: '2023-05-07T12:28:58Z', message: '', reason: 'Succeeded', status: 'True', type: 'Ready' },
      ],
      ready: true,
      rulecount: ruleCount(1),
    };
    const spec = { validationFailureAction: 'Enforce', rules: [{ name: 'require-purpose' }] };
    const desired = kyverno({ spec });
    const items: AggregatedStatusItem[] = ['member2', 'member3'].map((clusterName) => ({
      applied: true,
      clusterName,
      health: 'Healthy',
      status: structuredClone(memberStatus),
    }));
    assert.equal(
      untouched([desired, items], () => interpreter.aggregateStatus?.(desired, items)),
      kyverno({
        spec,
        status: {
          // The empty lists of the members' autogen rules are dropped.
          ...(name === 'Policy'
            ? { autogen: { rules: [{ match: { any: [{ resources: { kinds: ['CronJob'] } }] }, name: 'autogen' }] } }
            : {}),
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              reason: 'Succeeded',
              lastTransitionTime: '2023-05-07T12:28:58Z',
              message: 'member2=, member3=',
            },
          ],
          ready: true,
          rulecount: ruleCount(2),
        },
      }),
    );
  });

  // <Kind>/testdata/aggregatestatus-test.yaml "… with different Ready reasons"
  test(`a ${name}'s members' conditions that differ in reason are kept apart, rule counts default to zero`, () => {
    const desired = kyverno({}, { name: 'mixed-reasons' });
    const items: AggregatedStatusItem[] = [
      { clusterName: 'member1', status: { conditions: [ready({ message: 'ok' })] } },
      { clusterName: 'member2', status: { conditions: [ready({ reason: 'Failed', message: 'error' })] } },
    ];
    assert.equal(
      interpreter.aggregateStatus?.(desired, items),
      kyverno(
        {
          status: {
            conditions: [ready({ message: 'member1=ok' }), ready({ reason: 'Failed', message: 'member2=error' })],
            rulecount: ruleCount(0),
          },
        },
        { name: 'mixed-reasons' },
      ),
    );
  });

  // <Kind>/testdata/aggregatestatus-test.yaml "… with nil statusItems"
  test(`a ${name} with no member status is left as it is`, () => {
    const desired = kyverno({}, { name: 'no-status' });
    assert.equal(interpreter.aggregateStatus?.(desired, []), desired);
  });
}

// Policy/testdata/aggregatestatus-test.yaml "Policy with mixed empty and valid statusItems"
test("a Policy member's empty status adds nothing to the aggregated one", () => {
  const metadata = { name: 'mixed-empty', namespace: 'test-policy' };
  const desired = { apiVersion: 'kyverno.io/v1', kind: 'Policy', metadata };
  const items: AggregatedStatusItem[] = [
    { clusterName: 'member1', status: { conditions: [ready({ message: 'ok' })] } },
    { clusterName: 'member2', status: {} },
  ];
  assert.equal(policy.aggregateStatus?.(desired, items), {
    ...desired,
    status: { conditions: [ready({ message: 'member1=ok' })], rulecount: ruleCount(0) },
  });
});

// Policy/testdata/interpretstatus-test.yaml "Policy with only conditions"
test('a Policy with only conditions reflects just those', () => {
  const status = { conditions: [ready({ message: 'ok' })] };
  const observed = { apiVersion: 'kyverno.io/v1', kind: 'Policy', metadata: { name: 'only-conditions' }, status };
  assert.equal(policy.reflectStatus?.(observed), status);
});

// Policy/testdata/interpretstatus-test.yaml "Policy with only autogen"
test('a Policy with only autogen rules reflects just those', () => {
  const status = {
    autogen: {
      rules: [
        {
          match: { any: [{ resources: { kinds: ['Deployment'] } }] },
          name: 'autogen-only',
          validate: { message: 'test' },
        },
      ],
    },
  };
  const observed = { apiVersion: 'kyverno.io/v1', kind: 'Policy', metadata: { name: 'autogen-only' }, status };
  assert.equal(policy.reflectStatus?.(observed), status);
});

test.run();
