// A real application, shaped like Google's microservices-demo (written here, not copied): 12 Deployments and
// their Services, most Deployments without spec.replicas, most with resource requests. Pushed through the
// reconciler's pass (render + apply) to two emulated members, checked with real kubectl 1.32: the apiserver's
// default of one replica is what runs, duplicated, or divided 2:1 as Karmada divides one replica.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { reconcileOnce } from '../../src/reconcile.ts';
import { clusterYaml } from '../helpers/fleet.ts';
import { startMemberFleet, waitFor, type MemberFleet } from '../deliveries/helpers/e2e.ts';

interface Service {
  name: string;
  port: number;
  requests?: { cpu: string; memory: string };
  replicas?: number;
  service?: false;
}

// As in the demo: every service but the load generator is reached through a Service; the load generator
// states its one replica; three services ask for no resources.
const SERVICES: Service[] = [
  { name: 'emailservice', port: 8080, requests: { cpu: '100m', memory: '64Mi' } },
  { name: 'checkoutservice', port: 5050, requests: { cpu: '100m', memory: '64Mi' } },
  { name: 'recommendationservice', port: 8080, requests: { cpu: '100m', memory: '220Mi' } },
  { name: 'frontend', port: 8080, requests: { cpu: '100m', memory: '64Mi' } },
  { name: 'paymentservice', port: 50051, requests: { cpu: '100m', memory: '64Mi' } },
  { name: 'productcatalogservice', port: 3550, requests: { cpu: '100m', memory: '64Mi' } },
  { name: 'cartservice', port: 7070, requests: { cpu: '200m', memory: '64Mi' } },
  { name: 'loadgenerator', port: 8089, requests: { cpu: '300m', memory: '256Mi' }, replicas: 1, service: false },
  { name: 'currencyservice', port: 7000 },
  { name: 'shippingservice', port: 50051, requests: { cpu: '100m', memory: '64Mi' } },
  { name: 'redis-cart', port: 6379 },
  { name: 'adservice', port: 9555 },
];

function manifests(): string {
  return SERVICES.flatMap((s) => {
    const resources = s.requests
      ? `\n          resources:\n            requests: {cpu: ${s.requests.cpu}, memory: ${s.requests.memory}}`
      : '';
    const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${s.name}
spec:${s.replicas !== undefined ? `\n  replicas: ${s.replicas}` : ''}
  selector:
    matchLabels: {app: ${s.name}}
  template:
    metadata:
      labels: {app: ${s.name}}
    spec:
      containers:
        - name: server
          image: example.io/shop/${s.name}:v0.10.0
          ports: [{containerPort: ${s.port}}]${resources}
`;
    const service = `apiVersion: v1
kind: Service
metadata:
  name: ${s.name}
spec:
  selector: {app: ${s.name}}
  ports: [{name: grpc, port: ${s.port}, targetPort: ${s.port}}]
`;
    return s.service === false ? [deployment] : [deployment, service];
  }).join('---\n');
}

const policy = (scheduling: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata:
  name: shop
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, namespace: default}
    - {apiVersion: v1, kind: Service, namespace: default}
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
${scheduling}`;

const DUPLICATED = '    replicaScheduling: {replicaSchedulingType: Duplicated}\n';
// Karmada's static weights (scheduler/core/assignment.go#assignByStaticWeightStrategy) divide with Webster:
// one replica at 2:1 goes to member1 (priority 2/1 against 1/1); member2's zero is dropped
// (core/util.go#removeZeroReplicasCluster), so member2 gets no Work for the Deployment at all.
// Services are not workloads: every selected cluster gets them.
const DIVIDED_2_1 = `    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
          - {targetCluster: {clusterNames: [member1]}, weight: 2}
          - {targetCluster: {clusterNames: [member2]}, weight: 1}
`;

const DEPLOYMENTS = SERVICES.map((s) => s.name).sort();
const WITH_SERVICE = SERVICES.filter((s) => s.service !== false)
  .map((s) => s.name)
  .sort();

async function shop(scheduling: string): Promise<MemberFleet> {
  const fleet = await startMemberFleet(
    ['member1', 'member2'],
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'policies/shop.yaml': policy(scheduling),
      'apps/shop.yaml': manifests(),
    },
    'the shop',
  );
  try {
    const pass = await reconcileOnce({
      repo: fleet.repo,
      sourceRef: 'refs/heads/main',
      outputRef: 'refs/heads/flotilla/rendered',
      clusters: fleet.kubes,
      render: true,
      log: () => {},
    });
    for (const [cluster, d] of pass.delivery!.clusters) {
      const bad = d.results.filter((r) => r.action === 'failed' || r.action === 'conflict');
      assert.equal(bad, [], `${cluster}: ${JSON.stringify(bad)}`);
    }
    return fleet;
  } catch (err) {
    await fleet.cleanup();
    throw err;
  }
}

/** `kubectl get deploy` as a user reads it: NAME → READY. */
async function readyColumn(fleet: MemberFleet, cluster: string): Promise<Record<string, string>> {
  const res = await fleet.kubectl(['--context', cluster, 'get', 'deployments', '-n', 'default', '--no-headers']);
  assert.is(res.code, 0, res.stderr);
  return Object.fromEntries(
    res.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(/\s+/))
      .map(([name, ready]) => [name!, ready!]),
  );
}

async function serviceNames(fleet: MemberFleet, cluster: string): Promise<string[]> {
  const res = await fleet.kubectl([
    '--context',
    cluster,
    'get',
    'services',
    '-n',
    'default',
    '-o',
    'jsonpath={.items[*].metadata.name}',
  ]);
  assert.is(res.code, 0, res.stderr);
  return res.stdout
    .split(' ')
    .filter((n) => n && n !== 'kubernetes')
    .sort();
}

const allReady = (ready: Record<string, string>) => DEPLOYMENTS.every((d) => ready[d] === '1/1');
const rendered = (fleet: MemberFleet, cluster: string, name: string) =>
  parse(fleet.config.show('flotilla/rendered', `clusters/${cluster}/default/deployment.apps_${name}.yaml`)) as {
    spec: { replicas?: number };
  };

test('Duplicated to two members: every Deployment runs 1/1 on both, and the rendered manifests say replicas: 1', async () => {
  const fleet = await shop(DUPLICATED);
  try {
    for (const cluster of ['member1', 'member2']) {
      const ready = await waitFor(`every Deployment 1/1 on ${cluster}`, async () => {
        const r = await readyColumn(fleet, cluster);
        return allReady(r) ? r : undefined;
      });
      assert.equal(Object.keys(ready).sort(), DEPLOYMENTS);
      assert.equal(await serviceNames(fleet, cluster), WITH_SERVICE);
      for (const name of DEPLOYMENTS) assert.is(rendered(fleet, cluster, name).spec.replicas, 1, `${cluster} ${name}`);
    }
  } finally {
    await fleet.cleanup();
  }
});

test('Divided 2:1 over member1/member2: member1 runs every Deployment 1/1, member2 gets none (no 0-replica Work), both get the Services', async () => {
  const fleet = await shop(DIVIDED_2_1);
  try {
    const ready = await waitFor('every Deployment 1/1 on member1', async () => {
      const r = await readyColumn(fleet, 'member1');
      return allReady(r) ? r : undefined;
    });
    assert.equal(Object.keys(ready).sort(), DEPLOYMENTS);
    assert.equal(await readyColumn(fleet, 'member2'), {});
    assert.equal(await serviceNames(fleet, 'member1'), WITH_SERVICE);
    assert.equal(await serviceNames(fleet, 'member2'), WITH_SERVICE);
    const files = fleet.config.ls('flotilla/rendered');
    assert.not.ok(
      files.some((f) => f.startsWith('clusters/member2/') && f.includes('deployment.apps_')),
      'no Deployment rendered for member2',
    );
    for (const name of DEPLOYMENTS) {
      assert.is(rendered(fleet, 'member1', name).spec.replicas, 1, name);
      const binding = parse(fleet.config.show('flotilla/rendered', `bindings/default/${name}-deployment.yaml`)) as {
        spec: { replicas: number; clusters: unknown };
      };
      assert.is(binding.spec.replicas, 1, name);
      assert.equal(binding.spec.clusters, [{ name: 'member1', replicas: 1 }], name);
    }
  } finally {
    await fleet.cleanup();
  }
});

test.run();
