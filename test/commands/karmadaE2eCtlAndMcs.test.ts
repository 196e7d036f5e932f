// Karmada's end-to-end scenarios of test/e2e/suites/base/mcs_test.go (ServiceExport/ServiceImport and CrossCluster
// MultiClusterService) and of test/e2e/suites/base/karmadactl_test.go (the verbs Flotilla has: taint, join, unjoin,
// describe), reduced to what a render of a small config repo and the in-process cluster commands show: which
// clusters get which object, where a MultiClusterService's Service goes, what each cluster verb commits and says.
// The live parts (pod connectivity, EndpointSlice copies on members) are covered with real kubectl by
// test/deliveries/multiClusterServices.test.ts, test/deliveries/crossClusterServices.test.ts and
// test/passes/karmadaMcsCases.test.ts; here is the Git side of each scenario.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { clusterCommand } from '../../src/commands/clusterCommand.ts';
import type { ClusterOperation } from '../../src/commands/clusterOperations.ts';
import { describeCommand } from '../../src/commands/describeCommand.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { clusterYaml, makeConfigRepo, type ConfigRepo } from '../helpers/fleet.ts';
import { commitAll, makeNginxRepo, writeWorkTree, type TempRepo } from '../plans/helpers/nginxRepo.ts';
import { runReadCommand } from '../views/helpers/fleetRepo.ts';

const cleanups: (() => void)[] = [];
test.after.each(() => {
  while (cleanups.length) cleanups.pop()!();
});

const MEMBERS = ['member1', 'member2', 'member3'];

function configRepo(): ConfigRepo {
  const r = makeConfigRepo();
  cleanups.push(() => r.cleanup());
  return r;
}

async function render(r: ConfigRepo): Promise<Map<string, string>> {
  const { output } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  return output.edits as Map<string, string>;
}

/** The members whose folder holds a file ending with `file`, sorted. */
function clustersWith(edits: ReadonlyMap<string, string>, file: string): string[] {
  const found = new Set<string>();
  for (const [p, text] of edits) {
    if (text === null || text === undefined) continue;
    const m = /^clusters\/([^/]+)\/(.+)$/.exec(p);
    if (m && m[2]!.endsWith(file)) found.add(m[1]!);
  }
  return [...found].sort();
}

const members = (names = MEMBERS) => Object.fromEntries(names.map((n) => [`clusters/${n}.yaml`, clusterYaml(n)]));

// ---------------------------------------------------------------------------------------------------------------
// mcs_test.go, Describe "Multi-Cluster Service testing"
// ---------------------------------------------------------------------------------------------------------------

const crd = (plural: string, kind: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.multicluster.x-k8s.io
spec:
  group: multicluster.x-k8s.io
  scope: Namespaced
  names: {plural: ${plural}, singular: ${kind.toLowerCase()}, kind: ${kind}, listKind: ${kind}List}
  versions:
    - name: v1alpha1
      served: true
      storage: true
      schema:
        openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;

const crdPolicy = (name: string, crdName: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata:
  name: ${name}
spec:
  resourceSelectors:
    - {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: ${crdName}}
  placement:
    clusterAffinity:
      clusterNames: [member1, member2, member3]
`;

const mcsPolicy = (
  name: string,
  kind: string,
  target: string,
  cluster: string,
) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: ${name}
  namespace: default
spec:
  resourceSelectors:
    - {apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ${kind}, name: ${target}, namespace: default}
  placement:
    clusterAffinity:
      clusterNames: [${cluster}]
`;

const SERVICE_EXPORT = `apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceExport
metadata:
  name: hello
  namespace: default
`;
const SERVICE_IMPORT = `apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata:
  name: hello
  namespace: default
spec:
  type: ClusterSetIP
  ports:
    - {name: tcp, port: 42, protocol: TCP}
    - {name: udp, port: 42, protocol: UDP}
`;

// mcs_test.go "Connectivity testing" / "EndpointSlices change testing", their BeforeEach and policies: the two CRDs go
// to every member through ClusterPropagationPolicies naming all clusters, the ServiceExport only to the exporting
// cluster (framework.ClusterNames()[0]) and the ServiceImport only to the importing one ([1]).
test('the ServiceExport and ServiceImport CRDs reach every member; the export goes to the exporter only, the import to the importer only', async () => {
  const r = configRepo();
  r.commit({
    ...members(),
    'templates/crds.yaml': `${crd('serviceexports', 'ServiceExport')}---\n${crd('serviceimports', 'ServiceImport')}`,
    'policies/crds.yaml': `${crdPolicy('serviceexports-policy', 'serviceexports.multicluster.x-k8s.io')}---\n${crdPolicy('serviceimports-policy', 'serviceimports.multicluster.x-k8s.io')}`,
    'templates/hello.yaml': `${SERVICE_EXPORT}---\n${SERVICE_IMPORT}`,
    'policies/hello.yaml': `${mcsPolicy('export-hello-policy', 'ServiceExport', 'hello', 'member1')}---\n${mcsPolicy('import-hello-policy', 'ServiceImport', 'hello', 'member2')}`,
  });
  const edits = await render(r);
  assert.equal(clustersWith(edits, 'serviceexports.multicluster.x-k8s.io.yaml'), MEMBERS);
  assert.equal(clustersWith(edits, 'serviceimports.multicluster.x-k8s.io.yaml'), MEMBERS);
  assert.equal(clustersWith(edits, 'serviceexport.multicluster.x-k8s.io_hello.yaml'), ['member1']);
  assert.equal(clustersWith(edits, 'serviceimport.multicluster.x-k8s.io_hello.yaml'), ['member2']);
  const imported = parse(edits.get('clusters/member2/default/serviceimport.multicluster.x-k8s.io_hello.yaml')!) as {
    spec: { type: string; ports: { name: string; port: number; protocol: string }[] };
  };
  assert.is(imported.spec.type, 'ClusterSetIP');
  assert.equal(
    imported.spec.ports.map((p) => `${p.name}/${p.port}/${p.protocol}`),
    ['tcp/42/TCP', 'udp/42/UDP'],
  );
});

// ---------------------------------------------------------------------------------------------------------------
// mcs_test.go, Describe "CrossCluster MultiClusterService testing": a Deployment propagated Duplicated to the
// policy's clusters, its Service (not selected by any policy) claimed by a CrossCluster MultiClusterService.
// mcs_controller.go#buildResourceBinding places the Service on providers ∪ consumers (helper.GetProviderClusters /
// GetConsumerClusters: an empty list means every cluster), with ConflictResolution Overwrite.
// ---------------------------------------------------------------------------------------------------------------

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: mcs-app
  namespace: default
spec:
  replicas: 3
  selector: {matchLabels: {app: mcs-app}}
  template:
    metadata: {labels: {app: mcs-app}}
    spec:
      containers: [{name: nginx, image: nginx:1.27}]
`;
const SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: mcs-app
  namespace: default
spec:
  type: ClusterIP
  selector: {app: mcs-app}
  ports: [{port: 80, targetPort: 8080}]
`;
const duplicatedPolicy = (clusters: string[]) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: mcs-app
  namespace: default
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: mcs-app}
  placement:
    clusterAffinity:
      clusterNames: [${clusters.join(', ')}]
    replicaScheduling:
      replicaSchedulingType: Duplicated
`;
const crossCluster = (providers: string[], consumers: string[]) => `apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterService
metadata:
  name: mcs-app
  namespace: default
spec:
  types: [CrossCluster]
  providerClusters: [${providers.map((p) => `{name: ${p}}`).join(', ')}]
  consumerClusters: [${consumers.map((c) => `{name: ${c}}`).join(', ')}]
`;

async function crossClusterCase(policyClusters: string[], providers: string[], consumers: string[]) {
  const r = configRepo();
  r.commit({
    ...members(),
    'templates/app.yaml': `${DEPLOYMENT}---\n${SERVICE}`,
    'policies/app.yaml': duplicatedPolicy(policyClusters),
    'templates/mcs.yaml': crossCluster(providers, consumers),
  });
  const edits = await render(r);
  return { r, edits };
}

function deploymentPlacement(edits: ReadonlyMap<string, string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of clustersWith(edits, 'deployment.apps_mcs-app.yaml'))
    out[c] = (
      parse(edits.get(`clusters/${c}/default/deployment.apps_mcs-app.yaml`)!) as { spec: { replicas: number } }
    ).spec.replicas;
  return out;
}

function serviceBinding(edits: ReadonlyMap<string, string>) {
  return parse(edits.get('bindings/default/mcs-app-service.yaml')!) as {
    metadata: { labels: Record<string, string>; annotations: Record<string, string> };
    spec: { placement: { clusterAffinity: { clusterNames: string[] } }; conflictResolution: string };
  };
}

// case 1: ProviderClusters [member1], ConsumerClusters [member2].
test('providers [member1], consumers [member2]: the Deployment runs on member1 only, its Service on member1 and member2', async () => {
  const { edits } = await crossClusterCase(['member1'], ['member1'], ['member2']);
  assert.equal(deploymentPlacement(edits), { member1: 3 });
  assert.equal(clustersWith(edits, 'service_mcs-app.yaml'), ['member1', 'member2']);
  const b = serviceBinding(edits);
  assert.is(b.metadata.labels['binding.karmada.io/managed-by'], 'MultiClusterService');
  assert.is(b.metadata.annotations['multiclusterservice.karmada.io/name'], 'mcs-app');
  assert.equal([...b.spec.placement.clusterAffinity.clusterNames].sort(), ['member1', 'member2']);
  assert.is(b.spec.conflictResolution, 'Overwrite');
});

// case 2: ProviderClusters [member1, member2], ConsumerClusters [member2].
test('providers [member1, member2], consumers [member2]: Deployment duplicated on both, Service on both, never on member3', async () => {
  const { edits } = await crossClusterCase(['member1', 'member2'], ['member1', 'member2'], ['member2']);
  assert.equal(deploymentPlacement(edits), { member1: 3, member2: 3 });
  assert.equal(clustersWith(edits, 'service_mcs-app.yaml'), ['member1', 'member2']);
});

// case 3: providers/consumers changed from [m1,m2]/[m2] to [m2]/[m1], then a provider "member-not-found" is added.
// The binding keeps the unknown name in its placement (buildResourceBinding copies GetProviderClusters as is, and
// the ClusterNotFound event is only a warning); the scheduler finds no such cluster, so nothing lands there.
test('providers and consumers updated: the Service follows the union, an unknown provider places nothing and keeps the known ones', async () => {
  const { r } = await crossClusterCase(['member1', 'member2'], ['member1', 'member2'], ['member2']);
  r.commit({ 'templates/mcs.yaml': crossCluster(['member2'], ['member1']) }, 'swap providers and consumers');
  let edits = await render(r);
  assert.equal(clustersWith(edits, 'service_mcs-app.yaml'), ['member1', 'member2']);
  assert.equal(deploymentPlacement(edits), { member1: 3, member2: 3 });

  r.commit({ 'templates/mcs.yaml': crossCluster(['member2', 'member-not-found'], ['member1']) }, 'unknown provider');
  edits = await render(r);
  assert.equal(clustersWith(edits, 'service_mcs-app.yaml'), ['member1', 'member2']);
  assert.not.ok([...edits.keys()].some((p) => p.startsWith('clusters/member-not-found/')));
  assert.equal([...serviceBinding(edits).spec.placement.clusterAffinity.clusterNames].sort(), [
    'member-not-found',
    'member1',
    'member2',
  ]);
});

// case 4: ProviderClusters empty (every cluster), ConsumerClusters [member2].
test('empty providers mean every cluster: the Service goes to all three members while the Deployment stays on member1', async () => {
  const { edits } = await crossClusterCase(['member1'], [], ['member2']);
  assert.equal(deploymentPlacement(edits), { member1: 3 });
  assert.equal(clustersWith(edits, 'service_mcs-app.yaml'), MEMBERS);
});

// case 5: ProviderClusters [member1], ConsumerClusters empty (every cluster).
test('empty consumers mean every cluster: the Service goes to all three members', async () => {
  const { edits } = await crossClusterCase(['member1'], ['member1'], []);
  assert.equal(deploymentPlacement(edits), { member1: 3 });
  assert.equal(clustersWith(edits, 'service_mcs-app.yaml'), MEMBERS);
});

// case 6: both empty.
test('empty providers and consumers: the Service goes to every member, placed by name on each', async () => {
  const { edits } = await crossClusterCase(['member1'], [], []);
  assert.equal(clustersWith(edits, 'service_mcs-app.yaml'), MEMBERS);
  assert.equal([...serviceBinding(edits).spec.placement.clusterAffinity.clusterNames].sort(), MEMBERS);
});

// ---------------------------------------------------------------------------------------------------------------
// karmadactl_test.go
// ---------------------------------------------------------------------------------------------------------------

function nginx(): TempRepo {
  const { repo } = makeNginxRepo();
  cleanups.push(() => repo.cleanup());
  return repo;
}

async function run(op: ClusterOperation, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await clusterCommand(op, args, {
    out: (s) => {
      out += s;
    },
    err: (s) => {
      err += s;
    },
    env: { GIT_AUTHOR_NAME: 'Olga Ops', GIT_AUTHOR_EMAIL: 'olga@example.com' },
    now: () => new Date('2026-05-06T07:08:09Z'),
  });
  return { code, out, err };
}

const taintsOf = (repo: TempRepo, name: string) =>
  (
    parse(repo.git(['show', `main:clusters/${name}.yaml`])) as {
      spec: { taints?: { key: string; value?: string; effect: string }[] };
    }
  ).spec.taints ?? [];

// karmadactl_test.go, "Karmadactl taint testing" / "should handle taint correctly", for NoSchedule then NoExecute:
// taint → "cluster/<name> tainted"; the same key and effect with another value without --overwrite is refused and
// changes nothing; with --overwrite → "cluster/<name> modified" and the new value; `key=value:Effect-` →
// "untainted"; an unknown flag is an error; a cluster that does not exist is an error.
test('taint adds, refuses a silent overwrite, overwrites with --overwrite, removes, for NoSchedule and NoExecute', async () => {
  const repo = nginx();
  for (const effect of ['NoSchedule', 'NoExecute']) {
    const production = `environment=production:${effect}`;
    const testing = `environment=test:${effect}`;
    const added = await run('taint', ['member1', production, '--repo', repo.path]);
    assert.is(added.code, 0, added.err);
    assert.match(added.out, /^cluster\/member1 tainted\n/);
    assert.ok(
      taintsOf(repo, 'member1').some((t) => t.key === 'environment' && t.value === 'production' && t.effect === effect),
    );

    const head = repo.git(['rev-parse', 'main']).trim();
    const refused = await run('taint', ['member1', testing, '--repo', repo.path]);
    assert.is(refused.code, 1);
    assert.match(refused.err, /cluster member1 already has taint environment=production/);
    assert.match(refused.err, /--overwrite/);
    assert.is(repo.git(['rev-parse', 'main']).trim(), head, 'nothing committed');

    const overwritten = await run('taint', ['member1', testing, '--overwrite', '--repo', repo.path]);
    assert.is(overwritten.code, 0, overwritten.err);
    assert.match(overwritten.out, /^cluster\/member1 modified\n/);
    const now = taintsOf(repo, 'member1').filter((t) => t.key === 'environment' && t.effect === effect);
    assert.equal(
      now.map((t) => t.value),
      ['test'],
    );

    const removed = await run('taint', ['member1', `${testing}-`, '--repo', repo.path]);
    assert.is(removed.code, 0, removed.err);
    assert.match(removed.out, /untainted/);
    assert.not.ok(taintsOf(repo, 'member1').some((t) => t.key === 'environment' && t.effect === effect));

    let unknownFlag: unknown;
    try {
      await run('taint', ['member1', production, '--invalidflag', '--repo', repo.path]);
    } catch (e) {
      unknownFlag = e;
    }
    assert.ok(unknownFlag instanceof Error && /--invalidflag/.test(unknownFlag.message), String(unknownFlag));

    const missing = await run('taint', ['non-existent-cluster', production, '--repo', repo.path]);
    assert.is(missing.code, 1);
    assert.match(missing.err, /non-existent-cluster/);
  }
  assert.equal(taintsOf(repo, 'member1'), [], 'the cluster ends as it began');
});

// karmadactl_test.go, "joining cluster and unjoining not ready cluster" / "Test unjoining not ready cluster": join a
// new cluster, propagate a Deployment to it by name, taint it not-ready (framework.NotReadyTaintTemplate:
// cluster.karmada.io/not-ready:NoExecute), then unjoin it: unjoin succeeds, and the next render drops it.
/** Join member4, then commit a Deployment whose policy names member4 only, and render: it lands on member4. */
async function joinAndPropagate() {
  const repo = nginx();
  const kubeconfig = path.join(path.dirname(repo.path), 'member4.config');
  fs.writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\ncurrent-context: kind-member4\nclusters:\n- name: member4\n  cluster: {server: 'https://127.0.0.1:7443'}\nusers:\n- name: u\n  user: {token: t}\ncontexts:\n- name: kind-member4\n  context: {cluster: member4, user: u}\n`,
  );
  const joined = await run('join', [
    'member4',
    '--repo',
    repo.path,
    '--kubeconfig',
    kubeconfig,
    '--context',
    'kind-member4',
    '--credentials-dir',
    path.dirname(repo.path),
  ]);
  assert.is(joined.code, 0, joined.err);
  assert.match(joined.out, /^cluster\/member4 joined\n/);

  writeWorkTree(repo, {
    'templates/e2e.yaml':
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: e2e-deploy\n  namespace: default\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: e2e}}\n  template:\n    metadata: {labels: {app: e2e}}\n    spec:\n      containers: [{name: nginx, image: nginx:1.27}]\n',
    'policies/e2e.yaml':
      'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: e2e-deploy\n  namespace: default\nspec:\n  resourceSelectors:\n    - {apiVersion: apps/v1, kind: Deployment, name: e2e-deploy}\n  placement:\n    clusterAffinity:\n      clusterNames: [member4]\n',
  });
  commitAll(repo, 'e2e deployment to member4');
  const git = await openRepo(repo.path);
  const sync = () => syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
  const ls = () => repo.git(['ls-tree', '-r', '--name-only', 'flotilla/rendered']).split('\n');
  await sync();
  assert.ok(ls().includes('clusters/member4/default/deployment.apps_e2e-deploy.yaml'));

  return { repo, sync, ls };
}

test('a joined cluster receives the Deployment named to it, and can be unjoined once tainted not-ready', async () => {
  const { repo, sync, ls } = await joinAndPropagate();
  const tainted = await run('taint', ['member4', 'cluster.karmada.io/not-ready:NoExecute', '--repo', repo.path]);
  assert.is(tainted.code, 0, tainted.err);
  const unjoined = await run('unjoin', ['member4', '--repo', repo.path, '--allow-prune', '--reason', 'not ready']);
  assert.is(unjoined.code, 0, unjoined.err);
  assert.match(unjoined.out, /^cluster\/member4 unjoined\n/);
  assert.not.ok(repo.git(['ls-tree', '--name-only', 'main', 'clusters/']).includes('member4'));
  await sync();
  // Karmada's cluster controller (removeCluster → removeExecutionSpace) deletes karmada-es-member4 and every Work in
  // it: an unjoined cluster holds nothing, even while a graceful eviction task still names it.
  assert.equal(
    ls().filter((p) => p.startsWith('clusters/member4/')),
    [],
    'nothing is rendered for a cluster that is no longer registered',
  );
});

// The same without the not-ready taint: unjoining a healthy member drops its output at the next render.
test('an unjoined healthy cluster has nothing rendered for it at the next render', async () => {
  const { repo, sync, ls } = await joinAndPropagate();
  const unjoined = await run('unjoin', ['member4', '--repo', repo.path, '--allow-prune', '--reason', 'gone']);
  assert.is(unjoined.code, 0, unjoined.err);
  await sync();
  assert.equal(
    ls().filter((p) => p.startsWith('clusters/member4/')),
    [],
  );
});

// karmadactl_test.go, "Karmadactl describe testing" / "should return error for invalid resource type": describing a
// resource type the server does not have is an error naming the type.
test('describe of an unknown resource type is refused, naming the type', async () => {
  const repo = nginx();
  await syncRepo(await openRepo(repo.path), {
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
  });
  let error: unknown;
  try {
    const r = await runReadCommand(describeCommand, repo.path, new Date(), ['invalidresource', 'invalidname']);
    error = r.code === 0 ? undefined : new Error(r.err);
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof Error && /resource type "invalidresource"/.test(error.message), String(error));
});

test.run();
