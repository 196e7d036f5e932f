import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Located } from '../../src/api/model.ts';
import { policiesInScope, type PolicyScope } from '../../src/selectors/policiesInScope.ts';

interface Policy {
  kind: 'OverridePolicy' | 'ClusterOverridePolicy';
  metadata: { name: string; namespace?: string };
}
const SCOPE: PolicyScope<Policy> = {
  clusterWide: (p) => p.kind === 'ClusterOverridePolicy',
  namespaceOf: (p) => p.metadata.namespace ?? 'default',
};
const located = (object: Policy): Located<Policy> => ({ object, source: { file: 'p.yaml', line: 1, column: 1 } });

test("the cluster-wide policies and those of the namespace, in the list's own order, as a scan of every policy finds them", () => {
  const namespaces = [undefined, 'default', 'a', 'b', ''];
  const policies = Array.from({ length: 300 }, (_, i) =>
    located({
      kind: i % 7 === 0 ? 'ClusterOverridePolicy' : 'OverridePolicy',
      metadata: { name: `p${i}`, ...(namespaces[i % 5] !== undefined ? { namespace: namespaces[i % 5] } : {}) },
    }),
  );
  for (const ns of ['default', 'a', 'b', '', 'none']) {
    const scanned = policies.filter((p) => SCOPE.clusterWide(p.object) || SCOPE.namespaceOf(p.object) === ns);
    assert.equal(
      policiesInScope(policies, ns, SCOPE).map((p) => p.object.metadata.name),
      scanned.map((p) => p.object.metadata.name),
      ns,
    );
  }
});

test('a list that grew after it was indexed is indexed again', () => {
  const policies = [located({ kind: 'OverridePolicy', metadata: { name: 'first', namespace: 'a' } })];
  assert.equal(policiesInScope(policies, 'a', SCOPE).length, 1);
  policies.push(located({ kind: 'ClusterOverridePolicy', metadata: { name: 'wide' } }));
  assert.equal(
    policiesInScope(policies, 'a', SCOPE).map((p) => p.object.metadata.name),
    ['first', 'wide'],
  );
});

test.run();
