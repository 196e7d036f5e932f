import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { objectShape } from '../../src/api/listSemantics.ts';
import { typedPatchErrors } from '../../src/members/apply/typedPatchErrors.ts';
import type { Member } from '../../src/members/startMember.ts';
import type { KubeObject } from '../../src/members/types.ts';
import { api, MemberHarness } from './helpers/memberHarness.ts';

// Server-side apply types the applied configuration against the kind's schema before merging (structured-merge-diff's
// validation, duplicates not allowed): a keyed list item that cannot be keyed, a duplicate key or an undeclared field
// fails the apply as a plain error (a 500 with no reason), whatever fieldValidation asks, before the kind's validation.

const harness = new MemberHarness();
let member: Member;
let kubectl: ReturnType<MemberHarness['kubectl']>;

test.before(async () => {
  member = await harness.start({ name: 'member1' });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

const POD = objectShape('v1', 'Pod');
const pod = (spec: object, metadata: object = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', ...metadata },
  spec,
});
const texts = (object: KubeObject, shape = POD) =>
  typedPatchErrors(object, shape).map((e) => `${e.path}: ${e.message}`);

test('a keyed list item is keyed by its key fields, a missing one taking its declared default, else it is refused', () => {
  assert.equal(
    texts(pod({ containers: [{ name: 'web', ports: [{ containerPort: 80 }], env: [{ name: 'A' }] }] })),
    [],
    "a port's protocol defaults to TCP",
  );
  assert.equal(texts(pod({ containers: [{ name: 'web' }], imagePullSecrets: [{}] })), [], 'a reference defaults to ""');
  assert.equal(texts(pod({ containers: [{ image: 'nginx' }, { name: 'b' }] })), [
    `.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn't have default value)`,
  ]);
  assert.equal(texts(pod({ containers: [{ name: 'web', ports: [{ name: 'http' }] }] })), [
    `.spec.containers[name="web"].ports: element 0: associative list with keys has an element that omits key field "containerPort" (and doesn't have default value)`,
  ]);
  assert.equal(texts(pod({ containers: [{ name: 'a' }, null, 'b'] })), [
    '.spec.containers: element 1: associative list with keys may not have a null element',
  ]);
  assert.equal(texts(pod({ containers: ['b'] })), [
    '.spec.containers: element 0: associative list with keys may not have non-map elements',
  ]);
  assert.equal(texts(pod({}, { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x' }] })), [
    `.metadata.ownerReferences: element 0: associative list with keys has an element that omits key field "uid" (and doesn't have default value)`,
  ]);
});

test('duplicate keys and set values are each refused, and the items are still checked inside', () => {
  const duplicated = pod(
    {
      containers: [
        {
          name: 'web',
          env: [{ name: 'A' }, { name: 'A', value: '2' }],
          ports: [
            { containerPort: 80 },
            { containerPort: 80, protocol: 'TCP' },
            { containerPort: 80, protocol: 'UDP' },
          ],
        },
        { name: 'web', bogus: true },
      ],
    },
    { finalizers: ['a/b', 'a/b'] },
  );
  assert.equal(texts(duplicated), [
    '.metadata.finalizers: duplicate entries for key [="a/b"]',
    '.spec.containers[name="web"].env: duplicate entries for key [name="A"]',
    '.spec.containers[name="web"].ports: duplicate entries for key [containerPort=80,protocol="TCP"]',
    '.spec.containers: duplicate entries for key [name="web"]',
    '.spec.containers[name="web"].bogus: field not declared in schema',
  ]);
  assert.equal(texts(pod({}, { finalizers: ['a', { b: 1 }] })), [
    ".metadata.finalizers: element 1: associative list without keys has an element that's a map type",
  ]);
});

test('an undeclared field is named by its keyed or indexed path, and ends the walk of its map', () => {
  assert.equal(texts(pod({ containers: [{ name: 'web', resource: {}, bogus: 1 }], zzz: 1 })), [
    '.spec.containers[name="web"].resource: field not declared in schema',
    '.spec.zzz: field not declared in schema',
  ]);
  const policy: KubeObject = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'n' },
    spec: { podSelector: {}, ingress: [{ _from: [] }] },
  };
  assert.equal(texts(policy, objectShape('networking.k8s.io/v1', 'NetworkPolicy')), [
    '.spec.ingress[0]._from: field not declared in schema',
  ]);
});

test('kubectl apply --server-side of an item without its key fails with the typed patch error, whatever the validation asks', async () => {
  const nameless = `apiVersion: apps/v1
kind: Deployment
metadata: {name: noname, namespace: default}
spec:
  selector: {matchLabels: {app: x}}
  template:
    metadata: {labels: {app: x}}
    spec:
      containers:
      - image: nginx
`;
  const refused = await kubectl(['apply', '--server-side', '-f', '-'], nameless);
  assert.is(refused.code, 1);
  assert.is(
    refused.stderr,
    `Error from server: failed to create typed patch object (default/noname; apps/v1, Kind=Deployment): .spec.template.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn't have default value)\n`,
  );
  const clientSide = await kubectl(['apply', '-f', '-'], nameless);
  assert.match(clientSide.stderr, 'spec.template.spec.containers[0].name: Required value');

  const typo = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: typo, namespace: default}\ndata_error: {a: b}\n';
  for (const validate of ['--validate=false', '--validate=warn', '--validate=strict']) {
    const typed = await kubectl(['apply', '--server-side', validate, '-f', '-'], typo);
    assert.is(
      typed.stderr,
      'Error from server: failed to create typed patch object (default/typo; /v1, Kind=ConfigMap): .data_error: field not declared in schema\n',
      validate,
    );
  }
  const raw = await api(member, 'PATCH', '/api/v1/namespaces/default/configmaps/typo?fieldManager=m', {
    body: typo,
    contentType: 'application/apply-patch+yaml',
  });
  assert.is(raw.status, 500);
  assert.is(raw.body.reason, undefined);
  assert.is((await api(member, 'GET', '/api/v1/namespaces/default/configmaps/typo')).status, 404);
  assert.is((await api(member, 'GET', '/apis/apps/v1/namespaces/default/deployments/noname')).status, 404);
});

test.run();
