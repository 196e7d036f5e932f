import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { clusterYaml, makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import type { Cluster } from '../../src/api/cluster.ts';
import { refKey } from '../../src/api/kinds.ts';
import type { OverridePolicy, PropagationPolicy } from '../../src/api/policy.ts';
import { applyPolicyDefaults } from '../../src/documents/applyPolicyDefaults.ts';
import type { ConfigModel, Template } from '../../src/api/model.ts';
import { ShardedIndex } from '../../src/branches/rendered/outputIndex.ts';
import { renderTemplates } from '../../src/works/renderTemplates.ts';

const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const policy = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata:
  name: configmaps
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
  placement:
    clusterAffinity:
      clusterNames: [member1]
`;
const cm = (name: string, namespace: string, value: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\ndata:\n  k: ${value}\n`;
const takeover = (path: string, value: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: takeover
  namespace: team-a
spec:
  overrideRules:
    - overriders:
        plaintext:
          - path: ${path}
            operator: replace
            value: ${value}
    - overriders:
        labelsOverrider:
          - operator: add
            value:
              team: a
`;

test("a team's OverridePolicy cannot write another namespace's object: validate refuses the path at the policy, and the render keeps the template's identity", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/cms.yaml': policy,
      'templates/a.yaml': cm('a-settings', 'team-a', 'mine'),
      'templates/b.yaml': cm('b-settings', 'team-b', 'theirs'),
      'team-a/override.yaml': takeover('/metadata/namespace', 'team-b'),
    },
    'team A tries to take over team B',
  );
  const report = await renderRevision(await openRepo(r.dir), r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  const located = report.problems.filter((p) => p.file === 'team-a/override.yaml').map((p) => `${p.line}:${p.code}`);
  assert.equal(located, ['10:INVALID_VALUE']);
  const a = parse(r.show('flotilla/rendered', 'clusters/member1/team-a/configmap_a-settings.yaml'));
  const b = parse(r.show('flotilla/rendered', 'clusters/member1/team-b/configmap_b-settings.yaml'));
  assert.equal([a.metadata.namespace, a.metadata.name, a.data.k], ['team-a', 'a-settings', 'mine']);
  assert.equal([b.metadata.namespace, b.metadata.name, b.data.k], ['team-b', 'b-settings', 'theirs']);
});

test('a rule that gets past validate and rewrites identity is not applied on any cluster: one error at the policy, the other rules apply', async () => {
  const template: Template = {
    ref: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'team-a', name: 'a-settings' },
    labels: {},
    manifest: parse(cm('a-settings', 'team-a', 'mine')),
    source: { file: 'templates/a.yaml', line: 1, column: 1 },
  };
  const override = parse(takeover('/metadata', '{name: coredns, namespace: kube-system}')) as OverridePolicy;
  const clusters = ['member1', 'member2'].map(
    (name) =>
      [
        name,
        { object: parse(clusterYaml(name)) as Cluster, source: { file: `clusters/${name}.yaml`, line: 1, column: 1 } },
      ] as const,
  );
  const model: ConfigModel = {
    templates: new Map([[refKey(template.ref), template]]),
    propagationPolicies: [
      {
        object: applyPolicyDefaults(parse(policy.replace('[member1]', '[member1, member2]')) as PropagationPolicy),
        source: { file: 'policies/cms.yaml', line: 1, column: 1 },
      },
    ],
    overridePolicies: [{ object: override, source: { file: 'team-a/override.yaml', line: 1, column: 1 } }],
    clusterTaintPolicies: [],
    clusters: new Map(clusters),
    rebalancers: [],
    interpreterCustomizations: [],
    held: new Set(),
    unreadableFiles: new Set(),
    problems: [],
  };
  const out = await renderTemplates({
    model,
    affected: new Set([refKey(template.ref)]),
    previousIndex: ShardedIndex.replacing(null),
    previousBindings: new Map(),
    previousFiles: new Map(),
    sourceCommit: 'c'.repeat(40),
  });
  assert.equal(
    out.problems.map((p) => `${p.file}:${p.line} ${p.code}`),
    ['team-a/override.yaml:1 OVERRIDE_FAILED'],
  );
  assert.match(
    out.problems[0]!.message,
    'spec.overrideRules[0] would change the identity of ConfigMap team-a/a-settings (metadata.namespace "team-a" → "kube-system", metadata.name "a-settings" → "coredns")',
  );
  for (const cluster of ['member1', 'member2']) {
    const text = out.edits.get(`clusters/${cluster}/team-a/configmap_a-settings.yaml`) as string;
    const m = parse(text);
    assert.equal(
      [m.metadata.namespace, m.metadata.name, m.metadata.labels.team],
      ['team-a', 'a-settings', 'a'],
      cluster,
    );
  }
  assert.not.ok([...out.edits.keys()].some((path) => path.includes('coredns')));
});

test.run();
