// A policy's spec.suspension: Karmada's binding controller marks the Works of suspended clusters (shouldSuspendDispatching)
// and the execution controller applies nothing there (the index's `suspended` tells the applier). A suspended cluster keeps the manifest it has, a newly targeted
// one gets none yet, and deletions still go; lifting the suspension dispatches what the template says now.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { shardOf } from '../../src/branches/rendered/outputIndex.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { clusterYaml, configMap, makeConfigRepo, RENDERED_REF, SOURCE_REF } from '../helpers/fleet.ts';
import { followsSchema } from '../helpers/branchSchemas.ts';

const policy = (clusters: string[], suspension = '') => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: settings, namespace: default}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: settings}]
  placement: {clusterAffinity: {clusterNames: [${clusters.join(', ')}]}}${suspension}
`;
const onMember2 = '\n  suspension: {dispatchingOnClusters: {clusterNames: [member2]}}';
const everywhere = '\n  suspension: {dispatching: true}';
const KEY = 'v1/ConfigMap/default/settings';
const manifest = (cluster: string) => `clusters/${cluster}/default/configmap_settings.yaml`;

test('suspended dispatching: kept where it was, nothing new where it was not, deletions still go', async () => {
  const r = makeConfigRepo();
  try {
    r.commit(
      {
        'clusters/member1.yaml': clusterYaml('member1'),
        'clusters/member2.yaml': clusterYaml('member2'),
        'policies/settings.yaml': policy(['member1', 'member2'], onMember2),
        'templates/settings.yaml': configMap('settings', { v: '1' }),
      },
      'settings, member2 suspended',
    );
    const sync = async () => syncRepo(await openRepo(r.dir), { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
    const value = (cluster: string) =>
      r.ls('flotilla/rendered').includes(manifest(cluster))
        ? parse(r.show('flotilla/rendered', manifest(cluster))).data.v
        : undefined;
    await sync();
    assert.equal([value('member1'), value('member2')], ['1', undefined]);
    assert.equal(parse(r.show('flotilla/rendered', 'bindings/default/settings-configmap.yaml')).spec.suspension, {
      dispatchingOnClusters: { clusterNames: ['member2'] },
    });
    // The applier reads which clusters to send nothing to from the index, in its published format.
    const root = JSON.parse(r.show('flotilla/rendered', '.flotilla/index.json'));
    assert.equal(root.suspended, [KEY]);
    assert.is(followsSchema('rendered-index', root), true);
    const shard = JSON.parse(r.show('flotilla/rendered', `.flotilla/index/${shardOf(KEY)}.json`));
    assert.equal(shard.templates[KEY].suspended, ['member2']);
    assert.is(followsSchema('rendered-index-shard', shard), true);

    r.commit({ 'policies/settings.yaml': policy(['member1', 'member2']) }, 'lifted');
    await sync();
    assert.equal([value('member1'), value('member2')], ['1', '1']);
    assert.is(JSON.parse(r.show('flotilla/rendered', '.flotilla/index.json')).suspended, undefined);

    r.commit(
      {
        'policies/settings.yaml': policy(['member1', 'member2'], everywhere),
        'templates/settings.yaml': configMap('settings', { v: '2' }),
      },
      'v2 while everything is suspended',
    );
    await sync();
    assert.equal([value('member1'), value('member2')], ['1', '1'], 'members keep what they have');

    r.commit({ 'policies/settings.yaml': policy(['member1'], everywhere) }, 'member2 dropped while suspended');
    await sync();
    assert.equal([value('member1'), value('member2')], ['1', undefined], 'a deletion is still dispatched');
    const verified = await verifyOutput(await openRepo(r.dir), { outputRef: RENDERED_REF });
    assert.equal([verified.differs, verified.missing, verified.extra], [[], [], []]);

    r.commit({ 'policies/settings.yaml': policy(['member1']) }, 'lifted again');
    await sync();
    assert.equal([value('member1'), value('member2')], ['2', undefined]);
  } finally {
    r.cleanup();
  }
});

test.run();
