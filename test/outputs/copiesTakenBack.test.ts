// When an eviction's graceful tasks end by time with nothing else moved, a sync writes the end from the last bindings
// (outputs/steadyResults.ts endedResultOf): a Divided copy leaves the freed cluster, a Duplicated one stays, taken
// back. A copy is taken back as it stands only where a render of this source would write it; everywhere else the
// template renders, and the output is what a cold render gives (verify).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { refKey } from '../../src/api/kinds.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { configureToolSearch, PINNED_TOOLS_DIR } from '../../src/units/unitTools.ts';
import {
  configMap,
  deployment,
  MEMBERS,
  makeConfigRepoWith,
  policy,
  weightedPolicy,
  type ConfigRepo,
} from '../helpers/fleet.ts';
import { at, commitStatus, notReadyCluster, syncAt, tasksOf, trailer } from '../helpers/failoverState.ts';
import { unitSuite } from '../helpers/unitSuite.ts';
import { helmGuestbook } from '../units/unitFixtures.ts';
import { assertVerifies } from './helpers/assertVerifies.ts';

const OUT = 'refs/heads/flotilla/rendered';
const { repos } = unitSuite(test);
const scratch = mkdtempSync(path.join(tmpdir(), 'flotilla-copies-'));
test.after(() => rmSync(scratch, { recursive: true, force: true }));

const ref = (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name });

/**
 * web (a Deployment) and settings (a ConfigMap) Duplicated on member1 and member2, a Divided 1:1 over both; member2
 * NotReady and tainted NoExecute at 40 s, Ready again at 60 s, so each keeps a copy there under a task until 640 s.
 */
async function evictedAndBack(r: ConfigRepo) {
  const repo = await openRepo(r.dir);
  const sync = syncAt(repo);
  await sync(0);
  commitStatus(r, { member2: notReadyCluster('2026-11-29T15:00:30Z') });
  await sync(40);
  commitStatus(r, { member1: {}, member2: {} });
  await sync(60);
  for (const name of ['web', 'a']) assert.is(tasksOf(r, name).length, 1, name);
  return sync;
}

const evictionFleet = () => ({
  ...MEMBERS,
  'templates/web.yaml': deployment('web', 2),
  'templates/settings.yaml': configMap('settings'),
  'templates/a.yaml': deployment('a', 2),
  'policies/everything.yaml': policy(['member1', 'member2']),
  'policies/a.yaml': weightedPolicy('a', ['member1', 'member2']),
});
const onMember2 = (r: ConfigRepo) =>
  r.git('ls-tree', '-r', '--name-only', 'flotilla/rendered', 'clusters/member2').split('\n').filter(Boolean);

test("a grace period's end with nothing else moved renders nothing: member2 takes back the Duplicated copies it kept", async () => {
  const r = makeConfigRepoWith(repos, evictionFleet(), 'web and settings Duplicated, a Divided');
  const sync = await evictedAndBack(r);
  const [ended] = (await sync(641)).reports;
  assert.equal([...ended!.explanations.keys()], [], 'no template rendered');
  assert.equal(
    ended!.failover.map((e) => [e.type, e.ref.name, e.type === 'released' && e.placedAgain === true]),
    [
      ['released', 'a', false],
      ['released', 'web', true],
      ['released', 'settings', true],
    ],
  );
  assert.equal(onMember2(r), [
    'clusters/member2/default/configmap_settings.yaml',
    'clusters/member2/default/deployment.apps_web.yaml',
  ]);
  for (const name of ['web', 'a']) assert.is(tasksOf(r, name).length, 0, name);
  assert.is(trailer(r, 'Graceful-Evictions'), undefined);
  await assertVerifies(r);
});

test('a copy kept through an eviction whose source moved meanwhile is written again when its cluster takes it back', async () => {
  const r = makeConfigRepoWith(repos, evictionFleet(), 'web and settings Duplicated, a Divided');
  const sync = await evictedAndBack(r);
  r.commit({ 'templates/web.yaml': deployment('web', 2).replace('nginx:1.27', 'nginx:1.28') }, 'web on nginx 1.28');
  await sync(100);
  const member2 = () => r.show('flotilla/rendered', 'clusters/member2/default/deployment.apps_web.yaml');
  assert.match(member2(), 'nginx:1.27', "member2's copy is kept as it was while its task lasts");
  const [ended] = (await sync(641)).reports;
  assert.ok(ended!.explanations.has(refKey(ref('web'))), 'web renders');
  assert.match(member2(), 'nginx:1.28');
  await assertVerifies(r);
});

test('a copy kept from a render that held its template for the output budget is written again when its cluster takes it back', async () => {
  const r = makeConfigRepoWith(repos, evictionFleet(), 'web and settings Duplicated, a Divided');
  const repo = await openRepo(r.dir);
  const sync = syncAt(repo);
  const member2 = () => r.show('flotilla/rendered', 'clusters/member2/default/deployment.apps_web.yaml');
  await sync(0);
  r.commit({ 'templates/web.yaml': deployment('web', 2).replace('nginx:1.27', 'nginx:1.28') }, 'web on nginx 1.28');
  const held = (await sync(20, 100)).reports[0]!;
  assert.equal(
    held.problems.map((p) => p.code),
    ['COMMIT_TOO_LARGE'],
  );
  assert.match(member2(), 'nginx:1.27', "web's last output kept, from the source before");
  // The budget raised as member2 goes down: web renders on member1, while member2 keeps its copy under a task.
  commitStatus(r, { member2: notReadyCluster('2026-11-29T15:00:30Z') });
  await sync(40);
  assert.is(tasksOf(r, 'web').length, 1);
  assert.match(member2(), 'nginx:1.27');
  commitStatus(r, { member1: {}, member2: {} });
  await sync(60);
  const [ended] = (await sync(641)).reports;
  assert.ok(ended!.explanations.has(refKey(ref('web'))), 'web renders');
  assert.match(member2(), 'nginx:1.28');
  await assertVerifies(r);
});

test('past its output budget a grace end renders whole, holding what a render of every template holds', async () => {
  const r = makeConfigRepoWith(repos, evictionFleet(), 'web and settings Duplicated, a Divided');
  await evictedAndBack(r);
  const [ended] = (await syncAt(await openRepo(r.dir))(641, 1500)).reports;
  assert.ok(ended!.problems.some((p) => p.code === 'COMMIT_TOO_LARGE'));
  assert.ok(ended!.explanations.size > 0, 'rendered');
  await assertVerifies(r);
});

/** A tools folder whose helm runs the pinned one with `extra` arguments, and says it is `helm`'s version. */
function helmAs(name: string, helm: string, extra = ''): string {
  const dir = path.join(scratch, name);
  mkdirSync(dir, { recursive: true });
  for (const [tool, args] of [
    ['helm', extra],
    ['kubectl', ''],
  ] as const) {
    writeFileSync(path.join(dir, tool), `#!/bin/sh\nexec '${path.join(PINNED_TOOLS_DIR, tool)}' "$@" ${args}\n`);
    chmodSync(path.join(dir, tool), 0o755);
  }
  writeFileSync(path.join(dir, 'versions.json'), JSON.stringify({ helm, kustomize: 'v5.5.0' }));
  return dir;
}

test('a copy kept through an eviction while another helm rendered its chart is written again when it is taken back', async () => {
  configureToolSearch({ pinnedDir: helmAs('first', 'v3.17.2'), searchPath: '' });
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'policies/guestbook.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: guestbook
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: helm-guestbook}
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
`,
    },
    'the guestbook chart Duplicated on member1 and member2',
  );
  const repo = await openRepo(r.dir);
  const sync = syncAt(repo);
  const image = (cluster: string) =>
    /image: (\S+)/.exec(
      r.show('flotilla/rendered', `clusters/${cluster}/default/deployment.apps_helm-guestbook.yaml`),
    )?.[1];
  await sync(0);
  commitStatus(r, { member2: notReadyCluster('2026-11-29T15:00:30Z') });
  await sync(40);
  commitStatus(r, { member1: {}, member2: {} });
  await sync(60);
  // Another helm gives the chart another image, and the same source renders again (as a cluster's state moving makes
  // it): every unit runs again, and member1's copy moves; member2's, under its task, is kept as it was.
  configureToolSearch({ pinnedDir: helmAs('second', 'v3.17.3', '--set image.tag=v9'), searchPath: '' });
  await renderRevision(repo, r.git('rev-parse', 'main'), { outputRef: OUT, now: at(100) }, new Set());
  assert.match(image('member1') ?? '', ':v9');
  assert.not.match(image('member2') ?? '', ':v9');
  const [ended] = (await sync(641)).reports;
  assert.ok(ended!.explanations.has(refKey(ref('helm-guestbook'))), 'the guestbook renders');
  assert.match(image('member2') ?? '', ':v9');
  await assertVerifies(r);
});

test.run();
