import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateKarmadaRules } from '../../../src/documents/schema/validateKarmadaRules.ts';

const cluster = (path: string) => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'm1' },
  spec: { syncMode: 'Push', kubeconfigRef: { path, context: 'm1' } },
});
const issues = (path: string) =>
  validateKarmadaRules('Cluster', cluster(path)).filter((i) => i.path.join('.') === 'spec.kubeconfigRef.path');

test('a kubeconfigRef.path that is absolute or climbs out with .. is INVALID_VALUE, with the reason and the fix', () => {
  for (const [p, why] of [
    ['/etc/kubernetes/admin.conf', 'is absolute'],
    ['../other-team/kubeconfig', 'climbs out with ..'],
    ['team/../../x', 'climbs out with ..'],
    ['..', 'climbs out with ..'],
  ] as const) {
    const found = issues(p);
    assert.is(found.length, 1, p);
    assert.is(found[0]!.code, 'INVALID_VALUE');
    assert.match(found[0]!.message, why);
    assert.match(found[0]!.message, 'only inside its --credentials-dir');
    assert.match(found[0]!.fix, 'relative to the credentials folder');
  }
});

test('relative paths inside the folder, also through a harmless .., are accepted', () => {
  for (const p of ['members.config', 'team-a/member1.config', 'team-a/../members.config', './members.config'])
    assert.equal(issues(p), [], p);
});

test.run();
