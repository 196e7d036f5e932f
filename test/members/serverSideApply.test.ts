import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { serverSideApply } from '../../src/members/apply/serverSideApply.ts';
import { trackUpdate } from '../../src/members/apply/trackUpdate.ts';
import { fieldsOf, fromFieldsV1, toFieldsV1 } from '../../src/members/apply/fieldSet.ts';
import { objectShape } from '../../src/api/listSemantics.ts';
import type { KubeObject } from '../../src/members/types.ts';

const NOW = '2026-01-01T00:00:00Z';
const DEPLOYMENT = objectShape('apps/v1', 'Deployment');
const POD = objectShape('v1', 'Pod');
const deploy = (spec: object, labels?: Record<string, string>): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', ...(labels ? { labels } : {}) },
  spec,
});
const apply = (live: KubeObject | undefined, applied: KubeObject, manager: string, force = false) =>
  serverSideApply({ live, applied, manager, force, apiVersion: 'apps/v1', now: NOW, shape: DEPLOYMENT });

test('field sets use FieldsV1 keys for associative lists and round-trip', () => {
  const obj = deploy(
    { template: { spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }] }] } } },
    { app: 'web' },
  );
  const set = fieldsOf(obj, 'main', DEPLOYMENT);
  const v1 = toFieldsV1(set);
  assert.equal(v1, {
    'f:metadata': { 'f:labels': { 'f:app': {} } },
    'f:spec': {
      'f:template': {
        'f:spec': {
          'f:containers': {
            'k:{"name":"web"}': {
              '.': {},
              'f:image': {},
              'f:name': {},
              'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
            },
          },
        },
      },
    },
  });
  assert.equal([...fromFieldsV1(v1)].sort(), [...set].sort());
});

test('conflicts with several managers are grouped as kube-apiserver words them: an Update manager with its apiVersion', () => {
  const live = apply(undefined, deploy({ replicas: 2, paused: false }, { owner: 'alice' }), 'alice');
  const edited = { ...live, spec: { ...(live.spec as object), minReadySeconds: 5 } } as KubeObject;
  edited.metadata.managedFields = trackUpdate(live, edited, 'kubectl-edit', 'apps/v1', NOW, DEPLOYMENT);
  try {
    apply(edited, deploy({ replicas: 3, paused: true, minReadySeconds: 9 }, { owner: 'bob' }), 'bob');
    assert.unreachable('should conflict');
  } catch (error) {
    const e = error as { message: string; details: { causes: { message: string; field: string }[] } };
    assert.is(
      e.message,
      [
        'Apply failed with 4 conflicts: conflicts with "alice":',
        '- .metadata.labels.owner',
        '- .spec.paused',
        '- .spec.replicas',
        'conflicts with "kubectl-edit" using apps/v1:',
        '- .spec.minReadySeconds',
      ].join('\n'),
    );
    assert.equal(e.details.causes.map((c) => `${c.message}: ${c.field}`).sort(), [
      'conflict with "alice": .metadata.labels.owner',
      'conflict with "alice": .spec.paused',
      'conflict with "alice": .spec.replicas',
      'conflict with "kubectl-edit" using apps/v1: .spec.minReadySeconds',
    ]);
  }
});

test("conflict paths come in structured-merge-diff's order: a level's own fields before those below it", () => {
  const pod = (image: string, node: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: { nodeName: node, containers: [{ name: 'a', image }] },
  });
  const live = serverSideApply({
    live: undefined,
    applied: pod('one', 'n1'),
    manager: 'alice',
    force: false,
    apiVersion: 'v1',
    now: NOW,
    shape: POD,
  });
  try {
    serverSideApply({
      live,
      applied: pod('two', 'n2'),
      manager: 'bob',
      force: false,
      apiVersion: 'v1',
      now: NOW,
      shape: POD,
    });
    assert.unreachable('should conflict');
  } catch (error) {
    assert.is(
      (error as { message: string }).message,
      'Apply failed with 2 conflicts: conflicts with "alice":\n- .spec.nodeName\n- .spec.containers[name="a"].image',
    );
  }
});

test('a different value for a field another manager applied is a conflict naming manager and path', () => {
  const live = apply(undefined, deploy({ replicas: 2 }), 'alice');
  try {
    apply(live, deploy({ replicas: 3 }), 'bob');
    assert.unreachable('should conflict');
  } catch (error) {
    const e = error as { code: number; reason: string; message: string; details: { causes: { field: string }[] } };
    assert.is(e.code, 409);
    assert.is(e.reason, 'Conflict');
    assert.is(e.message, 'Apply failed with 1 conflict: conflict with "alice": .spec.replicas');
    assert.equal(
      e.details.causes.map((c) => c.field),
      ['.spec.replicas'],
    );
  }
});

test('the same value is shared ownership, not a conflict', () => {
  const live = apply(undefined, deploy({ replicas: 2 }), 'alice');
  const shared = apply(live, deploy({ replicas: 2 }), 'bob');
  assert.equal(
    shared.metadata.managedFields!.map((m) => m.manager),
    ['alice', 'bob'],
  );
});

test('force takes the field over and the previous owner loses it', () => {
  const live = apply(undefined, deploy({ replicas: 2, paused: false }), 'alice');
  const forced = apply(live, deploy({ replicas: 5 }), 'bob', true);
  assert.is(forced.spec.replicas, 5);
  const alice = forced.metadata.managedFields!.find((m) => m.manager === 'alice')!;
  assert.equal(alice.fieldsV1, { 'f:spec': { 'f:paused': {} } });
});

test('fields a manager stops applying are removed unless someone else owns them', () => {
  const first = apply(undefined, deploy({ replicas: 2, paused: true }, { a: '1', b: '2' }), 'alice');
  const second = apply(first, deploy({ replicas: 2 }, { a: '1' }), 'alice');
  assert.is(second.spec.paused, undefined);
  assert.equal(second.metadata.labels, { a: '1' });
  const shared = apply(first, deploy({ paused: true }), 'bob');
  const afterShared = apply(shared, deploy({ replicas: 2 }), 'alice');
  assert.is(afterShared.spec.paused, true, 'bob still owns paused');
});

test('a list item a manager stops applying goes whole, with its fields, as when an env var is removed', () => {
  const env = (names: string[]) =>
    deploy({
      template: {
        spec: { containers: [{ name: 'web', image: 'nginx', env: names.map((name) => ({ name, value: name })) }] },
      },
    });
  const first = apply(undefined, env(['A', 'B']), 'flotilla');
  const second = apply(first, env(['A']), 'flotilla');
  assert.equal(second.spec.template.spec.containers[0].env, [{ name: 'A', value: 'A' }]);
  const none = apply(second, env([]), 'flotilla');
  assert.equal(none.spec.template.spec.containers[0].env ?? [], []);
});

test("containers merge by name: another manager's container survives an apply", () => {
  const live = apply(
    undefined,
    deploy({ template: { spec: { containers: [{ name: 'web', image: 'nginx' }] } } }),
    'alice',
  );
  const withSidecar = apply(
    live,
    deploy({ template: { spec: { containers: [{ name: 'proxy', image: 'envoy' }] } } }),
    'mesh',
  );
  assert.equal(
    withSidecar.spec.template.spec.containers.map((c: { name: string }) => c.name),
    ['web', 'proxy'],
  );
  const dropped = apply(
    withSidecar,
    deploy({ template: { spec: { containers: [{ name: 'web', image: 'nginx:2' }] } } }),
    'alice',
  );
  assert.equal(dropped.spec.template.spec.containers, [
    { name: 'web', image: 'nginx:2' },
    { name: 'proxy', image: 'envoy' },
  ]);
});

test.run();
