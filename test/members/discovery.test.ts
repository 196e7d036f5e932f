import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { KubeConfig } from '@kubernetes/client-node';
import type { Member } from '../../src/members/startMember.ts';
import { writeKubeconfig } from '../../src/members/writeKubeconfig.ts';
import { api, MemberHarness, waitFor } from './helpers/memberHarness.ts';
import path from 'node:path';

// Discovery, openapi and Table shapes, which kubectl depends on byte for byte (see ENGINEERING-NOTES §B).

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

const harness = new MemberHarness();
let member: Member;
let second: Member;

test.before(async () => {
  member = await harness.start({ name: 'member1' });
  second = await harness.start({ name: 'member2' });
});

test.after(async () => {
  await harness.cleanup();
});

test('aggregated discovery answers with the exact apidiscovery v2 content type', async () => {
  const res = await api(member, 'GET', '/apis', {
    accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
  });
  assert.is(res.headers['content-type'], 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
  const apps = res.body.items.find((i: any) => i.metadata.name === 'apps');
  const deployments = apps.versions[0].resources.find((r: any) => r.resource === 'deployments');
  assert.equal(deployments.responseKind, { group: 'apps', version: 'v1', kind: 'Deployment' });
  assert.equal(deployments.shortNames, ['deploy']);
  const core = await api(member, 'GET', '/api', {
    accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  });
  assert.ok(
    core.body.items[0].versions[0].resources.some((r: any) => r.resource === 'pods' && r.scope === 'Namespaced'),
  );
});

test('legacy discovery lists resources and subresources per group version', async () => {
  const res = await api(member, 'GET', '/apis/apps/v1');
  assert.is(res.body.kind, 'APIResourceList');
  const names = res.body.resources.map((r: any) => r.name);
  for (const name of [
    'deployments',
    'deployments/status',
    'deployments/scale',
    'statefulsets',
    'daemonsets',
    'replicasets',
  ])
    assert.ok(names.includes(name), name);
  const groups = await api(member, 'GET', '/apis');
  const groupNames = groups.body.groups.map((g: any) => g.name);
  for (const g of [
    'apps',
    'batch',
    'networking.k8s.io',
    'policy',
    'autoscaling',
    'coordination.k8s.io',
    'apiextensions.k8s.io',
  ])
    assert.ok(groupNames.includes(g), g);
});

test("an APIService's group is discovered though no Service behind it answers: listed, with no resources", async () => {
  const kubectl = harness.kubectl([second]);
  const apiService = {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: 'v1beta1.custom.metrics.k8s.io' },
    spec: {
      group: 'custom.metrics.k8s.io',
      version: 'v1beta1',
      service: { name: 'adapter', namespace: 'default', port: 443 },
      groupPriorityMinimum: 100,
      versionPriority: 100,
      insecureSkipTLSVerify: true,
    },
  };
  const applied = await kubectl(['apply', '-f', '-'], JSON.stringify(apiService));
  assert.is(applied.code, 0, applied.stderr);
  // kubectl reads aggregated discovery; the legacy documents are what client-go's older paths read.
  const versions = await kubectl(['api-versions']);
  assert.is(versions.code, 0, versions.stderr);
  assert.ok(versions.stdout.split('\n').includes('custom.metrics.k8s.io/v1beta1'), versions.stdout);
  const legacy = await kubectl(['get', '--raw', '/apis']);
  const group = JSON.parse(legacy.stdout).groups.find((g: any) => g.name === 'custom.metrics.k8s.io');
  assert.equal(group, {
    name: 'custom.metrics.k8s.io',
    versions: [{ groupVersion: 'custom.metrics.k8s.io/v1beta1', version: 'v1beta1' }],
    preferredVersion: { groupVersion: 'custom.metrics.k8s.io/v1beta1', version: 'v1beta1' },
  });
  const proxied = await api(second, 'GET', '/apis/custom.metrics.k8s.io/v1beta1');
  assert.equal([proxied.status, proxied.body], [503, 'service unavailable\n']);
});

test('discovery orders groups by APIService priority, versions by version priority, resources by name', async () => {
  const third = await harness.start({ name: 'member3' });
  const kubectl = harness.kubectl([third]);
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.b.example.com}
spec:
  group: b.example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
  - {name: v1alpha1, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v2.a.example.com}
spec:
  group: a.example.com
  version: v2
  service: {name: adapter, namespace: default, port: 443}
  groupPriorityMinimum: 1000
  versionPriority: 100
`;
  const applied = await kubectl(['apply', '-f', '-'], crd);
  assert.is(applied.code, 0, applied.stderr);
  const aggregated = await waitFor('the CRD group in aggregated discovery', async () => {
    const res = await api(third, 'GET', '/apis', { accept: AGGREGATED });
    return res.body.items.some((i: any) => i.metadata.name === 'b.example.com') ? res.body : undefined;
  });
  // The discovery manager: highest groupPriorityMinimum first, ties by group name.
  assert.equal(
    aggregated.items.map((i: any) => `${i.metadata.name}:${i.versions.map((v: any) => v.version).join(',')}`),
    [
      'apiregistration.k8s.io:v1',
      'apps:v1',
      'authentication.k8s.io:v1',
      'authorization.k8s.io:v1',
      'autoscaling:v2,v1',
      'batch:v1',
      'networking.k8s.io:v1',
      'policy:v1',
      'rbac.authorization.k8s.io:v1',
      'storage.k8s.io:v1',
      'admissionregistration.k8s.io:v1',
      'apiextensions.k8s.io:v1',
      'scheduling.k8s.io:v1',
      'coordination.k8s.io:v1',
      'node.k8s.io:v1',
      'discovery.k8s.io:v1',
      'a.example.com:v2',
      'b.example.com:v1,v1alpha1',
      'metrics.k8s.io:v1beta1',
    ],
  );
  // The legacy list: the aggregator's own group, then APIServices by priority, ties by APIService name (v1.b before
  // v2.a).
  const legacy = await api(third, 'GET', '/apis');
  const names = legacy.body.groups.map((g: any) => g.name);
  assert.equal(names.slice(0, 2), ['apiregistration.k8s.io', 'apps']);
  assert.equal(names.slice(-3), ['b.example.com', 'a.example.com', 'metrics.k8s.io']);
  const gadgets = legacy.body.groups.find((g: any) => g.name === 'b.example.com');
  assert.equal(
    gadgets.versions.map((v: any) => v.version),
    ['v1', 'v1alpha1'],
  );
  const core = await api(third, 'GET', '/api/v1');
  const paths = core.body.resources.map((r: any) => r.name);
  assert.equal(paths, [...paths].sort());
  assert.equal(
    paths.filter((p: string) => p.startsWith('pods')),
    ['pods', 'pods/attach', 'pods/exec', 'pods/log', 'pods/portforward', 'pods/status'],
  );
  const apps = aggregated.items.find((i: any) => i.metadata.name === 'apps').versions[0].resources;
  assert.equal(
    apps.map((r: any) => r.resource),
    ['controllerrevisions', 'daemonsets', 'deployments', 'replicasets', 'statefulsets'],
  );
  assert.equal(
    apps[2].subresources.map((s: any) => s.subresource),
    ['scale', 'status'],
  );
});

test('kubectl get all lists the kinds in the order a real cluster gives them', async () => {
  const kubectl = harness.kubectl([member]);
  assert.is((await kubectl(['create', 'namespace', 'ordered'])).code, 0);
  for (const args of [
    ['create', 'job', 'once', '--image=busybox'],
    ['create', 'cronjob', 'nightly', '--image=busybox', '--schedule=0 0 * * *'],
    ['create', 'deployment', 'web', '--image=nginx', '--replicas=0'],
    ['autoscale', 'deployment', 'web', '--max=2'],
  ]) {
    const created = await kubectl([...args, '-n', 'ordered']);
    assert.is(created.code, 0, created.stderr);
  }
  const all = await kubectl(['get', 'all', '-n', 'ordered', '-o', 'name']);
  assert.is(all.code, 0, all.stderr);
  const kinds = [
    ...new Set(
      all.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('/')[0]),
    ),
  ];
  assert.equal(
    kinds.filter((k) => k !== 'pod' && k !== 'replicaset.apps'),
    ['deployment.apps', 'horizontalpodautoscaler.autoscaling', 'cronjob.batch', 'job.batch'],
  );
});

test('the api-extensions category gathers the kinds that extend the API, as kubectl get api-extensions reads it', async () => {
  const kubectl = harness.kubectl([member]);
  const objects = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: guard}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: sprockets.c.example.com}
spec:
  group: c.example.com
  scope: Namespaced
  names: {plural: sprockets, singular: sprocket, kind: Sprocket}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`;
  const applied = await kubectl(['apply', '-f', '-'], objects);
  assert.is(applied.code, 0, applied.stderr);
  const listed = await kubectl(['api-resources', '--categories=api-extensions', '-o', 'name']);
  assert.is(listed.code, 0, listed.stderr);
  assert.equal(listed.stdout.trim().split('\n').sort(), [
    'apiservices.apiregistration.k8s.io',
    'customresourcedefinitions.apiextensions.k8s.io',
    'mutatingwebhookconfigurations.admissionregistration.k8s.io',
    'validatingwebhookconfigurations.admissionregistration.k8s.io',
  ]);
  const got = await kubectl(['get', 'api-extensions', '-o', 'name']);
  assert.is(got.code, 0, got.stderr);
  const kinds = [
    ...new Set(
      got.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('/')[0]),
    ),
  ];
  assert.equal(kinds, [
    'apiservice.apiregistration.k8s.io',
    'validatingwebhookconfiguration.admissionregistration.k8s.io',
    'customresourcedefinition.apiextensions.k8s.io',
  ]);
  const all = await kubectl(['api-resources', '--categories=all', '-o', 'name']);
  assert.equal(all.stdout.trim().split('\n').sort(), [
    'cronjobs.batch',
    'daemonsets.apps',
    'deployments.apps',
    'horizontalpodautoscalers.autoscaling',
    'jobs.batch',
    'pods',
    'replicasets.apps',
    'replicationcontrollers',
    'services',
    'statefulsets.apps',
  ]);
});

test('openapi v2 is served as kube-openapi negotiates it: protobuf for client-go, JSON otherwise, 406 for neither', async () => {
  const pb = await api(member, 'GET', '/openapi/v2', {
    accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
  });
  assert.is(pb.status, 200);
  assert.is(pb.headers['content-type'], 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
  // gnostic's Document: field 1 (swagger) is the first thing on the wire.
  assert.ok(String(pb.body).startsWith('\n\x032.0'), JSON.stringify(pb.body));
  const json = await api(member, 'GET', '/openapi/v2', { accept: '*/*' });
  assert.is(json.headers['content-type'], 'application/json');
  assert.equal(json.body, {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths: {},
    definitions: {},
  });
  const preferred = await api(member, 'GET', '/openapi/v2', {
    accept: 'application/json;q=0.5, application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
  });
  assert.is(preferred.headers['content-type'], 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
  const refused = await api(member, 'GET', '/openapi/v2', { accept: 'text/html' });
  assert.is(refused.status, 406);
});

test('openapi v3 documents tag PATCH operations with their group-version-kind', async () => {
  const index = await api(member, 'GET', '/openapi/v3');
  const url: string = index.body.paths['apis/apps/v1'].serverRelativeURL;
  assert.match(url, /^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]+$/);
  const doc = await api(member, 'GET', url);
  const patch = doc.body.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
  assert.equal(patch['x-kubernetes-group-version-kind'], { group: 'apps', version: 'v1', kind: 'Deployment' });
  const nodes = (await api(member, 'GET', '/openapi/v3/api/v1')).body.paths['/api/v1/nodes/{name}'];
  assert.ok(nodes.patch, 'cluster-scoped path has no namespace segment');
});

test('Table responses carry the real columns with wide ones at priority 1', async () => {
  const res = await api(member, 'GET', '/api/v1/nodes', {
    accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
  });
  assert.is(res.body.kind, 'Table');
  assert.equal(
    res.body.columnDefinitions.map((c: any) => `${c.name}:${c.priority}`),
    [
      'Name:0',
      'Status:0',
      'Roles:0',
      'Age:0',
      'Version:0',
      'Internal-IP:1',
      'External-IP:1',
      'OS-Image:1',
      'Kernel-Version:1',
      'Container-Runtime:1',
    ],
  );
  assert.is(res.body.rows.length, 3);
  assert.is(res.body.rows[0].object.kind, 'PartialObjectMetadata');
});

test('writeKubeconfig writes one context per member, loadable by client-node', async () => {
  const file = path.join(harness.tempDir(), 'members.config');
  writeKubeconfig(file, [member, second]);
  const doc = parse(readFileSync(file, 'utf8'));
  assert.equal(doc.contexts, [
    { context: { cluster: 'member1', user: 'member1' }, name: 'member1' },
    { context: { cluster: 'member2', user: 'member2' }, name: 'member2' },
  ]);
  assert.is(doc['current-context'], 'member1');
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  assert.equal(
    kc.getContexts().map((c) => c.name),
    ['member1', 'member2'],
  );
  assert.is(kc.getCluster('member2')?.server, second.url);
  assert.is(kc.getUser('member2')?.token, second.token);
  assert.is(Buffer.from(kc.getCluster('member1')!.caData!, 'base64').toString(), member.caPem);
});

test.run();
