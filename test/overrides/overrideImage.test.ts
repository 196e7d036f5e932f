import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ImageOverrider } from '../../src/api/policy.ts';
import { applyImageOverriders } from '../../src/overrides/overrideImage.ts';
import { containersOf, workload, type Obj } from './helpers/objects.ts';

const IMAGE = 'fictional.registry.example/imagename:v1.0.0';
const DIGEST = 'sha256:dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9c';

function imagesAfter(manifest: Obj, overrider: ImageOverrider): string[] {
  const step = applyImageOverriders(manifest, [overrider]);
  if (!step.ok) throw new Error(`unexpected failure: ${step.message}`);
  return containersOf(step.manifest).map((c) => c.image as string);
}

// Cases transcribed from karmada pkg/util/overridemanager/imageoverride_test.go
// (TestParseJSONPatchesByImageOverrider): kind and containers, overrider, resulting images.
const cases: { name: string; kind: string; images: string[]; overrider: ImageOverrider; want: string[] }[] = [
  {
    name: 'Job, no predicate, Registry add',
    kind: 'Job',
    images: ['perl:5.34.0'],
    overrider: { component: 'Registry', operator: 'add', value: 'registry.k8s.io' },
    want: ['registry.k8s.io/perl:5.34.0'],
  },
  {
    name: 'Job, predicate, Registry add',
    kind: 'Job',
    images: ['perl:5.34.0'],
    overrider: {
      predicate: { path: '/spec/template/spec/containers/0/image' },
      component: 'Registry',
      operator: 'add',
      value: 'registry.k8s.io',
    },
    want: ['registry.k8s.io/perl:5.34.0'],
  },
  {
    name: 'Deployment, Registry add concatenates',
    kind: 'Deployment',
    images: [IMAGE],
    overrider: { component: 'Registry', operator: 'add', value: '.test' },
    want: ['fictional.registry.example.test/imagename:v1.0.0'],
  },
  {
    name: 'Deployment, Registry replace',
    kind: 'Deployment',
    images: [IMAGE],
    overrider: { component: 'Registry', operator: 'replace', value: 'fictional.registry.us' },
    want: ['fictional.registry.us/imagename:v1.0.0'],
  },
  {
    name: 'Deployment, Registry remove',
    kind: 'Deployment',
    images: [IMAGE],
    overrider: { component: 'Registry', operator: 'remove', value: 'fictional.registry.us' },
    want: ['imagename:v1.0.0'],
  },
  {
    name: 'Deployment, Repository add concatenates',
    kind: 'Deployment',
    images: [IMAGE],
    overrider: { component: 'Repository', operator: 'add', value: '/nginx' },
    want: ['fictional.registry.example/imagename/nginx:v1.0.0'],
  },
  {
    name: 'Deployment, Repository replace',
    kind: 'Deployment',
    images: [IMAGE],
    overrider: { component: 'Repository', operator: 'replace', value: 'nginx' },
    want: ['fictional.registry.example/nginx:v1.0.0'],
  },
  {
    name: 'Deployment, Repository remove leaves host/:tag',
    kind: 'Deployment',
    images: [IMAGE],
    overrider: { component: 'Repository', operator: 'remove', value: 'nginx' },
    want: ['fictional.registry.example/:v1.0.0'],
  },
  {
    name: 'Deployment, Tag add of a digest to a tagged image changes nothing',
    kind: 'Deployment',
    images: [IMAGE],
    overrider: { component: 'Tag', operator: 'add', value: DIGEST },
    want: [IMAGE],
  },
  {
    name: 'Deployment, Tag replace with a digest',
    kind: 'Deployment',
    images: [IMAGE],
    overrider: { component: 'Tag', operator: 'replace', value: DIGEST },
    want: [`fictional.registry.example/imagename@${DIGEST}`],
  },
  {
    name: 'Deployment, Tag remove',
    kind: 'Deployment',
    images: [IMAGE],
    overrider: { component: 'Tag', operator: 'remove', value: DIGEST },
    want: ['fictional.registry.example/imagename'],
  },
  {
    name: 'Pod, Repository replace',
    kind: 'Pod',
    images: [IMAGE],
    overrider: { component: 'Repository', operator: 'replace', value: 'nginx' },
    want: ['fictional.registry.example/nginx:v1.0.0'],
  },
  {
    name: 'StatefulSet, Repository replace',
    kind: 'StatefulSet',
    images: [IMAGE],
    overrider: { component: 'Repository', operator: 'replace', value: 'nginx' },
    want: ['fictional.registry.example/nginx:v1.0.0'],
  },
  {
    name: 'ReplicaSet, Repository replace',
    kind: 'ReplicaSet',
    images: [IMAGE],
    overrider: { component: 'Repository', operator: 'replace', value: 'nginx' },
    want: ['fictional.registry.example/nginx:v1.0.0'],
  },
  {
    name: 'DaemonSet, Repository replace',
    kind: 'DaemonSet',
    images: [IMAGE],
    overrider: { component: 'Repository', operator: 'replace', value: 'nginx' },
    want: ['fictional.registry.example/nginx:v1.0.0'],
  },
  {
    name: 'two containers, no predicate: both change',
    kind: 'Deployment',
    images: [IMAGE, 'registry.k8s.io/nginx-slim:0.8'],
    overrider: { component: 'Repository', operator: 'replace', value: 'nginx' },
    want: ['fictional.registry.example/nginx:v1.0.0', 'registry.k8s.io/nginx:0.8'],
  },
  {
    name: 'one container, predicate on it',
    kind: 'Deployment',
    images: [IMAGE],
    overrider: {
      predicate: { path: '/spec/template/spec/containers/0/image' },
      component: 'Repository',
      operator: 'replace',
      value: 'nginx',
    },
    want: ['fictional.registry.example/nginx:v1.0.0'],
  },
  {
    name: 'two containers, predicate on the second: only it changes',
    kind: 'Deployment',
    images: [IMAGE, 'registry.k8s.io/nginx-slim:0.8'],
    overrider: {
      predicate: { path: '/spec/template/spec/containers/1/image' },
      component: 'Repository',
      operator: 'replace',
      value: 'nginx',
    },
    want: [IMAGE, 'registry.k8s.io/nginx:0.8'],
  },
];

for (const c of cases) {
  test(`imageOverrider: ${c.name}`, () => {
    const manifest = workload(
      c.kind,
      c.images.map((image, i) => ({ name: `c${i}`, image })),
    );
    assert.equal(imagesAfter(manifest, c.overrider), c.want);
  });
}

test('without a predicate, initContainers are left alone', () => {
  const manifest = workload('Deployment', [{ name: 'app', image: 'nginx:1' }]);
  ((manifest.spec as Obj).template as { spec: Obj }).spec.initContainers = [{ name: 'init', image: 'busybox:1' }];
  const step = applyImageOverriders(manifest, [{ component: 'Registry', operator: 'replace', value: 'mirror.io' }]);
  assert.ok(step.ok);
  if (!step.ok) return;
  const spec = ((step.manifest.spec as Obj).template as { spec: Obj }).spec;
  assert.equal(spec.containers, [{ name: 'app', image: 'mirror.io/nginx:1' }]);
  assert.equal(spec.initContainers, [{ name: 'init', image: 'busybox:1' }]);
});

test('without a predicate, kinds other than Pod and the five workloads are left alone', () => {
  const cronJob = {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'c' },
    spec: { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'a', image: 'nginx' }] } } } } },
  };
  const step = applyImageOverriders(cronJob, [{ component: 'Registry', operator: 'replace', value: 'mirror.io' }]);
  assert.ok(step.ok && step.manifest === cronJob);
});

test('with a predicate, any kind is changed at that path', () => {
  const cronJob = {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'c' },
    spec: { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'a', image: 'nginx' }] } } } } },
  };
  const step = applyImageOverriders(cronJob, [
    {
      predicate: { path: '/spec/jobTemplate/spec/template/spec/containers/0/image' },
      component: 'Registry',
      operator: 'replace',
      value: 'mirror.io',
    },
  ]);
  assert.ok(step.ok);
  if (step.ok) assert.equal(JSON.stringify(step.manifest).includes('"image":"mirror.io/nginx"'), true);
});

test('overriders apply in list order, each on the result of the previous one', () => {
  const manifest = workload('Deployment', [{ name: 'a', image: 'nginx:1.0' }]);
  const step = applyImageOverriders(manifest, [
    { component: 'Registry', operator: 'replace', value: 'a.io' },
    { component: 'Registry', operator: 'add', value: '.cn' },
    { component: 'Tag', operator: 'add', value: '-alpine' },
  ]);
  assert.ok(step.ok);
  if (step.ok)
    assert.equal(
      containersOf(step.manifest).map((c) => c.image),
      ['a.io.cn/nginx:1.0-alpine'],
    );
});

test('a predicate path that does not lead to a string fails and names the overrider', () => {
  const manifest = workload('Deployment', [{ name: 'a', image: 'nginx' }]);
  const step = applyImageOverriders(manifest, [
    { component: 'Tag', operator: 'replace', value: 'v1' },
    {
      predicate: { path: '/spec/template/spec/containers/0/missing' },
      component: 'Tag',
      operator: 'replace',
      value: 'v1',
    },
  ]);
  assert.equal(
    step.ok
      ? null
      : [step.overrider, step.message.includes('predicate path(/spec/template/spec/containers/0/missing)')],
    ['imageOverrider[1]', true],
  );
});

test('a container without an image fails to parse, as in Karmada', () => {
  const step = applyImageOverriders(workload('Deployment', [{ name: 'a' }]), [
    { component: 'Tag', operator: 'replace', value: 'v1' },
  ]);
  assert.is(step.ok, false);
  if (!step.ok) assert.match(step.message, /repository name must have at least one component/);
});

test('an image the override leaves empty is written as null, with or without a predicate', () => {
  const step = applyImageOverriders(workload('Deployment', [{ name: 'a', image: 'nginx' }]), [
    { component: 'Repository', operator: 'remove' },
  ]);
  assert.equal(step.ok && containersOf(step.manifest), [{ name: 'a', image: null }]);
  const pod = workload('Pod', [{ name: 'a', image: 'nginx' }]);
  const viaPredicate = applyImageOverriders(pod, [
    { predicate: { path: '/spec/containers/0/image' }, component: 'Repository', operator: 'replace', value: '' },
  ]);
  assert.equal(viaPredicate.ok && containersOf(viaPredicate.manifest), [{ name: 'a', image: null }]);
});

test('the input manifest is not mutated', () => {
  const manifest = workload('Pod', [{ name: 'a', image: 'nginx:1' }]);
  const before = JSON.stringify(manifest);
  applyImageOverriders(manifest, [{ component: 'Tag', operator: 'replace', value: '2' }]);
  assert.is(JSON.stringify(manifest), before);
});

test.run();
