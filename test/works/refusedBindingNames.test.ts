// Karmada's detector names a claimed template's binding after it (names.GenerateBindingName), and its API server
// refuses a binding name that is no DNS-1123 subdomain of at most 253 characters: nothing is ever propagated.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderTemplates } from '../../src/works/renderTemplates.ts';
import {
  coldRenderInput,
  configMap,
  deployment,
  memberCluster,
  modelOf,
  propagationPolicy,
  templateOf,
} from '../helpers/inMemoryModel.ts';

const clusterRole = (name: string) =>
  templateOf(
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules: [] },
    `templates/${name.length}.yaml`,
    true,
  );
const selecting = propagationPolicy('all', {
  resourceSelectors: [
    { apiVersion: 'v1', kind: 'ConfigMap' },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' },
  ],
  placement: { clusterAffinity: { clusterNames: ['member1'] } },
});
const everything = {
  ...selecting,
  object: { ...selecting.object, kind: 'ClusterPropagationPolicy', metadata: { name: 'all' } },
} as typeof selecting;

test('a claimed template whose binding name Karmada cannot create is an error at the template, and nothing is written for it', async () => {
  const long = 'a'.repeat(253);
  const model = modelOf({
    templates: [configMap(long), clusterRole('foo_Bar@x'), clusterRole('System:Admin')],
    policies: [everything],
    clusters: [memberCluster('member1')],
  });
  const out = await renderTemplates(coldRenderInput(model));
  assert.equal(
    out.problems.map((p) => `${p.file} ${p.severity} ${p.code}`),
    ['templates/9.yaml error INVALID_NAME', `templates/${long}.yaml error INVALID_NAME`],
  );
  assert.match(out.problems[0]!.message, 'Karmada names its ClusterResourceBinding "foo_bar@x-clusterrole"');
  assert.match(out.problems[1]!.message, `Karmada names its ResourceBinding "${long}-configmap"`);
  assert.match(out.problems[1]!.fix, 'shorten metadata.name to at most 243 characters');
  assert.equal([...out.edits.keys()].sort(), [
    'bindings/_cluster/system.admin-clusterrole.yaml',
    'clusters/member1/_cluster/clusterrole.rbac.authorization.k8s.io_System:Admin.yaml',
  ]);
  assert.match(out.explanations.get(`v1/ConfigMap/default/${long}`)?.held ?? '', 'its last output is kept');
});

test('a propagateDeps dependency whose attached binding would be refused is held; its parent still goes', async () => {
  const long = 'b'.repeat(245);
  const web = deployment('web', 1, {
    template: { spec: { containers: [{ name: 'app', image: 'nginx', envFrom: [{ configMapRef: { name: long } }] }] } },
  });
  const model = modelOf({
    templates: [web, configMap(long)],
    policies: [
      propagationPolicy('web', {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
        propagateDeps: true,
        placement: { clusterAffinity: { clusterNames: ['member1'] } },
      }),
    ],
    clusters: [memberCluster('member1')],
  });
  const out = await renderTemplates(coldRenderInput(model));
  assert.equal(
    out.problems.map((p) => `${p.file} ${p.code}`),
    [`templates/${long}.yaml INVALID_NAME`],
  );
  assert.equal([...out.edits.keys()].sort(), [
    'bindings/default/web-deployment.yaml',
    'clusters/member1/default/deployment.apps_web.yaml',
  ]);
});

test.run();
