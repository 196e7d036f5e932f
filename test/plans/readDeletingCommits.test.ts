import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { readDeletingCommits } from '../../src/deliveries/readDeletingCommits.ts';
import { readPlan } from '../../src/plans/readPlan.ts';
import { readPruneVerdict } from '../../src/plans/readPruneVerdict.ts';
import { clusterYaml, makeConfigRepoWith, type ConfigRepo } from '../helpers/fleet.ts';

const SOURCE = 'refs/heads/main';
const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const policy = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata:
  name: all
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
    - apiVersion: v1
      kind: Namespace
  placement:
    clusterAffinity:
      clusterNames: [member1]
`;
const cm = (name: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n  k: v\n`;
const TEAM = 'v1/Namespace//team';
const A = 'v1/ConfigMap/default/a';

function fleetRepo() {
  return makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'policies/all.yaml': policy,
      'templates/a.yaml': cm('a'),
      'templates/b.yaml': cm('b'),
      'templates/c.yaml': cm('c'),
      'templates/team.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n',
    },
    'four objects',
  );
}

test("a trailer on an earlier commit does not let a later commit's deletions through: sync, the applier's attribution and plan agree", async () => {
  const r = fleetRepo();
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  const applied = r.git('rev-parse', 'HEAD');
  const before = r.git('rev-parse', 'flotilla/rendered');
  const allowing = r.commit({ 'templates/a.yaml': null }, 'retire a\n\nFlotilla-Allow-Prune: retiring a');
  const deleting = r.commit({ 'templates/team.yaml': null }, 'drop the team namespace');
  await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  const after = r.git('rev-parse', 'flotilla/rendered');

  const verdict = await readPruneVerdict(repo, { before, after });
  assert.equal(
    verdict?.held.map((h) => [h.cluster, h.reason, h.refs]),
    [['member1', 'NAMESPACE', [TEAM]]],
    'sync holds the later deletion',
  );
  assert.equal(verdict?.allowed, []);

  const deletedBy = await readDeletingCommits(repo, { head: after, stopAtSource: applied });
  assert.equal(deletedBy('member1', TEAM), { commit: deleting }, 'the applier finds no permission for it');
  assert.equal(deletedBy('member1', A), { commit: allowing, allowReason: 'retiring a', allowedAt: allowing });

  const plan = await readPlan(repo, { base: allowing, head: deleting });
  assert.equal(
    plan.prune.held.map((h) => h.reason),
    ['NAMESPACE'],
    'plan of the later commit says held too',
  );
});

test('a follow-up commit carrying the trailer releases the deletions held before it, and its own, not those after it', async () => {
  const r = fleetRepo();
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  const deleting = r.commit({ 'templates/team.yaml': null }, 'drop the team namespace');
  await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  // The applier ran at `deleting` and held the Namespace; then the trailer comes, then another deletion.
  const allowing = r.commit({}, 'allow prune\n\nFlotilla-Allow-Prune: the team is gone');
  const later = r.commit({ 'templates/b.yaml': null }, 'drop b');
  await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  const deletedBy = await readDeletingCommits(repo, {
    head: r.git('rev-parse', 'flotilla/rendered'),
    stopAtSource: deleting,
  });
  assert.equal(deletedBy('member1', TEAM), { commit: '', allowReason: 'the team is gone', allowedAt: allowing });
  assert.equal(deletedBy('member1', 'v1/ConfigMap/default/b'), { commit: later });
});

test('objects released under preserveResourcesOnDeletion are no deletion: plan lists them released and neither plan nor sync holds them', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'policies/all.yaml': policy.replace('spec:\n', 'spec:\n  preserveResourcesOnDeletion: true\n'),
      'templates/a.yaml': cm('a'),
      'templates/b.yaml': cm('b'),
      'templates/c.yaml': cm('c'),
    },
    'three preserved objects',
  );
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  const base = r.git('rev-parse', 'HEAD');
  const before = r.git('rev-parse', 'flotilla/rendered');
  const head = r.commit({ 'templates/a.yaml': null, 'templates/b.yaml': null }, 'retire a and b');

  const plan = await readPlan(repo, { base, head });
  assert.equal(
    plan.clusters.member1?.released.map((o) => o.ref),
    [A, 'v1/ConfigMap/default/b'],
  );
  assert.equal(plan.clusters.member1?.removed, []);
  assert.equal(plan.prune.held, [], 'two of three objects leaving is no deletion to hold');

  await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  const after = r.git('rev-parse', 'flotilla/rendered');
  assert.is(await readPruneVerdict(repo, { before, after }), null);
});

test.run();
