import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { planCommand } from '../../src/commands/planCommand.ts';
import { commitAll, makeNginxRepo, scaledSample, writeWorkTree } from './helpers/nginxRepo.ts';
import { commonOptions } from './helpers/runCommand.ts';

const HPA = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: nginx
  namespace: default
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: nginx}
  minReplicas: 1
  maxReplicas: 10
`;
const HPA_POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: nginx-hpa
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: autoscaling/v2
      kind: HorizontalPodAutoscaler
      name: nginx
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
`;

test("plan says a workload's replicas are governed by the HPA that scales it, and shows the retain-replicas mark it gains", async () => {
  const { repo } = makeNginxRepo();
  try {
    const s = scaledSample();
    repo.git(['checkout', '-q', '-b', 'feature']);
    writeWorkTree(repo, {
      'templates/deployment.yaml': s.deployment,
      'policies/propagationpolicy.yaml': s.policy,
      'templates/hpa.yaml': HPA,
      'policies/hpa.yaml': HPA_POLICY,
    });
    commitAll(repo, 'Scale nginx to 3 under an HPA');
    const opts = commonOptions(repo.path);
    await planCommand({ ...opts, base: 'main', head: 'feature', format: 'text' });
    const text = opts.stdout();
    assert.match(text, /replicas governed by HorizontalPodAutoscaler \S*nginx on each member: the members keep theirs/);
    assert.match(text, /\+\s+resourcetemplate\.karmada\.io\/retain-replicas: "true"/);
  } finally {
    repo.cleanup();
  }
});

test.run();
