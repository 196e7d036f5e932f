// Namespace sync through a render: a Namespace goes to every cluster; labelled skip-auto-propagation later, the
// clusters that have it keep it and a cluster registered afterwards does not get it (Karmada leaves its Works).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { clusterYaml, makeConfigRepo } from '../helpers/fleet.ts';

const OUT = 'refs/heads/flotilla/rendered';
const namespace = (labels = '') =>
  `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n${labels ? `  labels:\n    ${labels}\n` : ''}`;
const files = (r: ReturnType<typeof makeConfigRepo>) =>
  r.ls('flotilla/rendered').filter((f) => f.includes('namespace_team-a'));

test('a Namespace labelled skip-auto-propagation after it went out stays where it is and goes nowhere new', async () => {
  const r = makeConfigRepo();
  try {
    r.commit({ 'clusters/member1.yaml': clusterYaml('member1'), 'templates/ns.yaml': namespace() });
    const git = await openRepo(r.dir);
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUT });
    assert.equal(files(r), ['clusters/member1/_cluster/namespace_team-a.yaml']);
    const before = r.show('flotilla/rendered', 'clusters/member1/_cluster/namespace_team-a.yaml');

    r.commit({ 'templates/ns.yaml': namespace('namespace.karmada.io/skip-auto-propagation: "TRUE"') });
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUT });
    assert.equal(files(r), ['clusters/member1/_cluster/namespace_team-a.yaml'], 'member1 keeps it');
    assert.is(r.show('flotilla/rendered', 'clusters/member1/_cluster/namespace_team-a.yaml'), before, 'unchanged');

    r.commit({ 'clusters/member2.yaml': clusterYaml('member2') });
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUT });
    assert.equal(files(r), ['clusters/member1/_cluster/namespace_team-a.yaml'], 'member2 does not get it');

    // Without the label it goes everywhere again.
    r.commit({ 'templates/ns.yaml': namespace() });
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUT });
    assert.equal(files(r), [
      'clusters/member1/_cluster/namespace_team-a.yaml',
      'clusters/member2/_cluster/namespace_team-a.yaml',
    ]);
  } finally {
    r.cleanup();
  }
});

test('a Namespace labelled skip-auto-propagation from the start goes nowhere', async () => {
  const r = makeConfigRepo();
  try {
    r.commit({
      'clusters/member1.yaml': clusterYaml('member1'),
      'templates/ns.yaml': namespace('namespace.karmada.io/skip-auto-propagation: "True"'),
    });
    await syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });
    assert.equal(files(r), []);
  } finally {
    r.cleanup();
  }
});

test('a ClusterOverridePolicy selects a Namespace by the kubernetes.io/metadata.name label kube-apiserver gives it', async () => {
  const r = makeConfigRepo();
  try {
    const cop = [
      'apiVersion: policy.karmada.io/v1alpha1',
      'kind: ClusterOverridePolicy',
      'metadata:',
      '  name: ns-cop',
      'spec:',
      '  resourceSelectors:',
      '  - apiVersion: v1',
      '    kind: Namespace',
      '    labelSelector:',
      '      matchLabels:',
      '        kubernetes.io/metadata.name: team-a',
      '  overrideRules:',
      '  - overriders:',
      '      plaintext:',
      '      - path: /metadata/labels/tier',
      '        operator: add',
      '        value: gold',
      '',
    ].join('\n');
    r.commit({
      'clusters/member1.yaml': clusterYaml('member1'),
      'templates/ns.yaml': namespace(),
      'policies/cop.yaml': cop,
    });
    const git = await openRepo(r.dir);
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUT });
    const text = r.show('flotilla/rendered', 'clusters/member1/_cluster/namespace_team-a.yaml');
    assert.match(text, /\n {4}kubernetes\.io\/metadata\.name: team-a\n {4}tier: gold\n/);
  } finally {
    r.cleanup();
  }
});

test('a Namespace a ClusterPropagationPolicy takes over after skip-auto-propagation keeps the synced copies it does not place', async () => {
  // Karmada's namespace sync leaves its Works when the label comes; the binding controller takes over (and may later
  // remove) only the Works of clusters its ClusterResourceBinding targets, the others stay as they were.
  const r = makeConfigRepo();
  const cpp = (cluster: string) =>
    [
      'apiVersion: policy.karmada.io/v1alpha1',
      'kind: ClusterPropagationPolicy',
      'metadata:',
      '  name: team-a',
      'spec:',
      '  resourceSelectors:',
      '  - apiVersion: v1',
      '    kind: Namespace',
      '    name: team-a',
      '  placement:',
      '    clusterAffinity:',
      `      clusterNames: [${cluster}]`,
      '',
    ].join('\n');
  const path = (cluster: string) => `clusters/${cluster}/_cluster/namespace_team-a.yaml`;
  try {
    r.commit({
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'clusters/member3.yaml': clusterYaml('member3'),
      'templates/ns.yaml': namespace(),
    });
    const git = await openRepo(r.dir);
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUT });
    const synced = r.show('flotilla/rendered', path('member3'));

    r.commit({
      'templates/ns.yaml': namespace('namespace.karmada.io/skip-auto-propagation: "true"'),
      'policies/cpp.yaml': cpp('member1'),
    });
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUT });
    assert.equal(files(r), [path('member1'), path('member2'), path('member3')], 'member2 and member3 keep theirs');
    assert.match(
      r.show('flotilla/rendered', path('member1')),
      /clusterresourcebinding\.karmada\.io\/name: team-a-namespace/,
    );
    assert.is(r.show('flotilla/rendered', path('member3')), synced, 'a synced copy is no longer updated');

    // member2's copy is the binding's once it places it there, and goes when the binding leaves it.
    r.commit({ 'policies/cpp.yaml': cpp('member2') });
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUT });
    assert.equal(files(r), [path('member2'), path('member3')], 'member1 held the binding copy');
    r.commit({ 'policies/cpp.yaml': cpp('member1') });
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUT });
    assert.equal(files(r), [path('member1'), path('member3')], 'member2 held the binding copy');
    assert.is(r.show('flotilla/rendered', path('member3')), synced);
  } finally {
    r.cleanup();
  }
});

test.run();
