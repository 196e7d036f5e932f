import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { validateCommand } from '../../src/commands/validateCommand.ts';
import { lookTwiceProblems, lookTwiceReasons } from '../../src/plans/lookTwice.ts';
import { templateOf } from '../helpers/inMemoryModel.ts';
import { readPlan } from '../../src/plans/readPlan.ts';
import { renderPlanMarkdown } from '../../src/plans/renderPlanMarkdown.ts';
import { renderPlanText } from '../../src/plans/renderPlanText.ts';
import { clusterYaml, configMapPolicy, makeConfigRepoWith, type ConfigRepo } from '../helpers/fleet.ts';
import { commonOptions } from './helpers/runCommand.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const rbac = 'rbac.authorization.k8s.io/v1';

test('cluster-wide RBAC, cluster-admin bindings, kube-* and reserved objects, overwrite and Secrets are flagged; an ordinary object is not', () => {
  const ref = (apiVersion: string, kind: string, namespace: string, name: string) => ({
    apiVersion,
    kind,
    namespace,
    name,
  });
  assert.equal(lookTwiceReasons(ref(rbac, 'ClusterRole', '', 'reader'), {}), ['cluster-wide RBAC (ClusterRole)']);
  assert.equal(
    lookTwiceReasons(ref(rbac, 'ClusterRoleBinding', '', 'root'), {
      roleRef: { kind: 'ClusterRole', name: 'cluster-admin' },
    }),
    ['cluster-wide RBAC (ClusterRoleBinding)', 'binds the cluster-admin ClusterRole'],
  );
  assert.equal(
    lookTwiceReasons(ref(rbac, 'RoleBinding', 'shop', 'root'), {
      roleRef: { kind: 'ClusterRole', name: 'cluster-admin' },
    }),
    ['binds the cluster-admin ClusterRole'],
  );
  assert.equal(
    lookTwiceReasons(ref(rbac, 'RoleBinding', 'shop', 'view'), { roleRef: { kind: 'ClusterRole', name: 'view' } }),
    [],
  );
  assert.match(
    lookTwiceReasons(ref('v1', 'ConfigMap', 'kube-system', 'coredns'), {})[0]!,
    "in the member's system namespace kube-system: Karmada never propagates it",
  );
  assert.match(lookTwiceReasons(ref('v1', 'ConfigMap', 'karmada-es-member1', 'x'), {})[0]!, 'karmada-es-member1');
  assert.match(lookTwiceReasons(ref('v1', 'Namespace', '', 'kube-public'), {})[0]!, 'kube-public');
  assert.equal(
    lookTwiceReasons(ref('v1', 'ConfigMap', 'shop', 'x'), {
      metadata: { annotations: { 'work.karmada.io/conflict-resolution': 'overwrite' } },
    }),
    ['work.karmada.io/conflict-resolution: overwrite (takes over an object of the same name already on the member)'],
  );
  assert.equal(lookTwiceReasons(ref('v1', 'Secret', 'shop', 'db'), {}), ['a Secret']);
  assert.equal(
    lookTwiceReasons(ref('v1', 'ConfigMap', 'shop', 'x'), {
      metadata: { annotations: { 'work.karmada.io/conflict-resolution': 'abort' } },
    }),
    [],
  );
});

const policy = (conflict = '') => `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata:
  name: all
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
    - apiVersion: v1
      kind: Secret
    - apiVersion: ${rbac}
      kind: ClusterRoleBinding
  placement:
    clusterAffinity:
      clusterNames: [member1]
${conflict}`;
const admin = `apiVersion: ${rbac}\nkind: ClusterRoleBinding\nmetadata:\n  name: everyone-admin\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: cluster-admin\nsubjects:\n  - kind: Group\n    name: system:authenticated\n    apiGroup: rbac.authorization.k8s.io\n`;
const cm = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n  namespace: default\ndata:\n  k: v\n`;

test('validate warns at each such template and at a policy that overwrites, and still exits 0', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'policies/all.yaml': policy('  conflictResolution: Overwrite\n'),
      'templates/admin.yaml': admin,
      'templates/app.yaml': cm,
      'templates/secret.yaml':
        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: default\nstringData:\n  password: x\n',
      'templates/kube.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: coredns\n  namespace: kube-system\n',
    },
    'things to look at twice',
  );
  const opts = commonOptions(r.dir);
  assert.is(await validateCommand(opts), 0);
  const warnings = opts
    .stdout()
    .split('\n')
    .filter((l) => l.includes('LOOK_TWICE'))
    .map((l) => l.split('  ')[0]);
  assert.equal(warnings, [
    'policies/all.yaml:1:1',
    'templates/admin.yaml:1:1',
    'templates/kube.yaml:1:1',
    'templates/secret.yaml:1:1',
  ]);
});

test('plan lists what the change adds or changes to look at twice, in text and Markdown', async () => {
  const r = makeConfigRepoWith(
    repos,
    { 'clusters/member1.yaml': clusterYaml('member1'), 'policies/all.yaml': policy(), 'templates/app.yaml': cm },
    'base',
  );
  const base = r.git('rev-parse', 'HEAD');
  r.commit(
    {
      'templates/admin.yaml': admin,
      'templates/app.yaml': cm.replace(
        'name: app',
        'name: app\n  annotations:\n    work.karmada.io/conflict-resolution: overwrite',
      ),
    },
    'grant admin, take over app',
  );
  const plan = await readPlan(await openRepo(r.dir), { base, head: r.git('rev-parse', 'HEAD') });
  assert.equal(
    plan.lookTwice.map((n) => [n.ref, n.clusters, n.reasons.length]),
    [
      [`${rbac}/ClusterRoleBinding//everyone-admin`, ['member1'], 2],
      ['v1/ConfigMap/default/app', ['member1'], 1],
    ],
  );
  const text = renderPlanText(plan, { diffs: false });
  assert.match(
    text,
    'Look twice:\n  ClusterRoleBinding everyone-admin on member1: cluster-wide RBAC (ClusterRoleBinding); binds the cluster-admin ClusterRole',
  );
  assert.match(renderPlanMarkdown(plan), '**Look twice**');
});

test("validate reads every variant of a scoped units' object: one that overwrites is flagged at its own unit", () => {
  const plain = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'default' } };
  const overwriting = {
    ...plain,
    metadata: { ...plain.metadata, annotations: { 'work.karmada.io/conflict-resolution': 'overwrite' } },
  };
  const template = {
    ...templateOf(plain, 'apps/production/kustomization.yaml'),
    variants: [
      {
        unit: 'apps/production/kustomization.yaml',
        scope: { clusterNames: ['production'] },
        labels: {},
        manifest: plain,
        source: { file: 'apps/production/kustomization.yaml', line: 1, column: 1 },
      },
      {
        unit: 'apps/staging/kustomization.yaml',
        scope: { clusterNames: ['staging'] },
        labels: {},
        manifest: overwriting,
        source: { file: 'apps/staging/kustomization.yaml', line: 1, column: 1 },
      },
    ],
  };
  const problems = lookTwiceProblems({
    templates: new Map([['v1/ConfigMap/default/cfg', template]]),
    propagationPolicies: [],
  });
  assert.equal(
    problems.map((p) => [p.file, p.code]),
    [['apps/staging/kustomization.yaml', 'LOOK_TWICE']],
  );
  // With the file the tool named (kustomize's origin, Helm's `# Source:`), the warning is there, where the reviewer looks.
  const named = {
    ...template,
    variants: template.variants.map((v) => ({ ...v, origin: { file: 'apps/base/cfg.yaml', line: 3, column: 1 } })),
  };
  assert.equal(
    lookTwiceProblems({ templates: new Map([['v1/ConfigMap/default/cfg', named]]), propagationPolicies: [] }).map(
      (p) => [p.file, p.line],
    ),
    [['apps/base/cfg.yaml', 3]],
  );
});

test("an object in kube-system is flagged with how to get it to the members, not only with the reviewer's check", () => {
  const role = {
    ref: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      namespace: 'kube-system',
      name: 'cert-manager:leaderelection',
    },
    labels: {},
    manifest: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', rules: [] },
    source: { file: 'units/cert-manager/Chart.yaml', line: 1, column: 1 },
  };
  const [problem] = lookTwiceProblems({
    templates: new Map([['rbac.authorization.k8s.io/v1/Role/kube-system/cert-manager:leaderelection', role]]),
    propagationPolicies: [],
  });
  assert.match(problem!.message, 'Karmada never propagates it');
  assert.match(problem!.fix, 'move it out of kube-system');
});

test('plan flags deleting an object annotated helm.sh/resource-policy: keep, which Helm would leave and Argo CD and Flotilla delete, with the way to leave it', async () => {
  const kept = (name: string, annotated: boolean) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${annotated ? '  annotations:\n    helm.sh/resource-policy: keep\n' : ''}`;
  const r = makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'policies/configmaps.yaml': configMapPolicy(['member1', 'member2']),
      'apps/state.yaml': kept('state', true),
      'apps/plain.yaml': kept('plain', false),
    },
    'kept',
  );
  const base = r.git('rev-parse', 'HEAD');
  const head = r.commit({ 'apps/state.yaml': null, 'apps/plain.yaml': null }, 'both go');
  const plan = await readPlan(await openRepo(r.dir), { base, head });
  assert.equal(
    plan.lookTwice.map((n) => [n.ref, n.clusters, n.reasons.map((x) => x.split(' (')[0])]),
    [
      [
        'v1/ConfigMap/default/state',
        ['member1', 'member2'],
        ['deleted though annotated helm.sh/resource-policy: keep'],
      ],
    ],
  );
  assert.match(plan.lookTwice[0]!.reasons[0]!, /preserveResourcesOnDeletion: true/);
  assert.match(renderPlanText(plan), /Look twice:\n {2}ConfigMap default\/state on member1, member2: deleted though/);
});

test.run();
