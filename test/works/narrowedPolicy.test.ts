// A policy whose selectors stop matching a template it placed: Karmada's detector removes the claim from the template
// and its binding (policy_test.go Test_cleanPPUnmatchedRBs, Test_removeRBsClaimMetadata "remove resource binding with
// non-matching selectors") and deletes neither the binding nor its Works, so what runs on the members stays, as after
// a policy deletion; Flotilla keeps the last output and says so.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { parseYamlValue } from '../../src/yaml/blockYaml.ts';
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

type Meta = { labels?: Record<string, string>; annotations?: Record<string, string> };
const clusterPolicyYaml = (selectors: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: everything}
spec:
  resourceSelectors: [${selectors}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;

// detector.handlePolicyDeletion -> CleanupResourceBindingClaimMetadata / CleanupClusterResourceBindingClaimMetadata,
// and cleanPPUnmatchedRBs for a narrowed policy: the binding stays, scheduled as it was, without the policy's claim.
test("the binding of a template its policy let go of stays, scheduled as it was, without the policy's claim", async () => {
  const cases: {
    name: string;
    policies: Record<string, string>;
    letGo: Record<string, string | null>;
    path: string;
    claim: string[];
  }[] = [
    {
      name: 'PropagationPolicy deleted',
      policies: { 'policies/deployments.yaml': policyYaml('Deployment') },
      letGo: { 'policies/deployments.yaml': null },
      path: 'bindings/default/web-deployment.yaml',
      claim: [
        'propagationpolicy.karmada.io/permanent-id',
        'propagationpolicy.karmada.io/name',
        'propagationpolicy.karmada.io/namespace',
      ],
    },
    {
      name: 'PropagationPolicy narrowed',
      policies: { 'policies/deployments.yaml': policyYaml('Deployment') },
      letGo: { 'policies/deployments.yaml': policyYaml('Pod') },
      path: 'bindings/default/web-deployment.yaml',
      claim: ['propagationpolicy.karmada.io/permanent-id', 'propagationpolicy.karmada.io/name'],
    },
    {
      name: 'ClusterPropagationPolicy deleted (a ClusterResourceBinding)',
      policies: {
        'policies/everything.yaml': clusterPolicyYaml(
          '{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: reader}',
        ),
      },
      letGo: { 'policies/everything.yaml': null },
      path: 'bindings/_cluster/reader-clusterrole.yaml',
      claim: ['clusterpropagationpolicy.karmada.io/permanent-id', 'clusterpropagationpolicy.karmada.io/name'],
    },
  ];
  for (const c of cases) {
    const r = makeConfigRepo();
    try {
      r.commit({
        'clusters/member1.yaml': clusterYaml('member1'),
        'templates/web.yaml': deploymentYaml('web', 1),
        'templates/reader.yaml':
          'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: reader}\nrules: []\n',
        ...c.policies,
      });
      const repo = await openRepo(r.dir);
      const sync = () => syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
      const binding = () => parseYamlValue(r.show('flotilla/rendered', c.path)) as { metadata: Meta; spec: unknown };
      await sync();
      const before = binding();
      const keys = (m: Meta) => [...Object.keys(m.labels ?? {}), ...Object.keys(m.annotations ?? {})];
      for (const k of c.claim) assert.ok(keys(before.metadata).includes(k), `${c.name}: ${k} before`);
      r.commit(c.letGo, 'the policy lets go');
      await sync();
      const after = binding();
      for (const k of c.claim) assert.not.ok(keys(after.metadata).includes(k), `${c.name}: ${k} after`);
      assert.equal(after.spec, before.spec, `${c.name}: the result stays`);
      assert.ok(
        after.metadata.annotations?.['flotilla.io/policy'],
        `${c.name}: Flotilla's record of the last policy stays`,
      );
      // Nothing is written again on the next commit, and a replay of the commit agrees.
      const head = r.git('rev-parse', 'flotilla/rendered');
      r.commit({ 'templates/other.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\n' }, 'unrelated');
      await sync();
      assert.is(r.git('rev-parse', `flotilla/rendered~1`), head, `${c.name}: one render after`);
      assert.is(r.show('flotilla/rendered', c.path), r.show(head, c.path), `${c.name}: the binding as it was`);
      const verified = await verifyOutput(repo, { outputRef: 'refs/heads/flotilla/rendered' });
      assert.ok(verified.ok, `${c.name}: ${JSON.stringify(verified)}`);
    } finally {
      r.cleanup();
    }
  }
});

test.run();
