import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatImage, parseImage, splitHostname, withTagOrDigest } from '../../src/overrides/parseImage.ts';

const SHA = 'sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c';

// Cases transcribed from karmada pkg/util/imageparser/parser_test.go (TestParse): image -> components, and
// the components print back to the same image.
const parseCases: { image: string; hostname: string; repository: string; tag: string; digest: string }[] = [
  { image: 'pause', hostname: '', repository: 'pause', tag: '', digest: '' },
  { image: 'subpath/imagename:v1.0.0', hostname: '', repository: 'subpath/imagename', tag: 'v1.0.0', digest: '' },
  {
    image: 'fictional.registry.example/imagename:v1.0.0',
    hostname: 'fictional.registry.example',
    repository: 'imagename',
    tag: 'v1.0.0',
    digest: '',
  },
  {
    image: 'fictional.registry.example:10443/subpath/imagename:v1.0.0',
    hostname: 'fictional.registry.example:10443',
    repository: 'subpath/imagename',
    tag: 'v1.0.0',
    digest: '',
  },
  {
    image: `fictional.registry.example:10443/subpath/imagename@${SHA}`,
    hostname: 'fictional.registry.example:10443',
    repository: 'subpath/imagename',
    tag: '',
    digest: SHA,
  },
];

for (const c of parseCases) {
  test(`parseImage splits ${c.image} and prints it back unchanged`, () => {
    const result = parseImage(c.image);
    assert.ok(result.ok);
    if (!result.ok) return;
    assert.equal(result.image, { hostname: c.hostname, repository: c.repository, tag: c.tag, digest: c.digest });
    assert.is(formatImage(result.image), c.image);
  });
}

// Cases transcribed from the same file (TestSplitHostname).
const splitCases: [string, string, string][] = [
  ['', '', ''],
  ['imagename', '', 'imagename'],
  ['subpath/imagename', '', 'subpath/imagename'],
  ['fictional.registry.example/subpath/imagename', 'fictional.registry.example', 'subpath/imagename'],
  ['fictional.registry.example:10443/subpath/imagename', 'fictional.registry.example:10443', 'subpath/imagename'],
  ['10.10.10.10:10443/subpath/imagename', '10.10.10.10:10443', 'subpath/imagename'],
];

test('splitHostname treats the first segment as a host only when it has . or : or is localhost', () => {
  for (const [name, hostname, repository] of splitCases)
    assert.equal(splitHostname(name), { hostname, repository }, name);
  assert.equal(splitHostname('localhost/app'), { hostname: 'localhost', repository: 'app' });
});

test('an image with both a tag and a digest keeps only the tag', () => {
  const result = parseImage(`nginx:1.25@${SHA}`);
  assert.ok(result.ok && formatImage(result.image) === 'nginx:1.25');
});

test('invalid images are rejected with distribution/reference reasons', () => {
  const messages = ['', 'Nginx', 'nginx:', 'nginx@sha256:abc', `nginx@md5:${'a'.repeat(32)}`].map((image) => {
    const result = parseImage(image);
    return result.ok ? 'ok' : result.message;
  });
  assert.equal(messages, [
    'repository name must have at least one component',
    'repository name must be lowercase',
    'invalid reference format',
    'invalid reference format',
    'unsupported digest algorithm',
  ]);
});

test('a digest algorithm other than sha256, sha384 and sha512 is refused as go-digest refuses it', () => {
  const verdict = (image: string) => {
    const result = parseImage(image);
    return result.ok ? 'ok' : result.message;
  };
  const hex = SHA.slice('sha256:'.length);
  assert.is(verdict(`nginx@sha512:${'a'.repeat(128)}`), 'ok');
  assert.is(verdict(`nginx@sha1:${'a'.repeat(40)}`), 'unsupported digest algorithm');
  assert.is(verdict(`nginx@blake3.x:${hex}`), 'unsupported digest algorithm');
  // The reference grammar takes an uppercase algorithm; go-digest's own pattern does not, and says so first.
  assert.is(verdict(`nginx@SHA256:${hex}`), 'invalid checksum digest format');
  assert.is(verdict(`nginx@Sha1:${hex}`), 'invalid checksum digest format');
});

test('the 255-character limit counts the repository path, as distribution/reference does, not a registry before it', () => {
  const verdict = (image: string) => {
    const result = parseImage(image);
    return result.ok ? 'ok' : result.message;
  };
  const tooLong = 'repository name must not be more than 255 characters';
  assert.is(verdict(`reg.io/${'a'.repeat(250)}:v`), 'ok');
  assert.is(verdict(`x/${'a'.repeat(254)}`), 'ok');
  assert.is(verdict(`reg:5000/${'a'.repeat(255)}`), 'ok');
  assert.is(verdict(`reg:5000/${'a'.repeat(256)}`), tooLong);
  assert.is(verdict('a'.repeat(256)), tooLong);
  assert.is(verdict(`x/${'a'.repeat(200)}/${'b'.repeat(60)}`), tooLong);
});

test('withTagOrDigest sets a tag or a digest and ignores anything that is neither', () => {
  const image = { hostname: '', repository: 'nginx', tag: 'v1', digest: '' };
  assert.is(formatImage(withTagOrDigest(image, 'v2')), 'nginx:v2');
  assert.is(formatImage(withTagOrDigest(image, SHA)), `nginx@${SHA}`);
  // "v1.0" + digest fits neither grammar (a digest algorithm part cannot start with a digit after "."), so
  // nothing changes; "v1" + digest does fit the digest grammar, so it becomes the digest, exactly as in Go.
  assert.is(formatImage(withTagOrDigest(image, `v1.0${SHA}`)), 'nginx:v1');
  assert.is(formatImage(withTagOrDigest(image, `v1${SHA}`)), `nginx@v1${SHA}`);
});

test.run();
