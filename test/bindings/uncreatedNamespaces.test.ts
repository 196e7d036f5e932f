// A placed template in a namespace no Namespace of the commit creates: Karmada refuses it at its API server, a member
// without the namespace refuses the object. validate and plan (whole-commit snapshots) warn once per namespace.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { clusterYaml, configMap, makeConfigRepo } from '../helpers/fleet.ts';

const everything = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: config}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;

test('a namespace placed objects live in and no Namespace of the commit creates gets one warning, at its first object', async () => {
  const r = makeConfigRepo();
  try {
    r.commit({
      'clusters/member1.yaml': clusterYaml('member1'),
      'policies/config.yaml': everything,
      'templates/monitoring.yaml': `${configMap('a', 'x', 'monitoring')}---\n${configMap('b', 'y', 'monitoring')}`,
      'templates/shop.yaml': `apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n---\n${configMap('c', 'z', 'shop')}`,
      'templates/default.yaml': configMap('d'),
      'templates/system.yaml': configMap('e', 'w', 'kube-system'),
    });
    const { output } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
    const warned = output.problems.filter((p) => p.code === 'NAMESPACE_NOT_IN_COMMIT');
    assert.equal(
      warned.map((p) => `${p.severity} ${p.file}:${p.line}`),
      ['warning templates/monitoring.yaml:1'],
    );
    assert.match(warned[0]!.message, 'namespace monitoring holds placed objects (ConfigMap monitoring/a first)');
    assert.match(warned[0]!.fix, 'add a Namespace monitoring');
  } finally {
    r.cleanup();
  }
});

test.run();
