// Image components changed one at a time, as Karmada's imageparser.Components setters do (cases after
// pkg/util/imageparser/parser_test.go at f8fdd02: ExampleComponents_SetHostname, _SetRepository, _SetTagOrDigest,
// _String), reached through the image overrider that uses them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ImageOverrider } from '../../src/api/policy.ts';
import { overrideImage } from '../../src/overrides/overrideImage.ts';
import { formatImage } from '../../src/overrides/parseImage.ts';

const SHA = 'sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c';

function steps(image: string, overriders: ImageOverrider[]): string[] {
  const seen: string[] = [];
  let current = image;
  for (const overrider of overriders) {
    const result = overrideImage(current, overrider);
    if (!result.ok) throw new Error(result.message);
    current = result.image;
    seen.push(current);
  }
  return seen;
}

test('a registry can be added to an image without one, replaced, then removed', () => {
  assert.equal(
    steps('imagename:v1.0.0', [
      { component: 'Registry', operator: 'replace', value: 'fictional.registry.example' },
      { component: 'Registry', operator: 'replace', value: 'gcr.io' },
      { component: 'Registry', operator: 'remove' },
    ]),
    ['fictional.registry.example/imagename:v1.0.0', 'gcr.io/imagename:v1.0.0', 'imagename:v1.0.0'],
  );
});

test('replacing the repository keeps the registry and the tag', () => {
  assert.equal(
    steps('gcr.io/kube-apiserver:v1.19.0', [
      { component: 'Repository', operator: 'replace', value: 'kube-controller-manager' },
    ]),
    ['gcr.io/kube-controller-manager:v1.19.0'],
  );
});

test('a tag is set, removed, a digest set in its place and removed again', () => {
  assert.equal(
    steps('gcr.io/kube-apiserver', [
      { component: 'Tag', operator: 'replace', value: 'v1.19.0' },
      { component: 'Tag', operator: 'remove' },
      { component: 'Tag', operator: 'replace', value: SHA },
      { component: 'Tag', operator: 'remove' },
    ]),
    ['gcr.io/kube-apiserver:v1.19.0', 'gcr.io/kube-apiserver', `gcr.io/kube-apiserver@${SHA}`, 'gcr.io/kube-apiserver'],
  );
});

test('components print as registry/repository:tag', () => {
  assert.is(
    formatImage({ hostname: 'fictional.registry.example', repository: 'karmada-scheduler', tag: 'v1.0.0', digest: '' }),
    'fictional.registry.example/karmada-scheduler:v1.0.0',
  );
});

test.run();
