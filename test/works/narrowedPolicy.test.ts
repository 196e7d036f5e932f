// A policy whose selectors stop matching a template it placed: Karmada's detector removes the claim from the template
// and its binding (policy_test.go Test_cleanPPUnmatchedRBs, Test_removeRBsClaimMetadata "remove resource binding with
// non-matching selectors") and deletes neither the binding nor its Works, so what runs on the members stays, as after
// a policy deletion; Flotilla keeps the last output and says so.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { clusterYaml, deployment as deploymentYaml, makeConfigRepo, manifestOf } from '../helpers/fleet.ts';

const policyYaml = (kind: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: deployments, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: ${kind}}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;

test('a policy narrowed so it no longer selects its template lets go of it, but what runs on the members stays', async () => {
  const r = makeConfigRepo();
  try {
    r.commit(
      {
        'clusters/member1.yaml': clusterYaml('member1'),
        'templates/web.yaml': deploymentYaml('web', 1),
        'policies/deployments.yaml': policyYaml('Deployment'),
      },
      'web on member1',
    );
    const repo = await openRepo(r.dir);
    const sync = async () =>
      (
        await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' })
      ).reports.flatMap((x) => x.problems);
    await sync();
    const manifest = manifestOf('member1', 'Deployment', 'web', 'default', 'apps');
    assert.match(r.git('ls-tree', '-r', '--name-only', 'flotilla/rendered'), manifest);
    r.commit({ 'policies/deployments.yaml': policyYaml('Pod') }, 'the policy selects Pods only');
    const problems = await sync();
    assert.match(
      r.git('ls-tree', '-r', '--name-only', 'flotilla/rendered'),
      manifest,
      "Karmada keeps the binding and its Works: the member's Deployment is not deleted",
    );
    assert.equal(
      problems.map((p) => `${p.severity} ${p.code} ${p.file}`),
      ['warning POLICY_REMOVED templates/web.yaml'],
    );
    assert.match(
      problems[0]!.message,
      'was placed by PropagationPolicy default/deployments, which no longer selects it',
    );
  } finally {
    r.cleanup();
  }
});

test.run();
