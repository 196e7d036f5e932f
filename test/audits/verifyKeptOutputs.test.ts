// `flotilla verify` on a commit that deletes what placed a template: Karmada keeps the binding and the objects on the
// members (a deleted PropagationPolicy; a deleted MultiClusterService, whose retrieveService only drops its claim),
// so Flotilla keeps the last output, and a cold replay of that commit must agree rather than call it extra.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { commitAll, makeNginxRepo, writeWorkTree } from '../plans/helpers/nginxRepo.ts';
import { clusterYaml, makeConfigRepo } from '../helpers/fleet.ts';

const OUTPUT = 'refs/heads/flotilla/rendered';
const SERVICE = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80}]
`;
const MCS = `apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterService
metadata: {name: web, namespace: default}
spec:
  types: [CrossCluster]
  providerClusters: [{name: member1}]
  consumerClusters: [{name: member2}]
`;

async function verifiedAfterDeleting(files: Record<string, string>, deleted: string) {
  const { repo } = makeNginxRepo();
  try {
    const git = await openRepo(repo.path);
    writeWorkTree(repo, files);
    commitAll(repo, 'web');
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUTPUT });
    writeWorkTree(repo, { [deleted]: null });
    commitAll(repo, `delete ${deleted}`);
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUTPUT });
    const tree = repo.git(['ls-tree', '-r', '--name-only', 'flotilla/rendered']);
    const report = await verifyOutput(git, { outputRef: OUTPUT });
    return { tree, report };
  } finally {
    repo.cleanup();
  }
}

test('deleting the PropagationPolicy of a Service keeps its output, and verify agrees', async () => {
  const { tree, report } = await verifiedAfterDeleting(
    {
      'templates/web.yaml': SERVICE,
      'policies/web.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors: [{apiVersion: v1, kind: Service, name: web}]
  placement: {clusterAffinity: {clusterNames: [member1, member2]}}
`,
    },
    'policies/web.yaml',
  );
  assert.match(tree, 'clusters/member2/default/service_web.yaml');
  assert.equal([report.differs, report.missing, report.extra], [[], [], []]);
  assert.ok(report.ok);
});

test('deleting the MultiClusterService of a Service keeps its output on providers and consumers, and verify agrees', async () => {
  const { tree, report } = await verifiedAfterDeleting(
    { 'templates/web.yaml': SERVICE, 'templates/mcs.yaml': MCS },
    'templates/mcs.yaml',
  );
  assert.match(tree, 'clusters/member1/default/service_web.yaml');
  assert.match(tree, 'clusters/member2/default/service_web.yaml');
  assert.equal([report.differs, report.missing, report.extra], [[], [], []]);
  assert.ok(report.ok);
});

// Namespace sync writes no binding: what it left on members when the Namespace was labelled skip-auto-propagation
// lives in the index only, and a replay from bindings must read it there to agree with the render.
test('a Namespace kept after its skip-auto-propagation label, and one a ClusterPropagationPolicy takes over, verify', async () => {
  const r = makeConfigRepo();
  const namespace = (name: string, labels = '') =>
    `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n${labels ? `  labels:\n    ${labels}\n` : ''}`;
  const skip = 'namespace.karmada.io/skip-auto-propagation: "true"';
  try {
    r.commit({
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'templates/kept.yaml': namespace('kept'),
      'templates/taken.yaml': namespace('taken'),
    });
    const git = await openRepo(r.dir);
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUTPUT });
    r.commit({
      'templates/kept.yaml': namespace('kept', skip),
      'templates/taken.yaml': namespace('taken', skip),
      'policies/cpp.yaml': [
        'apiVersion: policy.karmada.io/v1alpha1',
        'kind: ClusterPropagationPolicy',
        'metadata:',
        '  name: taken',
        'spec:',
        '  resourceSelectors:',
        '  - {apiVersion: v1, kind: Namespace, name: taken}',
        '  placement:',
        '    clusterAffinity: {clusterNames: [member1]}',
        '',
      ].join('\n'),
    });
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUTPUT });
    assert.equal(
      r.ls('flotilla/rendered').filter((f) => f.startsWith('clusters/')),
      [
        'clusters/member1/_cluster/namespace_kept.yaml',
        'clusters/member1/_cluster/namespace_taken.yaml',
        'clusters/member2/_cluster/namespace_kept.yaml',
        'clusters/member2/_cluster/namespace_taken.yaml',
      ],
    );
    const report = await verifyOutput(git, { outputRef: OUTPUT });
    assert.equal([report.differs, report.missing, report.extra], [[], [], []]);
    assert.ok(report.ok);
  } finally {
    r.cleanup();
  }
});

test.run();
