import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildPlan, type PlanInput } from '../../src/plans/buildPlan.ts';
import { manifestYaml } from '../../src/branches/rendered/manifestYaml.ts';
import { manifestPath } from '../../src/branches/rendered/outputPaths.ts';
import { refKey, type ObjectRef } from '../../src/api/kinds.ts';
import { planHasChanges } from '../../src/plans/planHasChanges.ts';
import type { OutputIndex } from '../../src/branches/rendered/outputIndex.ts';

const secretRef: ObjectRef = { apiVersion: 'v1', kind: 'Secret', namespace: 'payments', name: 'db' };

function secret(data: Record<string, string>, stringData?: Record<string, string>, lastApplied?: string): string {
  return manifestYaml({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'db',
      namespace: 'payments',
      ...(lastApplied ? { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied } } : {}),
    },
    type: 'Opaque',
    data,
    ...(stringData ? { stringData } : {}),
  });
}

function indexOf(ref: ObjectRef, clusters: string[]): OutputIndex {
  return { files: {}, templates: { [refKey(ref)]: { clusters } } as unknown as OutputIndex['templates'] };
}

/** A plan of one object on cluster m1: `before`/`after` its rendered text on each side, null for none. */
function planOf(ref: ObjectRef, before: string | null, after: string | null): ReturnType<typeof buildPlan> {
  const path = manifestPath('m1', ref);
  const side = (text: string | null) => ({
    files: new Map(text === null ? [] : [[path, text]]),
    index: indexOf(ref, text === null ? [] : ['m1']),
  });
  const input: PlanInput = {
    base: { sha: 'a'.repeat(40), ...side(before) },
    head: {
      sha: 'b'.repeat(40),
      ...side(after),
      problems: [],
      explanations: new Map(),
      trailers: {},
      source: 'ok',
    },
  };
  return buildPlan(input);
}

const diffOf = (plan: ReturnType<typeof buildPlan>) =>
  Object.values(plan.clusters).flatMap((c) => [...c.added, ...c.changed, ...c.removed].map((o) => o.diff))[0] ?? '';

test("a changed Secret's diff shows which keys changed and none of the values, as kubectl diff masks them", () => {
  const before = secret({ password: 'aHVudGVyMg==', user: 'YWRtaW4=' }, { token: 's3cr3t' }, '{"data":{"x":"eQ=="}}');
  const after = secret({ password: 'bmV3cGFzcw==', user: 'YWRtaW4=', extra: 'ZXh0cmE=' }, { token: 'n3w' }, '{"a":1}');
  const diff = diffOf(planOf(secretRef, before, after));
  for (const value of ['aHVudGVyMg==', 'YWRtaW4=', 'bmV3cGFzcw==', 'ZXh0cmE=', 's3cr3t', 'n3w', 'eQ==', '"a":1'])
    assert.not.ok(diff.includes(value), `${value} shown:\n${diff}`);
  assert.ok(diff.includes(`-  password: "*** (before)"\n+  password: "*** (after)"`), diff);
  assert.ok(diff.includes(`+  extra: "***"`), diff);
  assert.ok(diff.includes(`   user: "***"`), diff);
  assert.ok(diff.includes(`-  token: "*** (before)"\n+  token: "*** (after)"`), diff);
  assert.ok(diff.includes(`kubectl.kubernetes.io/last-applied-configuration: "*** (after)"`), diff);
});

test('an added or removed Secret shows its keys with every value masked', () => {
  const text = secret({ password: 'aHVudGVyMg==' }, { token: 's3cr3t' });
  for (const diff of [diffOf(planOf(secretRef, null, text)), diffOf(planOf(secretRef, text, null))]) {
    assert.not.ok(diff.includes('aHVudGVyMg==') || diff.includes('s3cr3t'), diff);
    assert.match(diff, /^[-+] {2}password: "\*\*\*"$/m);
    assert.match(diff, /^[-+] {2}token: "\*\*\*"$/m);
  }
});

test('a Secret whose only change is a value still shows as changed, and other kinds keep their values', () => {
  const plan = planOf(secretRef, secret({ k: 'YQ==' }), secret({ k: 'Yg==' }));
  assert.is(plan.clusters.m1?.changed.length, 1);
  const cm: ObjectRef = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'payments', name: 'db' };
  const text = (v: string) =>
    manifestYaml({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'db', namespace: 'payments' }, data: { v } });
  assert.match(diffOf(planOf(cm, text('Secret one'), text('Secret two'))), /^\+ {2}v: Secret two$/m);
});

test('an object its head render releases is listed released, with no diff, no replica move and no deletion to hold', () => {
  const deploy: ObjectRef = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'payments', name: 'api' };
  const text = manifestYaml({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api', namespace: 'payments' },
    spec: { replicas: 2 },
  });
  const binding = manifestYaml({
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name: 'api-deployment', namespace: 'payments' },
    spec: {
      resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'payments', name: 'api' },
      clusters: [{ name: 'm1', replicas: 2 }],
    },
  });
  const path = manifestPath('m1', deploy);
  const plan = buildPlan({
    base: {
      sha: 'a'.repeat(40),
      files: new Map([
        [path, text],
        ['bindings/payments/api-deployment.yaml', binding],
      ]),
      index: indexOf(deploy, ['m1']),
    },
    head: {
      sha: 'b'.repeat(40),
      files: new Map(),
      index: indexOf(deploy, []),
      released: new Map([['m1', [refKey(deploy)]]]),
      problems: [],
      explanations: new Map(),
      trailers: {},
      source: 'ok',
    },
  });
  assert.equal(plan.clusters.m1, {
    added: [],
    changed: [],
    removed: [],
    released: [{ ref: refKey(deploy), path, diff: '' }],
  });
  assert.equal(plan.replicas, []);
  assert.equal(plan.prune.held, [], 'the whole cluster leaving its folder is no deletion when the member keeps it');
  assert.ok(planHasChanges(plan), 'the member loses its claim: a change');
});

test.run();
