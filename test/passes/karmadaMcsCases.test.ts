// Karmada's test/e2e/suites/base/mcs_test.go, Describe "Multi-Cluster Service testing", ported It by It onto three
// local members set up as `flotilla up` sets them up: the reconciler on a bare config repo (member1 and member2
// Push), member3 Pull with its agent run after each pass, real kubectl 1.32. As in Karmada, the two CRDs go to every
// member and the Deployment and Service are created on member1 directly (not from Git); the ServiceExport,
// ServiceImport and their policies are pushed.
//
//   BeforeEach (CRDs on every cluster; Deployment + Service on member1 with 1 endpoint)  -> setUp()
//   It "Export Service from source-clusters, import Service to destination-clusters"    -> test 'connectivity: …'
//   It "Update Deployment's replicas"                                                     -> test 'exporter scaling: …'
//   AfterEach "Cleanup" (delete the ServiceExport and ServiceImport and their policies)  -> cleanUp(), asserted
//
// Not ported as such: the SyncDerivedServiceSucceed event (Flotilla records no Kubernetes events; the derived
// Service being there is the outcome it reports), and the TCP/UDP `nc` requests to the derived ClusterIP (the
// emulated members carry no traffic): what a proxy on member2 routes by is checked instead, the derived Service's
// ClusterIP with both ports and the imported slices' endpoints with both ports.
// The CrossCluster MultiClusterService Describe of the same file: test/deliveries/crossClusterServices.test.ts.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { connectKubeconfig } from '../../src/deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../../src/deliveries/KubeTarget.ts';
import { startReconciler, type Reconciler } from '../../src/passes/startReconciler.ts';
import { startAgent, type RunningAgent } from '../../src/pullAgent.ts';
import { kubectl, waitFor } from '../deliveries/helpers/e2e.ts';
import { crd } from '../deliveries/helpers/mcsFixtures.ts';
import { clusterRegistration, makeFleet, reconcilerOptions, type Fleet } from '../helpers/fleet.ts';
import { LogEvents } from '../helpers/logEvents.ts';

const NS = 'karmadatest-mcs';
const CLUSTERS = ['member1', 'member2', 'member3'];
let fleet: Fleet;
let reconciler: Reconciler | undefined;
let agent: RunningAgent | undefined;
let targets: Map<string, KubeTarget> | undefined;

test.before(async () => {
  fleet = await makeFleet({ members: CLUSTERS });
  targets = await connectKubeconfig(path.join(fleet.credentials, 'members.config'));
  const events = new LogEvents();
  agent = await startAgent({
    cluster: 'member3',
    kube: targets.get('member3')!,
    source: { kind: 'local', repo: await openRepo(fleet.bare) },
    intervalMs: 1_000,
    log: () => {},
  });
  reconciler = await startReconciler(
    reconcilerOptions(fleet, events.log, {
      statusUpdateFrequencyMs: 300,
      catchUp: { intervalMs: 200, forMs: 10_000 },
      afterPass: async () => {
        await agent!.pass().catch(() => undefined);
      },
    }),
  );
  // Karmada's BeforeEach: a ClusterPropagationPolicy per CRD to every cluster, then WaitCRDPresentOnClusters; the
  // test namespace is created on the control plane and reaches every member.
  const crdPolicy = (plural: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: ${plural}-policy}
spec:
  resourceSelectors:
    - {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: ${plural}.multicluster.x-k8s.io}
  placement: {clusterAffinity: {clusterNames: [${CLUSTERS.join(', ')}]}}
`;
  fleet.push(
    {
      'clusters/member1.yaml': clusterRegistration('member1'),
      'clusters/member2.yaml': clusterRegistration('member2'),
      'clusters/member3.yaml': clusterRegistration('member3').replace('syncMode: Push', 'syncMode: Pull'),
      'templates/namespace.yaml': `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${NS}}\n`,
      'templates/crds.yaml': `${crd('ServiceExport', 'serviceexports')}---\n${crd('ServiceImport', 'serviceimports')}`,
      'policies/crds.yaml': `${crdPolicy('serviceexports')}---\n${crdPolicy('serviceimports')}`,
    },
    'MCS CRDs to every member',
  );
  for (const cluster of CLUSTERS)
    for (const plural of ['serviceexports', 'serviceimports'])
      await waitFor(
        `CRD ${plural} on ${cluster}`,
        async () => (await k(cluster, 'get', 'crd', `${plural}.multicluster.x-k8s.io`, '-o', 'name')).code === 0,
        30_000,
        100,
      );
});
test.after(async () => {
  await reconciler?.stop();
  await agent?.stop();
  await Promise.all([...(targets?.values() ?? [])].map((t) => t.close()));
  await fleet?.cleanup();
});

const k = (cluster: string, ...args: string[]) =>
  kubectl(path.join(fleet.credentials, 'members.config'), path.join(fleet.root, 'kubectl-cache'), [
    '--context',
    cluster,
    ...args,
  ]);
const ok = async (cluster: string, ...args: string[]) => {
  const r = await k(cluster, ...args);
  assert.is(r.code, 0, r.stderr);
  return r.stdout;
};

interface Slice {
  metadata: { name: string; labels?: Record<string, string> };
  endpoints?: { addresses: string[] }[] | null;
  ports?: { name?: string; port: number; protocol: string }[] | null;
}
const slices = async (cluster: string, service: string) =>
  (
    JSON.parse(
      await ok(cluster, 'get', 'endpointslices', '-n', NS, '-l', `kubernetes.io/service-name=${service}`, '-o', 'json'),
    ) as { items: Slice[] }
  ).items;
const endpointCount = (list: Slice[]) => list.reduce((n, s) => n + (s.endpoints ?? []).length, 0);
const ports = (list: { name?: string; port: number; protocol?: string }[] | null | undefined) =>
  (list ?? []).map((p) => `${p.name}/${p.port}/${p.protocol}`).sort();

/** Karmada's helloDeployment and helloService: 1 replica of two nc containers, ports tcp 42 and udp 42. */
const hello = (name: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${NS}}
spec:
  replicas: 1
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers:
        - {name: hello-tcp, image: busybox, args: [nc, -lk, -p, "42", -v, -e, echo, hello]}
        - {name: hello-udp, image: busybox, args: [nc, -lk, -p, "42", -u, -v, -e, echo, hello]}
---
apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: ${NS}}
spec:
  selector: {app: ${name}}
  ports:
    - {name: tcp, port: 42, protocol: TCP}
    - {name: udp, port: 42, protocol: UDP}
`;
const exportFiles = (name: string) => ({
  [`templates/${name}-export.yaml`]: `apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceExport
metadata: {name: ${name}, namespace: ${NS}}
`,
  [`policies/${name}-export.yaml`]: `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: export-${name}-policy, namespace: ${NS}}
spec:
  resourceSelectors: [{apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceExport, name: ${name}, namespace: ${NS}}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`,
});
const importFiles = (name: string) => ({
  [`templates/${name}-import.yaml`]: `apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata: {name: ${name}, namespace: ${NS}}
spec:
  type: ClusterSetIP
  ports:
    - {name: tcp, port: 42, protocol: TCP}
    - {name: udp, port: 42, protocol: UDP}
`,
  [`policies/${name}-import.yaml`]: `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: import-${name}-policy, namespace: ${NS}}
spec:
  resourceSelectors: [{apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport, name: ${name}, namespace: ${NS}}]
  placement: {clusterAffinity: {clusterNames: [member2]}}
`,
});
const removed = (files: Record<string, string>) => Object.fromEntries(Object.keys(files).map((f) => [f, null]));

/**
 * The Services member1's status file records, with their endpoint count. Read without blocking: the waits poll it
 * beside the reconciler and the members, which share this event loop.
 */
const collected = async (): Promise<Map<string, number>> => {
  const text = await fleet
    .gitAsync(fleet.bare, 'show', 'flotilla/status:endpoints/member1.yaml')
    .catch(() => undefined);
  if (text === undefined) return new Map(); // nothing exported (any more)
  const file = parse(text) as { services?: { namespace: string; name: string; endpointSlices?: Slice[] }[] };
  return new Map((file.services ?? []).map((s) => [`${s.namespace}/${s.name}`, endpointCount(s.endpointSlices ?? [])]));
};

/** Karmada's per-It BeforeEach: the Deployment and Service created on member1, until its slice has 1 endpoint. */
async function setUp(name: string) {
  const applied = await kubectl(
    path.join(fleet.credentials, 'members.config'),
    path.join(fleet.root, 'kubectl-cache'),
    ['--context', 'member1', 'create', '-f', '-'],
    hello(name),
  );
  assert.is(applied.code, 0, applied.stderr);
  await waitFor(
    `${name}'s EndpointSlice on member1 with 1 endpoint`,
    async () => endpointCount(await slices('member1', name)) === 1,
    30_000,
    100,
  );
}

/** Karmada's AfterEach: the ServiceExport and ServiceImport deleted (and their policies); nothing stays behind. */
async function cleanUp(name: string) {
  fleet.push(
    { ...removed(exportFiles(name)), ...removed(importFiles(name)) },
    `${name}: no longer exported or imported`,
  );
  await waitFor(
    `member2 without derived-${name} and its slices, member1's status without ${name}`,
    async () =>
      (await k('member2', 'get', 'service', `derived-${name}`, '-n', NS)).code !== 0 &&
      (await slices('member2', `derived-${name}`)).length === 0 &&
      !(await collected()).has(`${NS}/${name}`),
    30_000,
    100,
  );
  // Karmada's DeferCleanup: the Deployment and Service it created on member1.
  await ok('member1', 'delete', 'deployment,service', name, '-n', NS);
}

/** Both Its: export, wait for the collected endpoints, import, wait for derived-<name> and its imported slices. */
async function exportAndImport(name: string) {
  fleet.push(exportFiles(name), `${name}: exported from member1`);
  // "Wait EndpointSlices collected to namespace in controller-plane": here, member1's status file.
  await waitFor(
    `${name}'s 1 endpoint collected on the status branch`,
    async () => (await collected()).get(`${NS}/${name}`) === 1,
    30_000,
    100,
  );
  fleet.push(importFiles(name), `${name}: imported on member2`);
  await waitFor(
    `derived-${name} on member2`,
    async () => (await k('member2', 'get', 'service', `derived-${name}`, '-n', NS)).code === 0,
    30_000,
    100,
  );
  await waitFor(
    `1 endpoint imported to member2`,
    async () => endpointCount(await slices('member2', `derived-${name}`)) === 1,
    30_000,
    100,
  );
}

test("connectivity: a Service exported from member1 and imported on member2 gets derived-<name> with a ClusterIP and both ports, and member1's endpoint in imported slices; member3 gets neither; cleanup removes them", async () => {
  const name = 'hello-connect';
  await setUp(name);
  await exportAndImport(name);
  const derived = JSON.parse(await ok('member2', 'get', 'service', `derived-${name}`, '-n', NS, '-o', 'json')) as {
    spec: { type: string; clusterIP: string; ports: { name: string; port: number; protocol: string }[] };
  };
  assert.is(derived.spec.type, 'ClusterIP');
  assert.match(derived.spec.clusterIP, /^\d+\.\d+\.\d+\.\d+$/);
  assert.equal(ports(derived.spec.ports), ['tcp/42/TCP', 'udp/42/UDP']);
  const podIp = (
    await ok('member1', 'get', 'pods', '-n', NS, '-l', `app=${name}`, '-o', 'jsonpath={.items[*].status.podIP}')
  ).trim();
  const imported = await slices('member2', `derived-${name}`);
  for (const s of imported) {
    assert.match(s.metadata.name, new RegExp(`^imported-member1-${name}-`));
    assert.equal(ports(s.ports), ['tcp/42/TCP', 'udp/42/UDP']);
  }
  assert.equal(
    imported.flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses)),
    [podIp],
  );
  assert.is((await k('member3', 'get', 'service', `derived-${name}`, '-n', NS)).code, 1, 'member3 imports nothing');
  assert.equal(await slices('member3', `derived-${name}`), []);
  await cleanUp(name);
});

test("exporter scaling: the Deployment scaled on member1 to 2 and back to 1, member2's imported slices follow with 2 then 1 endpoint; cleanup removes them", async () => {
  const name = 'hello-scale';
  await setUp(name);
  await exportAndImport(name);
  await ok('member1', 'scale', 'deployment', name, '-n', NS, '--replicas=2');
  await waitFor(
    '2 endpoints imported to member2',
    async () => endpointCount(await slices('member2', `derived-${name}`)) === 2,
    30_000,
    100,
  );
  await ok('member1', 'scale', 'deployment', name, '-n', NS, '--replicas=1');
  await waitFor(
    '1 endpoint imported to member2 again',
    async () => endpointCount(await slices('member2', `derived-${name}`)) === 1,
    30_000,
    100,
  );
  await cleanUp(name);
});

test.run();
