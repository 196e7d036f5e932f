import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { FileObjects } from '../../src/api/model.ts';
import { filesFor, scopeOf, type KarmadaScope } from '../../src/outputs/karmadaScope.ts';

const source = { file: 'f.yaml', line: 1, column: 1 };
const empty = (file: string): FileObjects => ({
  file,
  templates: [],
  propagationPolicies: [],
  overridePolicies: [],
  clusterTaintPolicies: [],
  clusters: [],
  rebalancers: [],
  interpreterCustomizations: [],
  broken: [],
  unreadable: false,
  problems: [],
});
const policy = (kind: string, name: string, namespace?: string, placement: Record<string, unknown> = {}) =>
  ({
    object: {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind,
      metadata: { name, ...(namespace ? { namespace } : {}) },
      spec: { resourceSelectors: [], placement },
    },
    source,
  }) as never;
const PP = 'policy.karmada.io/v1alpha1/PropagationPolicy';
const OP = 'policy.karmada.io/v1alpha1/OverridePolicy';

test('namespaced PropagationPolicies and OverridePolicies concern their namespace (no namespace: default)', () => {
  assert.equal(
    scopeOf({
      ...empty('p.yaml'),
      propagationPolicies: [policy('PropagationPolicy', 'web', 'team-a')],
      overridePolicies: [policy('OverridePolicy', 'web')],
    }),
    { policies: [`${PP}/team-a/web`, `${OP}/default/web`] },
  );
});

test('whatever reaches across namespaces, or the commit as a whole, concerns the fleet', () => {
  const fleet = (f: FileObjects) => scopeOf(f).fleet === true;
  assert.ok(fleet({ ...empty('c.yaml'), propagationPolicies: [policy('ClusterPropagationPolicy', 'all')] }));
  assert.ok(fleet({ ...empty('c.yaml'), overridePolicies: [policy('ClusterOverridePolicy', 'all')] }));
  assert.ok(
    fleet({
      ...empty('c.yaml'),
      clusters: [
        {
          object: { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'm1' }, spec: {} },
          source,
        },
      ] as never,
    }),
  );
  assert.ok(
    fleet({
      ...empty('t.yaml'),
      propagationPolicies: [
        policy('PropagationPolicy', 'web', 'a', {
          clusterTolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }],
        }),
      ],
    }),
    'the next failover check reads every toleration',
  );
  assert.ok(
    fleet({
      ...empty('b.yaml'),
      broken: [{ apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', namespace: 'a', name: 'x' }],
    }),
  );
  assert.ok(fleet({ ...empty('u.yaml'), unreadable: true }));
  assert.ok(
    fleet({
      ...empty('p.yaml'),
      problems: [{ ...source, code: 'X', severity: 'warning', message: 'm', fix: 'f' }] as never,
    }),
  );
  assert.ok(
    fleet({
      ...empty('m.yaml'),
      templates: [{ ref: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'a', name: 'c' }, manifest: {}, source }],
    }),
  );
  assert.not.ok(fleet({ ...empty('p.yaml'), propagationPolicies: [policy('PropagationPolicy', 'web', 'a')] }));
});

test("files for some namespaces: every fleet file, the namespaces' policies, and every copy of a policy defined twice", () => {
  const files = new Map<string, KarmadaScope>([
    ['clusters/m1.yaml', { fleet: true, policies: [] }],
    ['policies/a.yaml', { policies: [`${PP}/a/web`] }],
    ['policies/b.yaml', { policies: [`${PP}/b/web`, `${OP}/b/web`] }],
    ['policies/c.yaml', { policies: [`${PP}/c/web`] }],
    ['policies/c-copy.yaml', { policies: [`${PP}/c/web`] }],
    ['policies/d.yaml', { policies: [`${OP}/d/x`, `${OP}/d/x`] }],
  ]);
  assert.equal([...filesFor(files, new Set(['a']))].sort(), [
    'clusters/m1.yaml',
    'policies/a.yaml',
    'policies/c-copy.yaml',
    'policies/c.yaml',
    'policies/d.yaml',
  ]);
  assert.equal([...filesFor(files, new Set(['b', 'zzz']))].sort(), [
    'clusters/m1.yaml',
    'policies/b.yaml',
    'policies/c-copy.yaml',
    'policies/c.yaml',
    'policies/d.yaml',
  ]);
  assert.equal([...filesFor(new Map([...files].slice(0, 4)), new Set())], ['clusters/m1.yaml']);
});

test.run();
