import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyKustomizeOptions } from '../../src/units/applyKustomizeOptions.ts';

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

test('an image the kustomization lists is updated in place, a new one added; labels and annotations are added over its own', () => {
  const out = applyKustomizeOptions(GUESTBOOK, {
    images: ['gb-frontend=nginx:1.27', 'redis:7', 'busybox@sha256:def'],
    commonLabels: { tier: 'frontend', team: 'web' },
    commonAnnotations: { owner: 'web-team' },
  });
  assert.equal(out.images, [
    { name: 'gb-frontend', newTag: '1.27', newName: 'nginx' },
    { name: 'redis', newTag: '7' },
    { name: 'busybox', digest: 'sha256:def' },
  ]);
  assert.equal(out.commonLabels, { app: 'guestbook', tier: 'frontend', team: 'web' });
  assert.equal(out.commonAnnotations, { owner: 'web-team' });
  assert.equal(applyKustomizeOptions(GUESTBOOK, {}), GUESTBOOK, 'no options, no change');
});

test.run();
