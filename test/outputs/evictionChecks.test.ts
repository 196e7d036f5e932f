// Graceful eviction tasks end when their replacements report healthy or their grace period runs out (Karmada's
// graceful eviction controller): a sync looks again only at the templates whose status moved, until the earliest
// grace end the output records (Eviction-Check) comes; then at every one. Of those, only a template whose task ends
// renders again.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stringify } from 'yaml';
import { refKey } from '../../src/api/kinds.ts';
import { templateStatusPath } from '../../src/branches/status/statusFiles.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { deployment, MEMBERS, makeConfigRepoWith, weightedPolicy, type ConfigRepo } from '../helpers/fleet.ts';
import { assertVerifies } from './helpers/assertVerifies.ts';
import { loadChange } from './helpers/loadChange.ts';
import { at, commitStatus, notReadyCluster, syncAt, tasksOf, trailer } from '../helpers/failoverState.ts';

const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const ref = (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name });
/** The aggregated status the applier writes once member1 runs all of a Deployment's replicas, healthy. */
const healthyOnMember1 = (name: string, replicas: number) =>
  stringify({
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name: `${name}-deployment`, namespace: 'default' },
    aggregatedStatus: [
      {
        clusterName: 'member1',
        applied: true,
        health: 'Healthy',
        status: { replicas, updatedReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas },
      },
    ],
  });

/** Deployments of 2 replicas, each Divided 1:1 over member1 and member2, rendered at T0; `sync(s)` s seconds later. */
async function dividedFleet(names: string[]) {
  const files: Record<string, string> = { ...MEMBERS };
  for (const name of names) {
    files[`templates/${name}.yaml`] = deployment(name, 2);
    files[`policies/${name}.yaml`] = weightedPolicy(name, ['member1', 'member2']);
  }
  const r = makeConfigRepoWith(repos, files, `${names.join(' and ')} Divided 1:1 over member1 and member2`);
  const repo = await openRepo(r.dir);
  const sync = syncAt(repo);
  await sync(0);
  return { r, sync };
}

test('an eviction task ends when its replacements report healthy, and only a template whose task ends renders', async () => {
  const { r, sync } = await dividedFleet(['a', 'b']);
  const repo = await openRepo(r.dir);
  const source = r.git('rev-parse', 'main');
  // What a render of the same source renders now (renderRevision, as sync calls it with nothing else to do): it
  // commits only when something comes out different.
  const look = async (s: number) => {
    const report = await renderRevision(repo, source, { outputRef: OUT, now: at(s) }, new Set());
    return { rendered: [...report.explanations.keys()].sort(), committed: report.outputCommit !== null };
  };
  const down = notReadyCluster('2026-11-29T15:00:30Z');

  // member2 NotReady and tainted NoExecute, tolerated by neither: both leave it, each with a task of 600 s.
  commitStatus(r, { member2: down });
  const evicted = (await sync(40)).reports;
  assert.equal(
    evicted[0]!.failover.map((e) => e.type),
    ['evicted', 'evicted'],
  );
  assert.is(trailer(r, 'Graceful-Evictions'), '2');
  // Tasks made by a render wait for the next, which looks at them whatever the status branch says.
  assert.is(trailer(r, 'Eviction-Check'), '2026-11-29T15:00:40Z', 'due at the next render');
  assert.equal(
    await look(50),
    { rendered: [], committed: false },
    'no replacement reports healthy: both tasks stay, and neither template renders',
  );

  // a runs healthy on member1: its task ends, and a alone renders; b, looked at too, keeps its task.
  commitStatus(r, { member1: {}, member2: down }, { [templateStatusPath(ref('a'))]: healthyOnMember1('a', 2) });
  const healthy = (await sync(80)).reports;
  assert.equal(
    healthy[0]!.failover.map((e) => [e.type, e.ref.name]),
    [['released', 'a']],
  );
  assert.equal([...healthy[0]!.explanations.keys()], [refKey(ref('a'))]);
  assert.is(tasksOf(r, 'a').length, 0);
  assert.is(tasksOf(r, 'b').length, 1);
  assert.is(trailer(r, 'Eviction-Check'), '2026-11-29T15:10:40Z', "b's task, made at 15:00:40, ends at 15:10:40");

  // The status branch moves, but not b's status: nothing renders. b's status moves, short of its replicas: its task
  // stays, and b does not render either.
  commitStatus(
    r,
    { member1: {}, member2: down, member3: {} },
    { [templateStatusPath(ref('a'))]: healthyOnMember1('a', 2) },
  );
  assert.equal(await look(90), { rendered: [], committed: false });
  commitStatus(
    r,
    { member1: {}, member2: down, member3: {} },
    {
      [templateStatusPath(ref('a'))]: healthyOnMember1('a', 2),
      [templateStatusPath(ref('b'))]: healthyOnMember1('b', 1),
    },
  );
  assert.equal(await look(100), { rendered: [], committed: false }, 'b reports 1 of its 2 replicas');
  assert.is(tasksOf(r, 'b').length, 1);
  await assertVerifies(r);

  // At its grace end b's task stays; past it, it ends by time.
  assert.is((await sync(640)).reports.length, 0, 'at its grace end, not yet past it');
  const ended = (await sync(641)).reports;
  assert.equal(
    ended[0]!.failover.map((e) => [e.type, e.ref.name]),
    [['released', 'b']],
  );
  assert.is(tasksOf(r, 'b').length, 0);
  assert.is(trailer(r, 'Graceful-Evictions'), undefined);
  assert.is(trailer(r, 'Eviction-Check'), undefined);
  await assertVerifies(r);
});

test('the same source rendered again changes no cluster: a template whose task ends is rendered only where its placement moved', async () => {
  const { r, sync } = await dividedFleet(['a']);
  commitStatus(r, { member2: notReadyCluster('2026-11-29T15:00:30Z') });
  await sync(40);
  assert.is(tasksOf(r, 'a').length, 1);
  // What the render after the grace period loads: nothing in Git moved, so no cluster did (renderTemplates then keeps
  // a's file on member1, where it stays with the same replicas, and removes member2's).
  const loaded = await loadChange(r, 'main', 'main');
  assert.equal(loaded.onlyClustersChanged, new Set());
  const ended = (await sync(641)).reports;
  assert.equal(
    ended[0]!.failover.map((e) => [e.type, e.ref.name, e.type === 'released' ? e.cluster : '']),
    [['released', 'a', 'member2']],
  );
  assert.not.ok(r.git('ls-tree', '-r', '--name-only', 'flotilla/rendered', 'clusters/member2').includes('deployment'));
  await assertVerifies(r);
});

test('a template held for the output budget renders on every cluster when it next renders, though the source is the same', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'templates/a.yaml': deployment('a', 2),
      'policies/a.yaml': weightedPolicy('a', ['member1', 'member2']),
    },
    'a Divided 1:1 over member1 and member2',
  );
  const repo = await openRepo(r.dir);
  const sync = syncAt(repo);
  const MEMBER1 = 'clusters/member1/default/deployment.apps_a.yaml';
  const image = () => /image: (\S+)/.exec(r.show('flotilla/rendered', MEMBER1))?.[1];
  await sync(0);
  commitStatus(r, { member2: notReadyCluster('2026-11-29T15:00:30Z') });
  await sync(40); // a's copy on member2 under a task; member1 runs both replicas
  // Room for member1's manifest and the binding without its task, not with it: the change below is held.
  const room =
    Buffer.byteLength(r.show('flotilla/rendered', MEMBER1)) +
    Buffer.byteLength(r.show('flotilla/rendered', 'bindings/default/a-deployment.yaml')) -
    100;
  // A new image and cpu request: member1's manifest and the binding (its replica requirements) are written again.
  r.commit(
    { 'templates/a.yaml': deployment('a', 2).replace('nginx:1.27', 'nginx:1.28').replace('cpu: 10m', 'cpu: 20m') },
    'a on nginx 1.28, 20m of cpu',
  );
  const held = (await sync(60, room)).reports[0]!;
  assert.equal(
    held.problems.map((p) => p.code),
    ['COMMIT_TOO_LARGE'],
  );
  assert.is(image(), 'nginx:1.27', 'its last output kept');
  // The grace period ends: the same source renders again. a was held, so its file on member1 is not taken as made
  // from this source: it renders there too, now within the room.
  const ended = (await sync(641, room)).reports[0]!;
  assert.equal(ended.problems, []);
  assert.is(image(), 'nginx:1.28');
  assert.is(tasksOf(r, 'a').length, 0);
  await assertVerifies(r);
});

test('an output without an Eviction-Check, as an earlier version wrote it, has every task looked at', async () => {
  const { r, sync } = await dividedFleet(['a']);
  // member2 goes NotReady while member1 already reports both replicas of a healthy: the task the eviction makes could
  // end at the next render that looks at it.
  commitStatus(
    r,
    { member2: notReadyCluster('2026-11-29T15:00:30Z') },
    { [templateStatusPath(ref('a'))]: healthyOnMember1('a', 2) },
  );
  await sync(40);
  assert.is(tasksOf(r, 'a').length, 1);
  // The same output with another Eviction-Check line, or none, as an earlier version wrote it.
  const eviction = r.git('rev-parse', 'flotilla/rendered');
  const withCheck = (line: string) => {
    const message = r.git('log', '-1', '--format=%B', eviction).replace(/^Eviction-Check: .*\n/m, line);
    const commit = r.git(
      ...['-c', 'user.name=Flotilla', '-c', 'user.email=f@localhost', 'commit-tree', `${eviction}^{tree}`],
      ...['-p', `${eviction}^`, '-m', message],
    );
    r.git('update-ref', 'refs/heads/flotilla/rendered', commit);
  };
  const look = async () => {
    const report = await renderRevision(
      await openRepo(r.dir),
      r.git('rev-parse', 'main'),
      { outputRef: OUT, now: at(60) },
      new Set(),
    );
    return { rendered: [...report.explanations.keys()], committed: report.outputCommit !== null };
  };
  withCheck('Eviction-Check: 2026-11-29T15:10:40Z\n');
  assert.equal(await look(), { rendered: [], committed: false }, 'not due, no status moved: not looked at');
  withCheck('');
  assert.is(trailer(r, 'Eviction-Check'), undefined);
  assert.equal(
    await look(),
    { rendered: [refKey(ref('a'))], committed: true },
    'without a check, looked at though nothing moved: its task ends',
  );
  assert.is(tasksOf(r, 'a').length, 0);
});

test.run();
