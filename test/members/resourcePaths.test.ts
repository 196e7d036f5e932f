import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness, waitFor } from './helpers/memberHarness.ts';

// Which paths serve which verbs, as kube-apiserver routes them: a built-in resource's go-restful routes (the
// installer registers a namespaced resource across namespaces for list and watch only), the CRD handler's scope
// check, and the not-found handler behind them. A client with a stale idea of a resource's scope (the Python
// dynamic client's discovery cache) must be refused, never served in the body's namespace.

const harness = new MemberHarness();
let member: Member;

const GO_RESTFUL_404 = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server could not find the requested resource',
  reason: 'NotFound',
  details: {},
  code: 404,
};
const GO_RESTFUL_405 = {
  ...GO_RESTFUL_404,
  message: 'the server does not allow this method on the requested resource',
  reason: 'MethodNotAllowed',
  code: 405,
};

test.before(async () => {
  member = await harness.start({ name: 'paths' });
});

test.after(async () => {
  await harness.cleanup();
});

test("a built-in namespaced resource's path across namespaces lists and watches only: other methods are a 405, an item a 404", async () => {
  const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'stays', namespace: 'default' } };
  assert.is((await api(member, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap })).status, 201);
  for (const method of ['POST', 'DELETE', 'PUT', 'PATCH']) {
    const refused = await api(member, method, '/api/v1/configmaps', {
      body: { ...configMap, metadata: { name: 'across', namespace: 'default' } },
      contentType: method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
    });
    assert.equal([refused.status, refused.body], [405, GO_RESTFUL_405], method);
  }
  for (const method of ['GET', 'PUT', 'DELETE']) {
    const item = await api(member, method, '/api/v1/configmaps/stays', { body: configMap });
    assert.equal([item.status, item.body], [404, GO_RESTFUL_404], method);
  }
  assert.equal((await api(member, 'GET', '/api/v1/watch/configmaps/stays')).body, GO_RESTFUL_404);
  const names = (await api(member, 'GET', '/api/v1/configmaps')).body.items.map(
    (c: { metadata: { namespace: string; name: string } }) => `${c.metadata.namespace}/${c.metadata.name}`,
  );
  assert.ok(names.includes('default/stays'), names.join(' '));
  assert.not.ok(names.includes('default/across'), names.join(' '));
});

test('a namespaced custom resource without a namespace is the CRD handler passing it on: 404 page not found unless list or watch', async () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  };
  assert.is(
    (await api(member, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd })).status,
    201,
  );
  const gadget = { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g', namespace: 'default' } };
  await waitFor(
    'gadgets served',
    async () =>
      (await api(member, 'POST', '/apis/example.com/v1/namespaces/default/gadgets', { body: gadget })).status === 201,
  );
  for (const [method, path] of [
    ['POST', '/apis/example.com/v1/gadgets'],
    ['DELETE', '/apis/example.com/v1/gadgets'],
    ['GET', '/apis/example.com/v1/gadgets/g'],
    ['PATCH', '/apis/example.com/v1/gadgets/g'],
  ] as const) {
    const passed = await api(member, method, path, {
      body: { ...gadget, metadata: { name: 'h', namespace: 'default' } },
      contentType: method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
    });
    assert.equal(
      [passed.status, passed.text, passed.headers['content-type']],
      [404, '404 page not found\n', 'text/plain; charset=utf-8'],
      `${method} ${path}`,
    );
  }
  const listed = await api(member, 'GET', '/apis/example.com/v1/gadgets');
  assert.equal(
    listed.body.items.map((g: { metadata: { name: string } }) => g.metadata.name),
    ['g'],
  );
});

test("a method a resource's routes lack is answered as its handler answers it: go-restful's bare 405, or the verb named", async () => {
  for (const [method, path] of [
    ['PUT', '/api/v1/namespaces/default/configmaps'],
    ['PATCH', '/api/v1/namespaces/default/configmaps'],
    ['POST', '/api/v1/namespaces/default/configmaps/one'],
    ['POST', '/api/v1/namespaces/default/finalize'],
    ['DELETE', '/apis/apps/v1/namespaces/default/deployments/absent/scale'],
    ['POST', '/api/v1/watch/namespaces/default/pods'],
    ['DELETE', '/apis/metrics.k8s.io/v1beta1/nodes/absent'],
    ['GET', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews'],
  ] as const) {
    const refused = await api(member, method, path, {
      body: {},
      contentType: method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
    });
    assert.equal([refused.status, refused.text], [405, `${JSON.stringify(GO_RESTFUL_405)}\n`], `${method} ${path}`);
  }
  const watched = await api(member, 'GET', '/apis/metrics.k8s.io/v1beta1/pods?watch=true');
  assert.equal(watched.body, {
    ...GO_RESTFUL_405,
    message: 'watch is not supported on resources of kind "pods.metrics.k8s.io"',
    details: { group: 'metrics.k8s.io', kind: 'pods' },
  });
  // The gadgets CRD of the test above: the CRD handler makes an update or a patch of the collection, with no name.
  for (const method of ['PUT', 'PATCH']) {
    const unnamed = await api(member, method, '/apis/example.com/v1/namespaces/default/gadgets', {
      body: {},
      contentType: method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
    });
    assert.equal(
      [unnamed.status, unnamed.body.reason, unnamed.body.message],
      [400, 'BadRequest', 'name must be provided'],
      method,
    );
  }
});

test('an unknown resource of a built-in group version is a go-restful 404; an unknown group reaches the not-found handler', async () => {
  for (const path of [
    '/apis/apps/v1/widgets',
    '/api/v1/namespaces/default/nodes',
    '/api/v1/namespaces/default/pods/p/x/y',
  ]) {
    const missing = await api(member, 'GET', path);
    assert.equal([missing.status, missing.body], [404, GO_RESTFUL_404], path);
  }
  for (const path of ['/apis/nowhere.example.com/v1/things', '/apis/example.com/v1/namespaces/default/widgets']) {
    const missing = await api(member, 'GET', path);
    assert.equal([missing.status, missing.text], [404, '404 page not found\n'], path);
  }
});

test.run();
