// A ConfigMap a Workload drags along (propagateDeps, its interpreter's dependencies) has a binding the Workload
// attached, no policy of its own: when it stops being a dependency, binding and manifests go, as a whole render of
// the new commit has neither.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { clusterYaml, makeConfigRepo, RENDERED_REF, SOURCE_REF } from '../helpers/fleet.ts';
import { dependencyCustomization, shopPolicy, WORKLOAD_CRD, workload } from '../helpers/customWorkload.ts';

const POLICY = shopPolicy(['member1']);
const START = {
  'clusters/member1.yaml': clusterYaml('member1'),
  'crds/workload.yaml': WORKLOAD_CRD,
  'interpreters/workload.yaml': dependencyCustomization(),
  'policies/shop.yaml': POLICY,
  'templates/shop.yaml': workload(2),
  'templates/config.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shop-config}\ndata: {a: b}\n',
};
const CONFIG_BINDING = 'bindings/default/shop-config-configmap.yaml';
const CONFIG_MANIFEST = 'clusters/member1/default/configmap_shop-config.yaml';

for (const [what, change] of [
  ['the interpreter customization naming it is removed', { 'interpreters/workload.yaml': null }],
  [
    'the policy stops propagating dependencies',
    { 'policies/shop.yaml': POLICY.replace('propagateDeps: true', 'propagateDeps: false') },
  ],
  ['the ConfigMap template is deleted', { 'templates/config.yaml': null }],
] as const) {
  test(`a dependency's attached binding goes with its manifests when ${what}, as a whole render has none`, async () => {
    const r = makeConfigRepo();
    try {
      r.commit(START, 'a Workload dragging its ConfigMap');
      const sync = async () => syncRepo(await openRepo(r.dir), { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
      await sync();
      assert.ok(r.ls('flotilla/rendered').includes(CONFIG_BINDING), 'attached first');
      assert.ok(r.ls('flotilla/rendered').includes(CONFIG_MANIFEST));
      r.commit(change, what);
      await sync();
      assert.not.ok(r.ls('flotilla/rendered').includes(CONFIG_BINDING), 'the binding goes');
      assert.not.ok(r.ls('flotilla/rendered').includes(CONFIG_MANIFEST), 'and its manifest');
      const verified = await verifyOutput(await openRepo(r.dir), { outputRef: RENDERED_REF });
      assert.equal([verified.differs, verified.missing, verified.extra], [[], [], []]);
    } finally {
      r.cleanup();
    }
  });
}

test.run();
