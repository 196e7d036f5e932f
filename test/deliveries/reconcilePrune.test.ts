// Prune safety end to end: a real Git config repo, reconcileOnce (sync -> apply -> status) against two emulated
// members on loopback, kubectl as the independent check. Tests run in order and build on each other.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseInventoryFile } from '../../src/branches/status/inventory.ts';
import { reconcileOnce, type ReconcileResult } from '../../src/reconcile.ts';
import { clusterYaml, configMapPolicy } from '../helpers/fleet.ts';
import { startMemberFleet, type MemberFleet } from './helpers/e2e.ts';

let fleet: MemberFleet;
const logs: Record<string, unknown>[] = [];

const configMap = (name: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n  app: ${name}\n`;
const TEMPLATES = {
  'templates/a.yaml': configMap('a'),
  'templates/b.yaml': configMap('b'),
  'templates/c.yaml': configMap('c'),
  'templates/team.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n',
};

const pass = () =>
  reconcileOnce({
    repo: fleet.repo,
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
    clusters: fleet.kubes,
    render: true,
    log: (e) => logs.push(e),
  });
const actions = (r: ReconcileResult, cluster: string) =>
  Object.fromEntries(
    r
      .delivery!.clusters.get(cluster)!
      .results.map((x) => [`${x.ref.kind}/${x.ref.name}${x.prune ? ' (prune)' : ''}`, x.action]),
  );
const exists = async (member: string, ...what: string[]) =>
  (await fleet.kubectl(['--context', member, 'get', ...what])).code === 0;
const inventoryFile = (cluster: string) =>
  parseInventoryFile(fleet.config.show('flotilla/status', `inventories/${cluster}.json`));

test.before(async () => {
  fleet = await startMemberFleet(
    ['member1', 'member2'],
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'policies/all.yaml': configMapPolicy(['member1', 'member2']),
      ...TEMPLATES,
    },
    'four templates',
  );
});

test.after(async () => {
  await fleet?.cleanup();
});

test('first pass: every template lands on both members', async () => {
  const r = await pass();
  for (const c of ['member1', 'member2']) {
    assert.equal(
      actions(r, c),
      { 'Namespace/team': 'created', 'ConfigMap/a': 'created', 'ConfigMap/b': 'created', 'ConfigMap/c': 'created' },
      c,
    );
  }
  assert.ok(await exists('member2', 'configmap', 'c', '-n', 'default'));
  assert.is(
    inventoryFile('member1').sourceCommit,
    fleet.config.git('rev-parse', 'main'),
    'the status branch remembers what was applied',
  );
});

test('below the threshold a deletion goes through, while a Namespace deletion beside it is held', async () => {
  fleet.config.commit({ 'templates/b.yaml': null, 'templates/team.yaml': null }, 'drop b and the team namespace');
  const r = await pass();
  assert.equal(
    r.prune?.held.map((h) => [h.cluster, h.reason]),
    [
      ['member1', 'NAMESPACE'],
      ['member2', 'NAMESPACE'],
    ],
    'sync says what the applier will hold',
  );
  for (const c of ['member1', 'member2']) {
    assert.is(actions(r, c)['ConfigMap/b (prune)'], 'pruned', c);
    assert.is(actions(r, c)['Namespace/team (prune)'], 'held', c);
  }
  assert.not.ok(await exists('member1', 'configmap', 'b', '-n', 'default'));
  assert.ok(await exists('member1', 'namespace', 'team'), 'the Namespace is still there');
  assert.equal(
    inventoryFile('member1').held?.map((h) => h.reason),
    ['NAMESPACE'],
  );
});

test('a commit deleting every template: sync reports it held, the applier deletes nothing, the status branch says held', async () => {
  fleet.config.commit({ 'templates/a.yaml': null, 'templates/c.yaml': null }, 'delete every template');
  const r = await pass();
  assert.equal(
    r.prune?.held.map((h) => [h.cluster, h.reason]),
    [
      ['member1', 'EVERYTHING'],
      ['member2', 'EVERYTHING'],
    ],
  );
  assert.match(r.prune!.fix, /--trailer "Flotilla-Allow-Prune: retiring app X"/);
  for (const c of ['member1', 'member2']) {
    const d = r.delivery!.clusters.get(c)!;
    assert.is(d.writes, 0, c);
    assert.equal(
      actions(r, c),
      { 'ConfigMap/a (prune)': 'held', 'ConfigMap/c (prune)': 'held', 'Namespace/team (prune)': 'held' },
      c,
    );
    assert.match(d.notes.join('\n'), /the source places nothing on/);
  }
  assert.ok(await exists('member1', 'configmap', 'a', '-n', 'default'));
  assert.ok(await exists('member2', 'configmap', 'c', '-n', 'default'));
  const inv = inventoryFile('member2');
  assert.equal(
    inv.held?.map((h) => h.reason),
    ['EVERYTHING'],
  );
  assert.is(inv.objects.length, 3, 'held objects stay in the inventory');
  const status = fleet.config.show('flotilla/status', 'templates/default/configmap_a.yaml');
  assert.match(status, /deletion held by prune safety: would delete all 3 objects on member1/);
  const message = fleet.config.git('log', '-1', '--format=%B', 'flotilla/status');
  assert.match(message, /member1: .*3 held/, message);
  const applyLog = logs.find((e) => e.step === 'apply' && e.cluster === 'member1' && e.pruneHeld);
  assert.ok(applyLog, 'the apply log line names what is held');
});

test('a later commit without the trailer keeps it held', async () => {
  fleet.config.commit({}, 'unrelated empty commit');
  const r = await pass();
  assert.equal(Object.values(actions(r, 'member1')), ['held', 'held', 'held']);
  assert.ok(await exists('member1', 'configmap', 'a', '-n', 'default'));
});

test('a follow-up commit with the Flotilla-Allow-Prune trailer lets the deletions through', async () => {
  fleet.config.git(
    '-c',
    'user.name=Ada',
    '-c',
    'user.email=ada@example.com',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'allow prune',
    '--trailer',
    'Flotilla-Allow-Prune: retiring every app',
  );
  const r = await pass();
  for (const c of ['member1', 'member2']) {
    assert.equal(
      actions(r, c),
      { 'ConfigMap/a (prune)': 'pruned', 'ConfigMap/c (prune)': 'pruned', 'Namespace/team (prune)': 'pruned' },
      c,
    );
    assert.match(
      r.delivery!.clusters.get(c)!.results[0]!.message,
      /allowed by Flotilla-Allow-Prune: retiring every app/,
    );
  }
  assert.not.ok(await exists('member1', 'configmap', 'a', '-n', 'default'));
  assert.not.ok(await exists('member2', 'configmap', 'c', '-n', 'default'));
  const inv = inventoryFile('member1');
  assert.is(inv.held, undefined);
  assert.equal(inv.objects, []);
});

test('an emptied source tree never deletes, trailer or not', async () => {
  fleet.config.commit({ 'templates/a.yaml': configMap('a') }, 'bring a back');
  const back = await pass();
  assert.is(actions(back, 'member1')['ConfigMap/a'], 'created');
  fleet.config.git('rm', '-q', '-r', '.');
  fleet.config.git(
    '-c',
    'user.name=Ada',
    '-c',
    'user.email=ada@example.com',
    'commit',
    '-q',
    '-m',
    'wipe the repo',
    '--trailer',
    'Flotilla-Allow-Prune: oops',
  );
  const r = await pass();
  // The renderer already refuses an emptied source (its output keeps the last good tree), so the applier is never
  // even asked to delete; the applier's own empty-source hold is the second line (test/deliveries/pruneSafety).
  assert.ok(
    r.rendered.some((x) => x.problems.some((p) => p.code === 'SOURCE_EMPTY')),
    'the render is held as SOURCE_EMPTY',
  );
  assert.is(actions(r, 'member1')['ConfigMap/a (prune)'], undefined);
  assert.ok(await exists('member1', 'configmap', 'a', '-n', 'default'));
});

test.run();
