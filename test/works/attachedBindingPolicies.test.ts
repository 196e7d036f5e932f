// An attached binding (a dependency no policy claims) takes its parents' conflictResolution and
// preserveResourcesOnDeletion, as Karmada's dependencies distributor resolves them: any Overwrite, any true.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { clusterYaml, configMap, makeConfigRepo, RENDERED_REF, SOURCE_REF } from '../helpers/fleet.ts';

const deployment = (name: string, image = 'nginx:1.27') => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers:
        - name: app
          image: ${image}
          envFrom: [{configMapRef: {name: settings}}]
`;
const policy = (name: string, cluster: string, extra = '') => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: ${name}, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: ${name.slice(1)}}]
  propagateDeps: true${extra}
  placement: {clusterAffinity: {clusterNames: [${cluster}]}}
`;
const START = {
  'clusters/member1.yaml': clusterYaml('member1'),
  'clusters/member2.yaml': clusterYaml('member2'),
  'templates/a.yaml': deployment('a'),
  'templates/b.yaml': deployment('b'),
  'templates/settings.yaml': configMap('settings', { k: 'v' }),
  'policies/pa.yaml': policy('pa', 'member1', '\n  conflictResolution: Overwrite\n  preserveResourcesOnDeletion: true'),
  'policies/pb.yaml': policy('pb', 'member2'),
};
const BINDING = 'bindings/default/settings-configmap.yaml';
const manifest = (cluster: string) => `clusters/${cluster}/default/configmap_settings.yaml`;

test('a dependency of an Overwrite, preserving parent and a default one is attached with Overwrite and preserved', async () => {
  const r = makeConfigRepo();
  try {
    r.commit(START, 'two Deployments sharing one ConfigMap');
    const sync = async () => syncRepo(await openRepo(r.dir), { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
    const first = await sync();
    const spec = () => parse(r.show('flotilla/rendered', BINDING)).spec;
    assert.equal([spec().conflictResolution, spec().preserveResourcesOnDeletion], ['Overwrite', true]);
    // Karmada's DependencyPolicyConflict event, as a warning at the dependency.
    const conflict = first.reports[0]!.problems.filter((p) => p.code === 'DEPENDENCY_POLICY_CONFLICT');
    assert.equal(
      conflict.map((p) => [p.file, p.severity]),
      [['templates/settings.yaml', 'warning']],
    );
    assert.match(
      conflict[0]!.message,
      'Dependency policy conflict detected: ConflictResolution conflicted (Overwrite vs Abort); PreserveResourcesOnDeletion conflicted (true vs false).',
    );
    for (const cluster of ['member1', 'member2'])
      assert.is(
        parse(r.show('flotilla/rendered', manifest(cluster))).metadata.annotations[
          'work.karmada.io/conflict-resolution'
        ],
        'overwrite',
        cluster,
      );
    // Only b changes: a, not rendered again, still passes its settings on (from the index).
    r.commit({ 'templates/b.yaml': deployment('b', 'nginx:1.28') }, 'b only');
    await sync();
    assert.equal([spec().conflictResolution, spec().preserveResourcesOnDeletion], ['Overwrite', true]);
    const verified = await verifyOutput(await openRepo(r.dir), { outputRef: RENDERED_REF });
    assert.equal([verified.differs, verified.missing, verified.extra], [[], [], []]);
    // Deleted, the ConfigMap is released on both members rather than deleted there.
    r.commit({ 'templates/settings.yaml': null }, 'settings gone');
    await sync();
    const released = r.show('flotilla/rendered', '.flotilla/released.json');
    for (const cluster of ['member1', 'member2']) assert.match(released, cluster);
    assert.match(released, 'v1/ConfigMap/default/settings');
  } finally {
    r.cleanup();
  }
});

// createOrUpdateAttachedBinding always sets the resolved strategy: ConflictAbort and new(false) with default parents.
test('parents with the defaults attach their dependency with the defaults written out, Abort and not preserved', async () => {
  const r = makeConfigRepo();
  try {
    r.commit({ ...START, 'policies/pa.yaml': policy('pa', 'member1') }, 'defaults');
    await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
    const spec = parse(r.show('flotilla/rendered', BINDING)).spec;
    assert.equal([spec.conflictResolution, spec.preserveResourcesOnDeletion], ['Abort', false]);
    assert.is(
      parse(r.show('flotilla/rendered', manifest('member1'))).metadata.annotations[
        'work.karmada.io/conflict-resolution'
      ],
      'abort',
    );
  } finally {
    r.cleanup();
  }
});

test.run();
