import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { KubeConfig } from '@kubernetes/client-node';
import type { Member } from '../../src/members/startMember.ts';
import { writeKubeconfig } from '../../src/members/writeKubeconfig.ts';
import { api, MemberHarness } from './helpers/memberHarness.ts';
import path from 'node:path';

// Discovery, openapi and Table shapes, which kubectl depends on byte for byte (see ENGINEERING-NOTES §B).

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
