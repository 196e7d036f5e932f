// Karmada's detector watches each resource at its group's preferred version only (pkg/util/lifted/discovery.go,
// ServerPreferredResources) and a ResourceSelector's apiVersion must equal the object's (pkg/util/selector.go): an
// HPA written as autoscaling/v1 is seen, selected and bound as autoscaling/v2.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { ResourceBinding } from '../../src/api/binding.ts';
import { renderTemplates } from '../../src/works/renderTemplates.ts';
import { classifyText } from '../documents/helpers/classifyText.ts';
import { coldRenderInput, memberCluster, modelOf, propagationPolicy } from '../helpers/inMemoryModel.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { makeConfigRepoWith, MEMBERS, RENDERED_REF, type ConfigRepo } from '../helpers/fleet.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const HPA_V1 = `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 3
  targetCPUUtilizationPercentage: 50
`;

const render = async (selectorVersion: string) => {
  const file = classifyText('templates/hpa.yaml', HPA_V1);
  const model = modelOf({
    templates: file.templates.map((t) => ({ ...t, ref: { ...t.ref, namespace: 'default' }, labels: {} })),
    policies: [
      propagationPolicy('hpa', {
        resourceSelectors: [{ apiVersion: selectorVersion, kind: 'HorizontalPodAutoscaler' }],
        placement: { clusterAffinity: { clusterNames: ['member1'] } },
      }),
    ],
    clusters: [memberCluster('member1')],
  });
  return renderTemplates(coldRenderInput(model));
};

test('an autoscaling/v1 HPA is selected and bound as autoscaling/v2, its preferred version; a v1 selector claims nothing', async () => {
  const v2 = await render('autoscaling/v2');
  const binding = parse(String(v2.edits.get('bindings/default/web-horizontalpodautoscaler.yaml'))) as ResourceBinding;
  assert.equal(binding.spec.resource, {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    namespace: 'default',
    name: 'web',
  });
  // The manifest keeps the form it was written in: each member's API server converts it.
  const manifest = String(v2.edits.get('clusters/member1/default/horizontalpodautoscaler.autoscaling_web.yaml'));
  assert.match(manifest, 'apiVersion: autoscaling/v1');
  assert.match(manifest, 'targetCPUUtilizationPercentage: 50');

  const v1 = await render('autoscaling/v1');
  assert.equal([...v1.edits.keys()], []);
});

// Karmada runs every interpreter hook on the object at the version its detector sees it: the customization of
// autoscaling/v2 HorizontalPodAutoscaler is the one an HPA written as autoscaling/v1 gets.
test("an autoscaling/v1 HPA is interpreted by the autoscaling/v2 HPA's customization: its dependencies follow it", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'interpreters/hpa.yaml': `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: hpa}
spec:
  target: {apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler}
  customizations:
    dependencyInterpretation:
      luaScript: |
        function GetDependencies(desiredObj)
          return {{apiVersion = "v1", kind = "ConfigMap", namespace = desiredObj.metadata.namespace, name = "hpa-config"}}
        end
`,
      'policies/hpa.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: hpa, namespace: default}
spec:
  propagateDeps: true
  resourceSelectors:
    - {apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler, name: web}
  placement:
    clusterAffinity: {clusterNames: [member1]}
`,
      'templates/config.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: hpa-config, namespace: default}\n',
      'templates/hpa.yaml': HPA_V1,
    },
    'an autoscaling/v1 HPA with a customized dependency',
  );
  const repo = await openRepo(r.dir);
  await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: RENDERED_REF });
  const binding = parse(r.git('show', `${RENDERED_REF}:bindings/default/web-horizontalpodautoscaler.yaml`));
  assert.is(
    binding.metadata.annotations['resourcebinding.karmada.io/dependencies'],
    '[{"apiVersion":"v1","kind":"ConfigMap","namespace":"default","name":"hpa-config"}]',
  );
  assert.ok(r.git('show', `${RENDERED_REF}:clusters/member1/default/configmap_hpa-config.yaml`));
});

test.run();
