// A MultiClusterService whose type is not CrossCluster: Karmada's own controllers leave it alone (a LoadBalancer one
// is a cloud provider's), so Flotilla does too, and says so at its types instead of doing nothing in silence.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { clusterYaml, makeConfigRepo } from '../helpers/fleet.ts';

const SERVICE = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80}]
`;
const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors: [{apiVersion: v1, kind: Service, name: web}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;
const mcs = (types: string) => `apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterService
metadata: {name: web, namespace: default}
spec:
  ports: [{name: http, port: 80}]
  types: ${types}
  providerClusters: [{name: member1}]
  consumerClusters: [{name: member2}]
`;

async function render(types: string) {
  const r = makeConfigRepo();
  try {
    r.commit({
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'templates/web.yaml': SERVICE,
      'policies/web.yaml': POLICY,
      'templates/mcs.yaml': mcs(types),
    });
    return await renderSnapshot(await openRepo(r.dir), 'HEAD');
  } finally {
    r.cleanup();
  }
}

test('a LoadBalancer MultiClusterService is a TYPE_NOT_SERVED warning at its types; its Service is placed by its policy, nothing dispatched', async () => {
  const { model, output } = await render('[LoadBalancer]');
  const problems = [...model.problems, ...output.problems];
  assert.equal(
    problems.map((p) => `${p.severity} ${p.code} ${p.file}:${p.line}`),
    ['warning TYPE_NOT_SERVED templates/mcs.yaml:6'],
  );
  assert.match(
    problems[0]!.message,
    "has types [LoadBalancer]: Karmada's own controllers act only on CrossCluster and leave LoadBalancer to a cloud provider's multi-cluster controller, which Flotilla does not run",
  );
  assert.match(problems[0]!.message, 'Service default/web is placed by its propagation policy');
  assert.match(problems[0]!.fix, 'types: [CrossCluster]');
  const clusters = [...output.edits.keys()].filter((p) => p.startsWith('clusters/')).sort();
  assert.equal(clusters, ['clusters/member1/default/service_web.yaml']);
  assert.not.match(output.edits.get('bindings/default/web-service.yaml')!, 'MultiClusterService');
});

test('a CrossCluster MultiClusterService claims its Service with no such warning', async () => {
  const { model, output } = await render('[CrossCluster]');
  assert.equal(
    [...model.problems, ...output.problems].map((p) => p.code),
    [],
  );
  const clusters = [...output.edits.keys()].filter((p) => p.startsWith('clusters/')).sort();
  assert.equal(clusters, ['clusters/member1/default/service_web.yaml', 'clusters/member2/default/service_web.yaml']);
  assert.match(
    output.edits.get('bindings/default/web-service.yaml')!,
    'binding.karmada.io/managed-by: MultiClusterService',
  );
});

test("a member's copy of a CrossCluster MultiClusterService's Service carries the template's claim: claimed-by, its permanent-id, name and namespace; the binding's managed-by mark stays on the binding", async () => {
  const { output } = await render('[CrossCluster]');
  for (const cluster of ['member1', 'member2']) {
    const manifest = parse(output.edits.get(`clusters/${cluster}/default/service_web.yaml`)!) as {
      metadata: { labels: Record<string, string>; annotations: Record<string, string> };
    };
    const { labels, annotations } = manifest.metadata;
    assert.is(labels['resourcetemplate.karmada.io/claimed-by'], 'MultiClusterService');
    assert.ok(labels['multiclusterservice.karmada.io/permanent-id']);
    assert.is(labels['binding.karmada.io/managed-by'], undefined);
    assert.is(annotations['multiclusterservice.karmada.io/name'], 'web');
    assert.is(annotations['multiclusterservice.karmada.io/namespace'], 'default');
    assert.match(annotations['resourcetemplate.karmada.io/managed-labels']!, 'resourcetemplate.karmada.io/claimed-by');
    assert.not.match(annotations['resourcetemplate.karmada.io/managed-labels']!, 'binding.karmada.io/managed-by');
  }
});

test("a Service bringing a PropagationPolicy's and a ClusterPropagationPolicy's claim in its metadata reaches members without them once a CrossCluster MultiClusterService claims it; its own labels and annotations stay", async () => {
  const r = makeConfigRepo();
  try {
    r.commit({
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'templates/web.yaml': `apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: default
  labels:
    existing-label: value
    propagationpolicy.karmada.io/permanent-id: should-be-removed
    clusterpropagationpolicy.karmada.io/permanent-id: should-be-removed
  annotations:
    existing-annotation: value
    propagationpolicy.karmada.io/name: should-be-removed
    propagationpolicy.karmada.io/namespace: default
    clusterpropagationpolicy.karmada.io/name: should-be-removed
spec:
  selector: {app: web}
  ports: [{name: http, port: 80}]
`,
      'templates/mcs.yaml': mcs('[CrossCluster]'),
    });
    const { output } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
    const text = output.edits.get('clusters/member2/default/service_web.yaml')!;
    const { labels, annotations } = (
      parse(text) as { metadata: { labels: Record<string, string>; annotations: Record<string, string> } }
    ).metadata;
    assert.not.match(text, 'should-be-removed');
    assert.not.match(text, 'propagationpolicy.karmada.io/namespace');
    assert.is(labels['existing-label'], 'value');
    assert.is(labels['resourcetemplate.karmada.io/claimed-by'], 'MultiClusterService');
    assert.is(annotations['existing-annotation'], 'value');
    assert.is(annotations['multiclusterservice.karmada.io/name'], 'web');
  } finally {
    r.cleanup();
  }
});

test('turned from CrossCluster to LoadBalancer with no policy left for its Service, the Service keeps its last output, said as such', async () => {
  const r = makeConfigRepo();
  try {
    const files = {
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'templates/web.yaml': SERVICE,
      'templates/mcs.yaml': mcs('[CrossCluster]'),
    };
    r.commit(files, 'web across member1 and member2');
    const repo = await openRepo(r.dir);
    await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
    r.commit({ 'templates/mcs.yaml': mcs('[LoadBalancer]') }, 'web: LoadBalancer');
    await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
    const message = r.git('log', '-1', '--format=%B', 'flotilla/rendered');
    assert.match(
      message,
      'POLICY_REMOVED  Service default/web was placed by MultiClusterService default/web, which no longer has type CrossCluster; it keeps running where it ran',
    );
    assert.match(message, 'TYPE_NOT_SERVED');
    const tree = r.git('ls-tree', '-r', '--name-only', 'flotilla/rendered');
    assert.match(tree, 'clusters/member2/default/service_web.yaml');
  } finally {
    r.cleanup();
  }
});

test("a deleted MultiClusterService takes its claim off its Service's binding, as retrieveService does; the result stays", async () => {
  const r = makeConfigRepo();
  try {
    r.commit(
      {
        'clusters/member1.yaml': clusterYaml('member1'),
        'clusters/member2.yaml': clusterYaml('member2'),
        'templates/web.yaml': SERVICE,
        'templates/mcs.yaml': mcs('[CrossCluster]'),
      },
      'web across member1 and member2',
    );
    const repo = await openRepo(r.dir);
    await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
    assert.match(
      r.show('flotilla/rendered', 'bindings/default/web-service.yaml'),
      'multiclusterservice.karmada.io/name',
    );
    r.commit({ 'templates/mcs.yaml': null }, 'no MultiClusterService');
    await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
    const binding = r.show('flotilla/rendered', 'bindings/default/web-service.yaml');
    for (const key of [
      'binding.karmada.io/managed-by',
      'multiclusterservice.karmada.io/permanent-id',
      'multiclusterservice.karmada.io/name',
      'multiclusterservice.karmada.io/namespace',
    ])
      assert.not.match(binding, key);
    assert.match(binding, '- name: member1');
    assert.match(binding, '- name: member2');
    const tree = r.git('ls-tree', '-r', '--name-only', 'flotilla/rendered');
    assert.match(tree, 'clusters/member2/default/service_web.yaml');
  } finally {
    r.cleanup();
  }
});

test.run();
