import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { assertVerifies } from './helpers/assertVerifies.ts';
import { loadChange } from './helpers/loadChange.ts';
import { clusterYaml, makeConfigRepo, sample, type ConfigRepo } from '../helpers/fleet.ts';

// A WorkloadRebalancer reschedules the workloads it lists, each in its own namespace: its commit reads the index
// entries and policies of those namespaces, not the whole fleet's, and renders what a cold render would.
const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const policy = (namespace: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: web
  namespace: ${namespace}
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: web}
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
          - {targetCluster: {clusterNames: [member1]}, weight: 1}
          - {targetCluster: {clusterNames: [member2]}, weight: 1}
`;

// Karmada finds an entry's workload by its binding's name: the kind in any case, the apiVersion not read.
const REBALANCER = `apiVersion: apps.karmada.io/v1alpha1
kind: WorkloadRebalancer
metadata:
  name: again
spec:
  workloads:
    - {apiVersion: apps/v1beta1, kind: deployment, namespace: shop, name: web}
`;

test("a rebalancer's commit reads its workloads' namespaces only, and reschedules the workload however its entry cases the kind", async () => {
  const r = makeConfigRepo();
  repos.push(r);
  const files: Record<string, string> = {
    'clusters/member1.yaml': clusterYaml('member1'),
    'clusters/member2.yaml': clusterYaml('member2'),
  };
  for (const ns of ['shop', 'billing', 'search']) {
    files[`policies/${ns}.yaml`] = policy(ns);
    files[`templates/${ns}/web.yaml`] = sample('nginx/deployment.yaml').replace(
      /name: nginx\n/,
      `name: web\n  namespace: ${ns}\n`,
    );
  }
  const first = r.commit(files, 'three namespaces, a Deployment each');
  await syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });
  const second = r.commit({ 'rebalancers/again.yaml': REBALANCER }, 'reschedule shop/web');

  const loaded = await loadChange(r, first, second);
  assert.equal(
    loaded.model.propagationPolicies.map((p) => p.object.metadata.namespace),
    ['shop'],
    'billing and search are not read',
  );
  assert.ok(loaded.affected.has('apps/v1/Deployment/shop/web'));
  assert.ok(
    [...loaded.affected].every((key) => key.includes('/shop/')),
    'nothing of another namespace',
  );

  const [report] = (await syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT })).reports;
  assert.equal([...(report?.explanations.keys() ?? [])], ['apps/v1/Deployment/shop/web']);
  const binding = r.show('flotilla/rendered', 'bindings/shop/web-deployment.yaml');
  assert.match(binding, /flotilla\.io\/observed-rebalancers: again/);
  await assertVerifies(r);
});

const CLUSTER_ROLE = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: reader
rules:
  - {apiGroups: [""], resources: [pods], verbs: [get]}
`;
const CLUSTER_POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata:
  name: reader
spec:
  resourceSelectors:
    - {apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: reader}
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
`;

test('a rebalancer naming a cluster-scoped object, its kind cased otherwise, reschedules it', async () => {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit(
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'policies/reader.yaml': CLUSTER_POLICY,
      'templates/reader.yaml': CLUSTER_ROLE,
      'policies/shop.yaml': policy('shop'),
      'templates/shop/web.yaml': sample('nginx/deployment.yaml').replace(
        /name: nginx\n/,
        'name: web\n  namespace: shop\n',
      ),
    },
    'a ClusterRole and a Deployment',
  );
  await syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });
  r.commit(
    {
      'rebalancers/again.yaml': `apiVersion: apps.karmada.io/v1alpha1
kind: WorkloadRebalancer
metadata:
  name: again
spec:
  workloads:
    - {apiVersion: rbac.authorization.k8s.io/v1beta1, kind: clusterrole, name: reader}
`,
    },
    'reschedule the ClusterRole',
  );
  const [report] = (await syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT })).reports;
  assert.equal([...(report?.explanations.keys() ?? [])], ['rbac.authorization.k8s.io/v1/ClusterRole//reader']);
  await assertVerifies(r);
});

test('a rebalancer listing workloads of more namespaces than a scoped read looks for walks the fleet instead, with the same output', async () => {
  const r = makeConfigRepo();
  repos.push(r);
  const files: Record<string, string> = {
    'clusters/member1.yaml': clusterYaml('member1'),
    'clusters/member2.yaml': clusterYaml('member2'),
  };
  for (const ns of ['shop', 'billing']) {
    files[`policies/${ns}.yaml`] = policy(ns);
    files[`templates/${ns}/web.yaml`] = sample('nginx/deployment.yaml').replace(
      /name: nginx\n/,
      `name: web\n  namespace: ${ns}\n`,
    );
  }
  const first = r.commit(files, 'two namespaces');
  await syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });
  const entries = Array.from(
    { length: 100 },
    (_, i) => `    - {apiVersion: apps/v1, kind: Deployment, namespace: team-${i}, name: web}`,
  );
  const second = r.commit(
    {
      'rebalancers/many.yaml': `apiVersion: apps.karmada.io/v1alpha1\nkind: WorkloadRebalancer\nmetadata:\n  name: many\nspec:\n  workloads:\n    - {apiVersion: apps/v1, kind: Deployment, namespace: shop, name: web}\n${entries.join('\n')}\n`,
    },
    'reschedule shop/web and a hundred namespaces',
  );
  const loaded = await loadChange(r, first, second);
  assert.equal(loaded.model.propagationPolicies.map((p) => p.object.metadata.namespace).sort(), ['billing', 'shop']);
  await syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });
  await assertVerifies(r);
});

test.run();
