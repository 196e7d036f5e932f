import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyKustomizeOptions as applyWithRefusals } from '../../src/units/applyKustomizeOptions.ts';
import type { KustomizeOptions } from '../../src/units/unitOptions.ts';

/** The kustomization the options make, where kustomize edit accepts them all. */
function applyKustomizeOptions(kustomization: Record<string, unknown>, k: KustomizeOptions) {
  const out = applyWithRefusals(kustomization, k);
  assert.equal(out.refused, [], 'no option refused');
  return out.kustomization;
}

// A kustomization shaped like argocd-example-apps' kustomize-guestbook, with an image and labels of its own.
const GUESTBOOK = {
  namePrefix: 'kustomize-',
  resources: ['guestbook-ui-deployment.yaml', 'guestbook-ui-svc.yaml'],
  namespace: 'guestbook',
  images: [
    { name: 'gb-frontend', newTag: 'v4' },
    { name: 'redis', digest: 'sha256:abc' },
  ],
  commonLabels: { app: 'guestbook', tier: 'web' },
};

test("namePrefix, nameSuffix and namespace replace the kustomization's own, as kustomize edit set does", () => {
  const out = applyKustomizeOptions(GUESTBOOK, { namePrefix: 'staging-', nameSuffix: '-v2', namespace: 'web' });
  assert.equal([out.namePrefix, out.nameSuffix, out.namespace], ['staging-', '-v2', 'web']);
  assert.equal(out.resources, GUESTBOOK.resources);
  assert.is(GUESTBOOK.namePrefix, 'kustomize-', 'the input is not changed');
});

test('an image the kustomization lists is replaced, a new one added, the list sorted by name; labels and annotations are added to its own', () => {
  const out = applyKustomizeOptions(GUESTBOOK, {
    images: ['gb-frontend=nginx:1.27', 'redis:7', 'busybox@sha256:def'],
    commonLabels: { tier: 'frontend', team: 'web' },
    forceCommonLabels: true,
    commonAnnotations: { owner: 'web-team' },
  });
  assert.equal(out.images, [
    { name: 'busybox', digest: 'sha256:def' },
    { name: 'gb-frontend', newTag: '1.27', newName: 'nginx' },
    { name: 'redis', newTag: '7' },
  ]);
  assert.equal(out.commonLabels, { app: 'guestbook', tier: 'frontend', team: 'web' });
  assert.equal(out.commonAnnotations, { owner: 'web-team' });
  assert.equal(applyKustomizeOptions(GUESTBOOK, {}), GUESTBOOK, 'no options, no change');
});

test("an image override replaces the kustomization's entry of its name whole, as kustomize edit set image does: a tag alone leaves the image's own name, `*` keeps the entry's value", () => {
  const mirrored = {
    resources: ['deployment.yaml'],
    images: [
      { name: 'nginx', newName: 'registry.example.com/nginx', newTag: '1.0' },
      { name: 'redis', newName: 'registry.example.com/redis', digest: 'sha256:abc' },
    ],
  };
  const out = applyKustomizeOptions(mirrored, { images: ['nginx:2.0', 'redis=*:7'] });
  assert.equal(out.images, [
    { name: 'nginx', newTag: '2.0' },
    { name: 'redis', newName: 'registry.example.com/redis', newTag: '7' },
  ]);
  assert.equal(
    applyKustomizeOptions({}, { images: ['busybox=*:1.36'] }).images,
    [{ name: 'busybox', newTag: '1.36' }],
    'a `*` with no entry to keep from is left out',
  );
});

test("a label or annotation the kustomization already has is refused at the option unless forced, as Argo CD's kustomize edit add label|annotation refuses it", () => {
  const own = { ...GUESTBOOK, commonAnnotations: { owner: 'platform' } };
  const refused = applyWithRefusals(own, {
    commonLabels: { tier: 'web', team: 'web' },
    commonAnnotations: { owner: 'web-team', 'docs.example.com/url': 'x' },
  }).refused;
  assert.equal(
    refused.map((r) => r.path),
    [
      ['spec', 'commonLabels', 'tier'],
      ['spec', 'commonAnnotations', 'owner'],
    ],
    'only the keys the kustomization has, even with the same value',
  );
  assert.match(refused[0]!.message, /label tier is already in the kustomization's commonLabels/);
  assert.match(refused[0]!.fix, /spec\.forceCommonLabels: true/);
  assert.match(refused[1]!.fix, /spec\.forceCommonAnnotations: true/);
  const forced = applyKustomizeOptions(own, {
    commonLabels: { tier: 'frontend' },
    forceCommonLabels: true,
    commonAnnotations: { owner: 'web-team' },
    forceCommonAnnotations: true,
  });
  assert.equal(forced.commonLabels, { app: 'guestbook', tier: 'frontend' });
  assert.equal(forced.commonAnnotations, { owner: 'web-team' });
});

test("replica counts replace the kustomization's entry of their name and keep the others, sorted by name, as kustomize edit set replicas writes them", () => {
  const out = applyKustomizeOptions(
    {
      ...GUESTBOOK,
      replicas: [
        { name: 'web', count: 2 },
        { name: 'api', count: 1 },
      ],
    },
    {
      replicas: [
        { name: 'web', count: 5 },
        { name: 'db', count: 0 },
      ],
    },
  );
  assert.equal(out.replicas, [
    { name: 'api', count: 1 },
    { name: 'db', count: 0 },
    { name: 'web', count: 5 },
  ]);
});

test("labelWithoutSelector writes the labels into the kustomization's labels entry of the same settings, or a new one, as kustomize edit add label --without-selector [--include-templates] does", () => {
  const own = {
    ...GUESTBOOK,
    labels: [
      { pairs: { env: 'prod' }, includeSelectors: true },
      { pairs: { owner: 'web' }, includeTemplates: true },
      { pairs: { region: 'eu' } },
    ],
  };
  const plain = applyKustomizeOptions(own, { commonLabels: { team: 'web' }, labelWithoutSelector: true });
  assert.equal(plain.labels, [own.labels[0], own.labels[1], { pairs: { region: 'eu', team: 'web' } }]);
  assert.equal(plain.commonLabels, GUESTBOOK.commonLabels, 'commonLabels untouched');
  const templates = applyKustomizeOptions(GUESTBOOK, {
    commonLabels: { team: 'web' },
    labelWithoutSelector: true,
    labelIncludeTemplates: true,
  });
  assert.equal(templates.labels, [{ pairs: { team: 'web' }, includeTemplates: true }]);
  const refused = applyWithRefusals(own, { commonLabels: { region: 'us', app: 'x' }, labelWithoutSelector: true });
  assert.equal(
    refused.refused.map((r) => [r.path, r.message]),
    [
      [
        ['spec', 'commonLabels', 'region'],
        "label region is already in the kustomization's labels: kustomize edit add label, which Argo CD runs, refuses to overwrite it without forceCommonLabels",
      ],
    ],
    'only the entry the labels go to counts: app is in commonLabels, a field of its own',
  );
});

test("patches are appended to the kustomization's own, which apply first, as Argo CD adds them", () => {
  const own = { ...GUESTBOOK, patches: [{ path: 'replicas.yaml' }] };
  const added = { patch: '- op: replace\n  path: /spec/replicas\n  value: 3', target: { kind: 'Deployment' } };
  assert.equal(applyKustomizeOptions(own, { patches: [added] }).patches, [{ path: 'replicas.yaml' }, added]);
  assert.equal(applyKustomizeOptions(GUESTBOOK, { patches: [added] }).patches, [added]);
});

test("components are appended to the kustomization's own, each once, as kustomize edit add component appends them", () => {
  const out = applyKustomizeOptions(
    { ...GUESTBOOK, components: ['../components/a'] },
    { components: ['../components/a', '../components/b', '../components/b'] },
  );
  assert.equal(out.components, ['../components/a', '../components/b']);
});

test.run();
