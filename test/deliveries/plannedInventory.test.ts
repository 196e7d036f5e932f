// Crash safety of the inventory: the applier records what it is about to apply on the status branch before it
// applies, so a process killed between the apply and its status commit leaves nothing it created unprunable.
// A real config repo, sync and the applier against emulated members on loopback; kubectl as the independent check.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyRendered } from '../../src/deliveries/applyRendered.ts';
import { parseInventoryFile } from '../../src/branches/status/inventory.ts';
import type { KubeTarget } from '../../src/deliveries/KubeTarget.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { reconcileOnce } from '../../src/reconcile.ts';
import { clusterYaml, configMapPolicy } from '../helpers/fleet.ts';
import { startMemberFleet, type MemberFleet } from './helpers/e2e.ts';

let fleet: MemberFleet;

const SOURCE = 'refs/heads/main';
const OUTPUT = 'refs/heads/flotilla/rendered';
const STATUS = 'refs/heads/flotilla/status';
const configMap = (name: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n  app: ${name}\n`;

const pass = () =>
  reconcileOnce({
    repo: fleet.repo,
    sourceRef: SOURCE,
    outputRef: OUTPUT,
    clusters: fleet.kubes,
    render: true,
    log: () => {},
  });
/** Everything a pass does up to its status commit, and then the process dies (kill -9): no status is written. */
const passKilledBeforeStatus = async () => {
  await syncRepo(fleet.repo, { sourceRef: SOURCE, outputRef: OUTPUT, statusRef: STATUS });
  return applyRendered({ repo: fleet.repo, outputRef: OUTPUT, clusters: fleet.kubes });
};
const exists = async (name: string) =>
  (await fleet.kubectl(['--context', 'member1', 'get', 'configmap', name, '-n', 'default'])).code === 0;
const inventoryFile = () => parseInventoryFile(fleet.config.show('flotilla/status', 'inventories/member1.json'));
const inventoryNames = () =>
  inventoryFile()
    .objects.map((r) => r.name)
    .sort();
const pendingNames = () => (inventoryFile().pending ?? []).map((r) => r.name).sort();
const statusCommits = () => Number(fleet.config.git('rev-list', '--count', 'flotilla/status'));

test.before(async () => {
  fleet = await startMemberFleet(
    ['member1'],
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'policies/all.yaml': configMapPolicy(['member1']),
      'templates/a.yaml': configMap('a'),
      'templates/b.yaml': configMap('b'),
      'templates/c.yaml': configMap('c'),
    },
    'three ConfigMaps',
  );
  const first = await pass();
  assert.equal(
    first.delivery!.clusters.get('member1')!.results.map((r) => r.action),
    ['created', 'created', 'created'],
  );
});

test.after(async () => {
  await fleet?.cleanup();
});

test('killed after creating an object and before the status commit: once its template is removed, the next pass prunes it', async () => {
  fleet.config.commit({ 'templates/new.yaml': configMap('new') }, 'add new');
  const killed = await passKilledBeforeStatus();
  assert.equal(
    killed.clusters
      .get('member1')!
      .results.filter((r) => r.action === 'created')
      .map((r) => r.ref.name),
    ['new'],
  );
  assert.ok(await exists('new'), 'the object landed on the member');
  assert.ok(
    fleet.config.git('log', '-1', '--format=%s', 'flotilla/status').startsWith('Inventory planned for member1'),
  );
  assert.equal(inventoryNames(), ['a', 'b', 'c']);
  assert.equal(pendingNames(), ['new'], 'recorded before the apply, so the kill cannot lose it');

  fleet.config.commit({ 'templates/new.yaml': null }, 'remove new again');
  const r = await pass();
  const pruned = r.delivery!.clusters.get('member1')!.results.filter((x) => x.prune);
  assert.equal(
    pruned.map((x) => [x.ref.name, x.action]),
    [['new', 'pruned']],
  );
  assert.not.ok(await exists('new'), 'no stale object left on the member');
  assert.equal(inventoryNames(), ['a', 'b', 'c']);
  assert.equal(pendingNames(), []);
});

test('killed after creating an object, which is then edited on the member: the next pass repairs it as its own', async () => {
  fleet.config.commit({ 'templates/edited.yaml': configMap('edited') }, 'add edited');
  await passKilledBeforeStatus();
  assert.equal(pendingNames(), ['edited']);
  const patched = await fleet.kubectl([
    '--context',
    'member1',
    'patch',
    'configmap',
    'edited',
    '-n',
    'default',
    '--type',
    'merge',
    '-p',
    '{"data":{"app":"by hand"}}',
  ]);
  assert.is(patched.code, 0, patched.stderr);
  // Labelled karmada.io/managed=true and applied by Flotilla: Karmada's object watcher updates such an object, and
  // Flotilla's prune already counts it as its own.
  const r = await pass();
  const edited = r.delivery!.clusters.get('member1')!.results.find((x) => x.ref.name === 'edited' && !x.prune)!;
  assert.is(edited.action, 'drift-repaired', edited.message);
  const live = await fleet.kubectl([
    '--context',
    'member1',
    'get',
    'configmap',
    'edited',
    '-n',
    'default',
    '-o',
    'jsonpath={.data.app}',
  ]);
  assert.is(live.stdout, 'edited');
  assert.equal(inventoryNames(), ['a', 'b', 'c', 'edited']);
  assert.equal(pendingNames(), []);
  fleet.config.commit({ 'templates/edited.yaml': null }, 'remove edited');
  await pass();
  assert.not.ok(await exists('edited'));
  assert.equal(inventoryNames(), ['a', 'b', 'c']);
});

test('a planned entry that was never created, or is not ours, is dropped without deleting anything', async () => {
  // Someone's own ConfigMap "mine" exists; Git adds a template of the same name; the pass dies after the apply.
  const made = await fleet.kubectl(
    ['--context', 'member1', 'create', '-f', '-'],
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'mine', namespace: 'default' },
      data: { from: 'hand' },
    }),
  );
  assert.is(made.code, 0, made.stderr);
  fleet.config.commit(
    { 'templates/mine.yaml': configMap('mine'), 'templates/never.yaml': configMap('never') },
    'add mine and never',
  );
  await syncRepo(fleet.repo, { sourceRef: SOURCE, outputRef: OUTPUT, statusRef: STATUS });
  // Killed even earlier: the planned inventory committed, nothing applied. Recorded by hand through the same path.
  const kubeOfNobody = new Map<string, KubeTarget>([
    ['member1', { ...fleet.kubes.get('member1')!, request: () => Promise.reject(new Error('killed')) }],
  ]);
  await applyRendered({
    repo: fleet.repo,
    outputRef: OUTPUT,
    clusters: kubeOfNobody,
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });
  assert.equal(pendingNames(), ['mine', 'never']);
  assert.not.ok(await exists('never'));

  fleet.config.commit({ 'templates/mine.yaml': null, 'templates/never.yaml': null }, 'remove them again');
  const r = await pass();
  const pruned = Object.fromEntries(
    r
      .delivery!.clusters.get('member1')!
      .results.filter((x) => x.prune)
      .map((x) => [x.ref.name, x.action]),
  );
  assert.equal(pruned, { never: 'pruned' }, 'mine is not ours: forgotten, not reported');
  assert.ok(await exists('mine'), 'never prune what is not ours');
  const live = await fleet.kubectl([
    '--context',
    'member1',
    'get',
    'configmap',
    'mine',
    '-n',
    'default',
    '-o',
    'jsonpath={.data.from}',
  ]);
  assert.is(live.stdout, 'hand');
  assert.equal(inventoryNames(), ['a', 'b', 'c']);
  assert.equal(pendingNames(), []);
});

test("a labelled object Flotilla never applied is not pruned from a pending entry: it lacks Flotilla's field manager", async () => {
  const made = await fleet.kubectl(
    ['--context', 'member1', 'create', '-f', '-'],
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'theirs', namespace: 'default', labels: { 'karmada.io/managed': 'true' } },
      data: { app: 'hand' },
    }),
  );
  assert.is(made.code, 0, made.stderr);
  fleet.config.commit({ 'templates/theirs.yaml': configMap('theirs') }, 'add theirs');
  const conflicted = await pass();
  assert.is(
    conflicted.delivery!.clusters.get('member1')!.results.find((r) => r.ref.name === 'theirs')!.action,
    'conflict',
    'a field conflict: never forced',
  );
  assert.equal(pendingNames(), ['theirs'], 'remembered as pending, not as ours');
  const again = await pass();
  assert.is(again.statusCommit, null, 'a conflict that stays a conflict commits nothing more');

  fleet.config.commit({ 'templates/theirs.yaml': null }, 'remove theirs');
  const r = await pass();
  assert.is(
    r.delivery!.clusters.get('member1')!.results.find((x) => x.prune && x.ref.name === 'theirs'),
    undefined,
    'forgotten, not deleted',
  );
  assert.ok(await exists('theirs'));
  assert.is(r.writes, 0);
  assert.equal(pendingNames(), []);
});

test('a pass that creates nothing new records nothing: one status commit at most, none on a resync', async () => {
  const before = statusCommits();
  fleet.config.commit({ 'templates/a.yaml': configMap('a').replace('app: a', 'app: a2') }, 'change a');
  await pass();
  assert.is(statusCommits(), before + 1, 'only the status commit: the inventory did not grow');
  const resync = await pass();
  assert.is(resync.writes, 0);
  assert.is(resync.statusCommit, null);
  assert.is(statusCommits(), before + 1);
});

test.run();
