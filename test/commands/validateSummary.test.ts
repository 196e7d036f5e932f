import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clusterYaml, makeConfigRepoWith, type ConfigRepo } from '../helpers/fleet.ts';
import { validateText } from '../helpers/validateText.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

test("validate says a shared base's problem once, not once per overlay, and counts the taint policies and rebalancers", async () => {
  const overlay = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../base]\n';
  const r = makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'apps/base/kustomization.yaml':
        'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - github.com/example/repo//deploy?ref=v1\n',
      'apps/staging/kustomization.yaml': overlay,
      'apps/production/kustomization.yaml': overlay,
      'policies/taints.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterTaintPolicy
metadata:
  name: not-ready
spec:
  targetClusters: {clusterNames: [member1]}
  addOnConditions:
    - {conditionType: Ready, operator: In, statusValues: ["False"]}
  taints:
    - {key: not-ready, effect: NoSchedule}
`,
      'rebalancers/now.yaml': `apiVersion: apps.karmada.io/v1alpha1
kind: WorkloadRebalancer
metadata:
  name: now
spec:
  workloads:
    - {apiVersion: apps/v1, kind: Deployment, name: web, namespace: default}
`,
    },
    'two overlays of one base with a remote resource',
  );
  const { code, text } = await validateText(r.dir);
  assert.is(code, 1);
  const remote = text.split('\n').filter((l) => l.includes('names a remote repository'));
  assert.is(remote.length, 1, text);
  assert.match(text, '1 cluster taint policies, 1 workload rebalancers, 1 clusters');
});

test.run();
