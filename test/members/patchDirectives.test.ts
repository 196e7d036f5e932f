import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness } from './helpers/memberHarness.ts';

// Strategic merge patch directives as apimachinery's mergeMap holds them: a malformed $retainKeys, $setElementOrder or
// $deleteFromPrimitiveList key is a 400, and the errors interpretStrategicMergePatchError does not translate (an
// unknown $patch, a merged item without its merge key) reach kubectl as 500s. Nothing is written either way.

const harness = new MemberHarness();
let member: Member;
let kubectl: ReturnType<MemberHarness['kubectl']>;
const URL = '/apis/apps/v1/namespaces/default/deployments/web';

test.before(async () => {
  member = await harness.start({ name: 'member1' });
  kubectl = harness.kubectl([member]);
  assert.is((await kubectl(['create', 'deployment', 'web', '--image=nginx'])).code, 0);
});

test.after(async () => {
  await harness.cleanup();
});

const refusals: [string, unknown, string][] = [
  [
    'a $retainKeys that is not a list',
    { spec: { strategy: { $retainKeys: 'type', type: 'Recreate' } } },
    'Error from server (BadRequest): invalid patch format of retainKeys',
  ],
  [
    'a key $retainKeys leaves out',
    { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: { maxSurge: 1 } } } },
    'Error from server (BadRequest): invalid patch format of retainKeys',
  ],
  [
    'a $deleteFromPrimitiveList without its /list',
    { metadata: { $deleteFromPrimitiveListfinalizers: ['a'] } },
    'Error from server (BadRequest): invalid patch format of primitive list',
  ],
  [
    'a $setElementOrder that is not a list',
    { spec: { template: { spec: { '$setElementOrder/containers': 'nginx' } } } },
    'Error from server: expected a []interface {}, but received a string',
  ],
  [
    '$patch: merge on a map',
    { metadata: { labels: { $patch: 'merge' } } },
    'Error from server: unknown patch type: merge in map: map[$patch:merge]',
  ],
  [
    'a $patch that is not a word',
    { spec: { $patch: 5 } },
    'Error from server: unknown patch type: %!s(int64=5) in map: map[$patch:5]',
  ],
  [
    '$patch: merge on a list item',
    { spec: { template: { spec: { containers: [{ $patch: 'merge', name: 'nginx' }] } } } },
    'Error from server: merging lists cannot yet be specified in the patch',
  ],
  [
    'a list item without its merge key',
    { spec: { template: { spec: { containers: [{ image: 'x', ports: [{ containerPort: 80 }], weight: 1.5 }] } } } },
    'Error from server: map: map[image:x ports:[map[containerPort:80]] weight:1.5] does not contain declared merge key: name',
  ],
];

test('kubectl patch with a malformed strategic merge patch directive is refused as kube-apiserver refuses it', async () => {
  const written = (d: any) => ({ generation: d.metadata.generation, labels: d.metadata.labels, spec: d.spec });
  const before = written((await api(member, 'GET', URL)).body);
  for (const [what, patch, error] of refusals) {
    const patched = await kubectl(['patch', 'deployment', 'web', '-p', JSON.stringify(patch)]);
    assert.is.not(patched.code, 0, what);
    assert.is(patched.stderr.trim(), error, what);
  }
  assert.equal(written((await api(member, 'GET', URL)).body), before);
});

test('well-formed directives apply: $retainKeys clears what it leaves out, a scalar $deleteFromPrimitiveList changes nothing', async () => {
  const ignored = await kubectl([
    'patch',
    'deployment',
    'web',
    '-p',
    '{"metadata":{"$deleteFromPrimitiveList/finalizers":"a"}}',
  ]);
  assert.is(ignored.code, 0, ignored.stderr);
  assert.match(ignored.stdout, 'patched (no change)');
  const retained = await kubectl([
    'patch',
    'deployment',
    'web',
    '-p',
    '{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}',
  ]);
  assert.is(retained.code, 0, retained.stderr);
  assert.equal((await api(member, 'GET', URL)).body.spec.strategy, { type: 'Recreate' });
});

test.run();
