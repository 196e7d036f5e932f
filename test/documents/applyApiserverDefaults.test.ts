// The kube-apiserver's defaults for the template fields Flotilla reads, and no others.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyApiserverDefaults } from '../../src/documents/applyApiserverDefaults.ts';

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } };

for (const kind of ['Deployment', 'StatefulSet', 'ReplicaSet']) {
  test(`an apps/v1 ${kind} without spec.replicas gets 1, written first in spec`, () => {
    const manifest = {
      apiVersion: 'apps/v1',
      kind,
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template },
    };
    const out = applyApiserverDefaults(manifest);
    assert.equal(out.spec, { replicas: 1, selector: { matchLabels: { app: 'web' } }, template });
    assert.equal(Object.keys(out.spec as object)[0], 'replicas');
    assert.not.ok('replicas' in manifest.spec, 'the input is not changed');
  });
}

test('replicas: null is defaulted as absent (Go decodes both to a nil pointer); replicas: 0 is kept', () => {
  const nulled = applyApiserverDefaults({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { replicas: null, template },
  });
  assert.equal(nulled.spec, { replicas: 1, template });
  const zero = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { replicas: 0, template },
  };
  assert.is(applyApiserverDefaults(zero), zero);
});

test('a Deployment without spec gets spec.replicas 1', () => {
  assert.equal(applyApiserverDefaults({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } }).spec, {
    replicas: 1,
  });
});

test('only the field Flotilla reads is defaulted: no strategy, revisionHistoryLimit or progressDeadlineSeconds', () => {
  const out = applyApiserverDefaults({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { template },
  });
  assert.equal(Object.keys(out.spec as object), ['replicas', 'template']);
});

test('a template that states everything is returned as is (same object)', () => {
  const manifest = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db' },
    spec: { replicas: 3, template },
  };
  assert.is(applyApiserverDefaults(manifest), manifest);
});

test('kinds and versions without these defaults are untouched: DaemonSet, extensions Deployment, custom kinds, Service', () => {
  for (const manifest of [
    { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'a' }, spec: { template } },
    { apiVersion: 'apps.example.io/v1', kind: 'Deployment', metadata: { name: 'a' }, spec: {} },
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'a' }, spec: { ports: [{ port: 80 }] } },
    { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'a' }, spec: { jobTemplate: { spec: { template } } } },
  ])
    assert.is(applyApiserverDefaults(manifest), manifest);
});

test('a Job with neither completions nor parallelism gets both 1 (a non-parallel Job)', () => {
  const out = applyApiserverDefaults({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi' },
    spec: { template: { spec: template.spec } },
  });
  assert.equal(out.spec, { parallelism: 1, completions: 1, template: { spec: template.spec } });
});

test('a Job with completions only gets parallelism 1 and keeps its completions', () => {
  const out = applyApiserverDefaults({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi' },
    spec: { completions: 5, template: { spec: template.spec } },
  });
  assert.equal(out.spec, { parallelism: 1, completions: 5, template: { spec: template.spec } });
});

test('a Job with parallelism only stays a work queue: completions is not set', () => {
  const manifest = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'q', labels: { a: 'b' } },
    spec: { parallelism: 3, template: { spec: template.spec } },
  };
  assert.is(applyApiserverDefaults(manifest), manifest);
});

test("a Job without labels takes its pod template's labels (policy label selectors see them); a Job with labels keeps its own", () => {
  const bare = applyApiserverDefaults({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi' },
    spec: { parallelism: 1, template },
  });
  assert.equal(bare.metadata, { name: 'pi', labels: { app: 'web' } });
  const empty = applyApiserverDefaults({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', labels: {} },
    spec: { parallelism: 1, template },
  });
  assert.equal(empty.metadata, { name: 'pi', labels: { app: 'web' } });
  const own = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', labels: { team: 'x' } },
    spec: { parallelism: 1, template },
  };
  assert.is(applyApiserverDefaults(own), own);
});

test("a Pod's containers without requests request their limits; a stated request wins; init containers too", () => {
  const out = applyApiserverDefaults({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: {
      initContainers: [{ name: 'init', resources: { limits: { cpu: '1' } } }],
      containers: [
        { name: 'a', resources: { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '100m' } } },
        { name: 'b', resources: { requests: { cpu: '100m' } } },
        { name: 'c' },
      ],
    },
  });
  assert.equal(out.spec, {
    initContainers: [{ name: 'init', resources: { limits: { cpu: '1' }, requests: { cpu: '1' } } }],
    containers: [
      { name: 'a', resources: { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '100m', memory: '1Gi' } } },
      { name: 'b', resources: { requests: { cpu: '100m' } } },
      { name: 'c' },
    ],
  });
});

test("a Deployment's pod template keeps its requests as written: the apiserver defaults requests from limits on Pods only", () => {
  const manifest = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { replicas: 2, template: { spec: { containers: [{ name: 'a', resources: { limits: { cpu: '1' } } }] } } },
  };
  assert.is(applyApiserverDefaults(manifest), manifest);
});

test('a Namespace is labelled kubernetes.io/metadata.name with its name, as kube-apiserver labels every Namespace', () => {
  const bare = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } };
  assert.equal(applyApiserverDefaults(bare).metadata, {
    name: 'team-a',
    labels: { 'kubernetes.io/metadata.name': 'team-a' },
  });
  const wrong = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'team-a', labels: { tier: 'gold', 'kubernetes.io/metadata.name': 'x' } },
  };
  assert.equal((applyApiserverDefaults(wrong).metadata as { labels: unknown }).labels, {
    tier: 'gold',
    'kubernetes.io/metadata.name': 'team-a',
  });
  const labelled = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'team-a', labels: { 'kubernetes.io/metadata.name': 'team-a' } },
  };
  assert.is(applyApiserverDefaults(labelled), labelled);
});

test.run();
