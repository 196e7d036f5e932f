import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyOverrides, type OverrideOutcome } from '../../src/overrides/applyOverrides.ts';
import { identityChanges, identityFieldAt } from '../../src/overrides/overrideIdentity.ts';
import { validateKarmadaRules } from '../../src/documents/schema/validateKarmadaRules.ts';
import { formatPath } from '../../src/documents/schema/formatPath.ts';
import { cluster, clusterOverridePolicy, overridePolicy, type Obj } from './helpers/objects.ts';

const member1 = cluster('member1');
const settings = (): Obj => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'a-settings', namespace: 'team-a' },
  data: { k: 'v', inner: 'name: x\n' },
});
const ok = (outcome: OverrideOutcome) => {
  if (!outcome.ok) throw new Error(`unexpected failure: ${outcome.message}`);
  return outcome;
};

test("a plaintext rule rewriting namespace, name, kind or apiVersion is not applied; the policy's other rules are", () => {
  for (const [path, value] of [
    ['/metadata/namespace', 'team-b'],
    ['/metadata/name', 'b-settings'],
    ['/kind', 'Secret'],
    ['/apiVersion', 'v2'],
  ] as const) {
    const policy = overridePolicy(
      'steal',
      {
        overrideRules: [
          {
            overriders: {
              plaintext: [
                { path, operator: 'replace', value },
                { path: '/data/k', operator: 'replace', value: 'stolen' },
              ],
            },
          },
          { overriders: { labelsOverrider: [{ operator: 'add', value: { team: 'a' } }] } },
        ],
      },
      'team-a',
    );
    const outcome = ok(applyOverrides(settings(), member1, [policy]));
    assert.equal(
      outcome.manifest,
      { ...settings(), metadata: { name: 'a-settings', namespace: 'team-a', labels: { team: 'a' } } },
      path,
    );
    assert.is(outcome.refused.length, 1, path);
    assert.is(outcome.refused[0]!.ruleIndex, 0);
    assert.equal(
      outcome.refused[0]!.changes.map((c) => c.field),
      [
        path === '/metadata/namespace'
          ? 'metadata.namespace'
          : path === '/metadata/name'
            ? 'metadata.name'
            : path.slice(1),
      ],
    );
    assert.equal(
      outcome.applied.map((a) => a.ruleIndex),
      [1],
    );
  }
});

test('removing the namespace, replacing all metadata, or the whole object are identity changes too', () => {
  const rules = [
    { path: '/metadata/namespace', operator: 'remove' as const },
    { path: '/metadata', operator: 'replace' as const, value: { name: 'coredns', namespace: 'kube-system' } },
    {
      path: '',
      operator: 'replace' as const,
      value: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns', namespace: 'kube-system' } },
    },
  ];
  for (const rule of rules) {
    const outcome = ok(
      applyOverrides(settings(), member1, [
        clusterOverridePolicy('c', { overrideRules: [{ overriders: { plaintext: [rule] } }] }),
      ]),
    );
    assert.equal(outcome.manifest, settings(), JSON.stringify(rule));
    assert.is(outcome.refused.length, 1);
  }
  // Writing the same identity back changes nothing, and is allowed.
  const same = ok(
    applyOverrides(settings(), member1, [
      clusterOverridePolicy('c', {
        overrideRules: [
          { overriders: { plaintext: [{ path: '/metadata/name', operator: 'replace', value: 'a-settings' }] } },
        ],
      }),
    ]),
  );
  assert.equal(same.refused, []);
});

test('an image overrider aimed at the name cannot rename the object', () => {
  const image = clusterOverridePolicy('img', {
    overrideRules: [
      {
        overriders: {
          imageOverrider: [
            { predicate: { path: '/metadata/name' }, component: 'Repository', operator: 'replace', value: 'coredns' },
          ],
        },
      },
    ],
  });
  const viaImage = ok(applyOverrides(settings(), member1, [image]));
  assert.is(viaImage.manifest.metadata && (viaImage.manifest.metadata as Obj).name, 'a-settings');
  assert.is(viaImage.refused.length, 1);
});

test('identityChanges compares the four identity fields only', () => {
  assert.equal(identityChanges(settings(), { ...settings(), data: {} }), []);
  assert.equal(identityChanges(settings(), { ...settings(), metadata: { name: 'a-settings' } }), [
    { field: 'metadata.namespace', from: 'team-a', to: undefined },
  ]);
});

test('identityFieldAt: the paths at or above an identity field', () => {
  assert.equal(
    ['', '/metadata', '/metadata/name', '/metadata/namespace', '/kind', '/apiVersion', '/metadata/name/x'].map(
      identityFieldAt,
    ),
    ['metadata.name', 'metadata.name', 'metadata.name', 'metadata.namespace', 'kind', 'apiVersion', 'metadata.name'],
  );
  assert.equal(['/metadata/labels/name', '/spec/kind', '/data/name', '/metadata/annotations'].map(identityFieldAt), [
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
});

test('validate refuses override paths that write an identity field, where they are written', () => {
  const policy = {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'OverridePolicy',
    metadata: { name: 'steal', namespace: 'team-a' },
    spec: {
      overrideRules: [
        {
          overriders: {
            plaintext: [
              { path: '/metadata/namespace', operator: 'replace', value: 'team-b' },
              { path: '/data/k', operator: 'replace', value: 'ok' },
            ],
            imageOverrider: [{ predicate: { path: '/kind' }, component: 'Tag', operator: 'replace', value: 'x' }],
            fieldOverrider: [{ fieldPath: '/metadata', yaml: [{ subPath: '/name', operator: 'replace', value: 'x' }] }],
          },
        },
      ],
    },
  };
  assert.equal(
    validateKarmadaRules('OverridePolicy', policy).map((i) => `${formatPath(i.path)} ${i.code}`),
    [
      'spec.overrideRules[0].overriders.plaintext[0].path INVALID_VALUE',
      'spec.overrideRules[0].overriders.imageOverrider[0].predicate.path INVALID_VALUE',
      'spec.overrideRules[0].overriders.fieldOverrider[0].fieldPath INVALID_VALUE',
    ],
  );
});

test.run();
