import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { OverridePolicy } from '../../src/api/policy.ts';
import { applyOverrides, type OverrideOutcome } from '../../src/overrides/applyOverrides.ts';
import {
  cluster,
  clusterOverridePolicy,
  containersOf,
  metadataOf,
  overridePolicy,
  workload,
  type Obj,
} from './helpers/objects.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const samples = path.resolve(repoRoot, '../shared/karmada-samples');
const readSample = (file: string): Obj => parse(readFileSync(path.join(samples, file), 'utf8')) as Obj;

function manifestOf(outcome: OverrideOutcome): Obj {
  if (!outcome.ok) throw new Error(`unexpected failure: ${outcome.overrider}: ${outcome.message}`);
  return outcome.manifest;
}

const member1 = cluster('member1');
const member2 = cluster('member2');

test('sample nginx: member2 gets the labels added; remove and replace of absent keys do nothing', () => {
  const deployment = readSample('nginx/deployment.yaml');
  const policy = readSample('nginx/overridepolicy.yaml') as unknown as OverridePolicy;
  const outcome = applyOverrides(deployment, member2, [policy]);
  const metadata = metadataOf(manifestOf(outcome));
  assert.equal(metadata.labels, { app: 'nginx', env: 'skoala-dev', 'env-stat': 'skoala-stage' });
  assert.is('annotations' in metadata, false);
  assert.equal(outcome.ok && outcome.applied.map((a) => [a.policy, a.ruleIndex, a.overriders]), [
    ['OverridePolicy default/nginx-op', 0, policy.spec.overrideRules?.[0]?.overriders],
  ]);
});

test('sample nginx: member1 gets the annotation added and nothing else', () => {
  const deployment = readSample('nginx/deployment.yaml');
  const policy = readSample('nginx/overridepolicy.yaml') as unknown as OverridePolicy;
  const outcome = applyOverrides(deployment, member1, [policy]);
  const manifest = manifestOf(outcome);
  assert.equal(metadataOf(manifest).annotations, { env: 'skoala-stage' });
  assert.equal(metadataOf(manifest).labels, { app: 'nginx' });
  assert.equal(
    { ...manifest, metadata: { ...metadataOf(manifest), annotations: undefined } },
    { ...deployment, metadata: { ...metadataOf(deployment), annotations: undefined } },
  );
  assert.equal(outcome.ok && outcome.applied.map((a) => a.ruleIndex), [1]);
});

test('sample guestbook: member1 gets spec.size 4 and exactly the annotations of the plaintext add', () => {
  const guestbook = readSample('guestbook/guestbook.yaml');
  const policy = readSample('guestbook/guestbooks-overridepolicy.yaml') as unknown as OverridePolicy;
  const manifest = manifestOf(applyOverrides(guestbook, member1, [policy]));
  assert.is((manifest.spec as Obj).size, 4);
  assert.equal(metadataOf(manifest).annotations, { OverridePolicy: 'test' });
  assert.equal(manifest.spec, { size: 4, configMapName: 'test', alias: 'Name' });
});

test('sample guestbook: plaintext add replaces an existing annotations map whole', () => {
  const guestbook = readSample('guestbook/guestbook.yaml');
  metadataOf(guestbook).annotations = { existing: 'gone' };
  const policy = readSample('guestbook/guestbooks-overridepolicy.yaml') as unknown as OverridePolicy;
  assert.equal(metadataOf(manifestOf(applyOverrides(guestbook, member1, [policy]))).annotations, {
    OverridePolicy: 'test',
  });
});

test('sample guestbook: member2 gets nothing changed', () => {
  const guestbook = readSample('guestbook/guestbook.yaml');
  const policy = readSample('guestbook/guestbooks-overridepolicy.yaml') as unknown as OverridePolicy;
  const outcome = applyOverrides(guestbook, member2, [policy]);
  assert.equal(manifestOf(outcome), guestbook);
  assert.equal(outcome.ok && outcome.applied, []);
});

// Transcribed from karmada pkg/util/overridemanager/overridemanager_test.go
// (Test_overrideManagerImpl_ApplyLabelAnnotationOverriderPolicies): an OP on a Deployment and a COP on a
// ClusterRole, each adding one label and one annotation for its cluster.
const addBoth = {
  labelsOverrider: [{ operator: 'add' as const, value: { testAddLabel: 'testAddLabel' } }],
  annotationsOverrider: [{ operator: 'add' as const, value: { testAddAnnotation: 'testAddAnnotation' } }],
};
const wantLabels = { testLabel: 'testLabel', testAddLabel: 'testAddLabel' };
const wantAnnotations = { testAnnotation: 'testAnnotation', testAddAnnotation: 'testAddAnnotation' };

test('OverridePolicy adds a label and an annotation to a Deployment', () => {
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'test1',
      namespace: 'default',
      labels: { testLabel: 'testLabel' },
      annotations: { testAnnotation: 'testAnnotation' },
    },
    spec: {},
  };
  const policy = overridePolicy('test1', {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'test1' }],
    overrideRules: [{ targetCluster: { clusterNames: ['test1'] }, overriders: addBoth }],
  });
  const outcome = applyOverrides(deployment, cluster('test1'), [policy]);
  const metadata = metadataOf(manifestOf(outcome));
  assert.equal([metadata.labels, metadata.annotations], [wantLabels, wantAnnotations]);
  assert.equal(outcome.ok && outcome.applied, [
    {
      policy: 'OverridePolicy default/test1',
      kind: 'OverridePolicy',
      policyName: 'test1',
      ruleIndex: 0,
      overriders: addBoth,
    },
  ]);
});

test('ClusterOverridePolicy adds a label and an annotation to a ClusterRole', () => {
  const clusterRole = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'test2', labels: { testLabel: 'testLabel' }, annotations: { testAnnotation: 'testAnnotation' } },
    rules: [],
  };
  const policy = clusterOverridePolicy('test2', {
    resourceSelectors: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'test2' }],
    overrideRules: [{ targetCluster: { clusterNames: ['test2'] }, overriders: addBoth }],
  });
  const outcome = applyOverrides(clusterRole, cluster('test2'), [
    policy,
    overridePolicy('ignored', { overrideRules: [{ overriders: addBoth }] }),
  ]);
  const metadata = metadataOf(manifestOf(outcome));
  assert.equal([metadata.labels, metadata.annotations], [wantLabels, wantAnnotations]);
  assert.equal(outcome.ok && outcome.applied.map((a) => a.policy), ['ClusterOverridePolicy test2']);
});

test('inside one rule the overriders run image, command, args, labels, annotations, field, plaintext; none modifies the input', () => {
  // Later overriders read or overwrite what earlier ones wrote, so another order fails or gives another result.
  const deployment = workload('Deployment', [{ name: 'app', image: 'nginx:1' }], {
    name: 'nginx',
    labels: { app: 'nginx' },
    annotations: { cfg: '{}' },
  });
  const before = structuredClone(deployment);
  const policy = overridePolicy('all', {
    overrideRules: [
      {
        overriders: {
          plaintext: [
            { path: '/spec/template/spec/containers/0/args/1', operator: 'replace', value: '--late' },
            { path: '/spec/template/spec/containers/0/image', operator: 'replace', value: 'plain/nginx:2' },
            { path: '/metadata/annotations/cfg', operator: 'replace', value: '{"plain":true}' },
          ],
          fieldOverrider: [
            { fieldPath: '/metadata/annotations/cfg', json: [{ subPath: '/from', operator: 'add', value: 'field' }] },
            { fieldPath: '/metadata/annotations/cfg2', json: [{ subPath: '/from', operator: 'add', value: 'field' }] },
          ],
          annotationsOverrider: [{ operator: 'add', value: { cfg: '{"image":"none"}', cfg2: '{"image":"none"}' } }],
          labelsOverrider: [{ operator: 'add', value: { stage: 'labels' } }],
          argsOverrider: [{ containerName: 'app', operator: 'add', value: ['--a', '--b'] }],
          commandOverrider: [{ containerName: 'app', operator: 'add', value: ['run'] }],
          imageOverrider: [{ component: 'Registry', operator: 'replace', value: 'mirror.io' }],
        },
      },
    ],
  });
  const outcome = applyOverrides(deployment, member1, [policy]);
  const manifest = manifestOf(outcome);
  assert.equal(deployment, before);
  assert.equal(containersOf(manifest), [
    { name: 'app', image: 'plain/nginx:2', command: ['run'], args: ['--a', '--late'] },
  ]);
  assert.equal(metadataOf(manifest).labels, { app: 'nginx', stage: 'labels' });
  assert.equal(metadataOf(manifest).annotations, { cfg: '{"plain":true}', cfg2: '{"image":"none","from":"field"}' });
  assert.is(outcome.ok && outcome.applied[0]?.overriders, policy.spec.overrideRules?.[0]?.overriders);
});

test('COPs apply before OPs and the most specific policy applies last, so it wins', () => {
  const deployment = workload('Deployment', [{ name: 'app', image: 'nginx:1' }]);
  const setReplicas = (n: number) => ({
    overrideRules: [
      { overriders: { plaintext: [{ path: '/spec/replicas', operator: 'replace' as const, value: n }] } },
    ],
  });
  const policies = [
    overridePolicy('a-by-name', {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' }],
      ...setReplicas(3),
    }),
    overridePolicy('z-match-all', setReplicas(2)),
    clusterOverridePolicy('cop-by-name', {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' }],
      ...setReplicas(1),
    }),
  ];
  const outcome = applyOverrides(deployment, member1, policies);
  assert.is((manifestOf(outcome).spec as Obj).replicas, 3);
  assert.equal(outcome.ok && outcome.applied.map((a) => a.policy), [
    'ClusterOverridePolicy cop-by-name',
    'OverridePolicy default/z-match-all',
    'OverridePolicy default/a-by-name',
  ]);
});

test('OverridePolicies select the object as ClusterOverridePolicies left it: a label one adds brings an OverridePolicy in, one it removes keeps it out', () => {
  const deployment = workload('Deployment', [{ name: 'c', image: 'nginx:1' }], {
    name: 'web',
    namespace: 'default',
    labels: { app: 'web', canary: 'true' },
  });
  const labels = (operator: 'add' | 'remove', value: Record<string, string>) =>
    clusterOverridePolicy(`${operator}-labels`, {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
      overrideRules: [
        { targetCluster: { clusterNames: ['member1'] }, overriders: { labelsOverrider: [{ operator, value }] } },
      ],
    });
  const tagFor = (name: string, matchLabels: Record<string, string>, tag: string) =>
    overridePolicy(name, {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels } }],
      overrideRules: [{ overriders: { imageOverrider: [{ component: 'Tag', operator: 'replace', value: tag }] } }],
    });
  const policies = [
    labels('add', { tier: 'gold' }),
    labels('remove', { canary: '' }),
    tagFor('gold', { tier: 'gold' }, '2'),
    tagFor('canary', { canary: 'true' }, 'canary'),
  ];
  const on1 = applyOverrides(deployment, member1, policies);
  assert.equal(containersOf(manifestOf(on1))[0]?.image, 'nginx:2');
  assert.equal(on1.ok && on1.applied.map((a) => a.policyName), ['add-labels', 'remove-labels', 'gold']);
  // Where no ClusterOverridePolicy applies, the template's own labels decide.
  const on2 = applyOverrides(deployment, member2, policies);
  assert.equal(containersOf(manifestOf(on2))[0]?.image, 'nginx:canary');
  assert.equal(on2.ok && on2.applied.map((a) => a.policyName), ['canary']);
});

test('a failing plaintext names the policy, the rule and the operation; earlier successes are discarded', () => {
  const guestbook = readSample('guestbook/guestbook.yaml');
  const policies = [
    overridePolicy('a-ok', {
      overrideRules: [{ overriders: { plaintext: [{ path: '/spec/size', operator: 'replace', value: 9 }] } }],
    }),
    overridePolicy('b-bad', {
      resourceSelectors: [{ apiVersion: 'webapp.my.domain/v1', kind: 'Guestbook' }],
      overrideRules: [
        { targetCluster: { clusterNames: ['member2'] }, overriders: {} },
        {
          overriders: {
            plaintext: [
              { path: '/spec/size', operator: 'replace', value: 1 },
              { path: '/spec/missing/deep', operator: 'add', value: 1 },
            ],
          },
        },
      ],
    }),
  ];
  const outcome = applyOverrides(guestbook, member1, policies);
  assert.equal(
    outcome.ok ? null : { policy: outcome.policy, ruleIndex: outcome.ruleIndex, overrider: outcome.overrider },
    {
      policy: { kind: 'OverridePolicy', namespace: 'default', name: 'b-bad' },
      ruleIndex: 1,
      overrider: 'plaintext[1]',
    },
  );
  assert.match(outcome.ok ? '' : outcome.message, /missing path/);
});

test('a failing COP from the deprecated pair reports ruleIndex -1 and an empty namespace', () => {
  const deployment = workload('Deployment', [{ name: 'app', image: 'Not A Valid Image' }]);
  const policy = clusterOverridePolicy('old', {
    overriders: { imageOverrider: [{ component: 'Tag', operator: 'replace', value: 'v2' }] },
  });
  const outcome = applyOverrides(deployment, member1, [policy]);
  assert.equal(outcome.ok ? null : [outcome.policy, outcome.ruleIndex, outcome.overrider], [
    { kind: 'ClusterOverridePolicy', namespace: '', name: 'old' },
    -1,
    'imageOverrider[0]',
  ]);
});

test('plaintext replace of a missing field fails instead of creating it', () => {
  const outcome = applyOverrides(workload('Deployment', []), member1, [
    overridePolicy('p', {
      overrideRules: [{ overriders: { plaintext: [{ path: '/spec/paused', operator: 'replace', value: true }] } }],
    }),
  ]);
  assert.is(outcome.ok, false);
});

test('a matching rule with no overriders is still recorded as applied', () => {
  const outcome = applyOverrides(workload('Deployment', []), member1, [
    overridePolicy('empty', { overrideRules: [{ overriders: {} }] }),
  ]);
  assert.equal(outcome.ok && outcome.applied, [
    {
      policy: 'OverridePolicy default/empty',
      kind: 'OverridePolicy',
      policyName: 'empty',
      ruleIndex: 0,
      overriders: {},
    },
  ]);
});

test('an explicit target decides scope: a cluster-scoped custom kind gets no OverridePolicy', () => {
  const guestbook = readSample('guestbook/guestbook.yaml');
  const policy = readSample('guestbook/guestbooks-overridepolicy.yaml') as unknown as OverridePolicy;
  const outcome = applyOverrides(guestbook, member1, [policy], {
    apiVersion: 'webapp.my.domain/v1',
    kind: 'Guestbook',
    namespace: '',
    name: 'guestbook-sample',
  });
  assert.equal(manifestOf(outcome), guestbook);
});

test('the input manifest is never mutated and the result is a new object', () => {
  const deployment = readSample('nginx/deployment.yaml');
  const before = structuredClone(deployment);
  const policy = readSample('nginx/overridepolicy.yaml') as unknown as OverridePolicy;
  const result = manifestOf(applyOverrides(deployment, member2, [policy]));
  assert.equal(deployment, before);
  assert.is.not(result, deployment);
  assert.is.not(result.metadata, deployment.metadata);
});

test('a cluster no rule targets gets the manifest itself, shared with the others, not a copy', () => {
  const deployment = readSample('nginx/deployment.yaml');
  const before = structuredClone(deployment);
  const policy = readSample('nginx/overridepolicy.yaml') as unknown as OverridePolicy;
  const outcome = applyOverrides(deployment, cluster('member3'), [policy]);
  assert.is(manifestOf(outcome), deployment);
  assert.equal(outcome.ok && [outcome.applied, outcome.refused], [[], []]);
  assert.equal(deployment, before);
});

test.run();
