// kill -9 of `flotilla run` in the middle of a propagation, then a restart: it resumes from what Git holds and
// converges with nothing lost, nothing duplicated, and one reconciler left.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { LOCK_FILE } from '../../src/passes/acquireRepoLock.ts';
import { spawnFlotilla, type Child } from '../helpers/spawnFlotilla.ts';
import {
  clusterRegistration,
  configMap,
  configMapPolicy,
  deployment,
  type Fleet,
  makeFleet,
  weightedPolicy,
} from '../helpers/fleet.ts';

const CONFIGMAPS = 30;
const MANAGED = 'karmada.io/managed';

let fleet: Fleet;
const children: Child[] = [];

test.before(async () => {
  fleet = await makeFleet({ members: ['member1', 'member2'], readyDelayMs: 0 });
});
test.after(async () => {
  for (const c of children) await c.kill9();
  await fleet?.cleanup();
});

/** `flotilla run` as its own process over the fleet's bare repo. */
function startRun(): Child {
  const run = spawnFlotilla([
    'run',
    '--repo',
    fleet.bare,
    '--credentials-dir',
    fleet.credentials,
    '--listen',
    '127.0.0.1:0',
    '--resync',
    '0',
  ]);
  children.push(run);
  return run;
}

/** The objects Flotilla manages on a member, name → uid. */
function managed(member: Member): Map<string, string> {
  const out = new Map<string, string>();
  for (const resource of ['/configmaps', 'apps/deployments']) {
    for (const o of member.store.list(resource, 'default')) {
      if (o.metadata.labels?.[MANAGED] === 'true') out.set(`${resource}/${o.metadata.name}`, o.metadata.uid!);
    }
  }
  return out;
}

test('kill -9 mid-apply, restart: members hold exactly the rendered objects (none recreated), output and status consistent', async () => {
  const files: Record<string, string> = {
    'clusters/member1.yaml': clusterRegistration('member1'),
    'clusters/member2.yaml': clusterRegistration('member2'),
    'templates/nginx.yaml': deployment('nginx', 2),
    'policies/nginx.yaml': weightedPolicy('nginx', ['member1', 'member2']),
    'policies/configmaps.yaml': configMapPolicy(['member1', 'member2']),
  };
  for (let i = 0; i < CONFIGMAPS; i++)
    files[`templates/cm-${String(i).padStart(2, '0')}.yaml`] = configMap(`cm-${String(i).padStart(2, '0')}`, `v${i}`);
  const sha = fleet.push(files, 'nginx and 30 ConfigMaps on two members');
  // Slow members, so the applier is still at work when the process dies.
  for (const m of fleet.members) await m.faults.set({ latencyMs: 150 });

  const run1 = startRun();
  const first = run1.events;
  await first.next('the render step', (e) => e.step === 'render' && e.sourceCommit === sha, 20_000);
  // The first object landing on member1 is the moment: render committed, apply under way.
  await new Promise<void>((resolve) => {
    const unsubscribe = fleet.members[0]!.store.subscribe((ev) => {
      if (ev.type === 'ADDED' && ev.object.metadata.labels?.[MANAGED] === 'true') {
        unsubscribe();
        resolve();
      }
    });
  });
  run1.child.kill('SIGKILL');
  const end1 = await run1.exited;
  assert.is(end1.signal, 'SIGKILL');
  assert.not.ok(
    first.entries.some((e) => e.step === 'pass'),
    'the first process never finished its pass',
  );
  assert.ok(existsSync(path.join(fleet.bare, LOCK_FILE)), 'killed -9, it left its lock behind');
  // Before the kill only the planned inventories were committed (what the apply may create, so it stays prunable).
  const statusBefore = fleet.git(fleet.bare, 'log', '--format=%s', 'flotilla/status').split('\n');
  assert.equal(statusBefore, ['Inventory planned for member1, member2'], 'no status was committed before the kill');
  assert.equal(fleet.git(fleet.bare, 'ls-tree', '--name-only', 'flotilla/status').split('\n'), ['inventories']);
  const atKill = fleet.members.map(managed);
  const partial = atKill.reduce((s, m) => s + m.size, 0);
  assert.ok(
    partial > 0 && partial < 2 * (CONFIGMAPS + 1),
    `killed mid-apply: ${partial} of ${2 * (CONFIGMAPS + 1)} objects applied`,
  );

  for (const m of fleet.members) await m.faults.reset();
  const run2 = startRun();
  const second = run2.events;
  try {
    const lock = await second.next('the stale lock taken over', (e) => e.step === 'lock', 20_000, true);
    assert.is((lock.tookOver as { pid: number }).pid, run1.child.pid);
    const pass = await second.next(
      'a converged pass',
      (e) => e.step === 'pass' && e.sourceCommit === sha,
      20_000,
      true,
    );
    assert.is(pass.error, undefined);
    assert.is(pass.rendered, 0, 'the render that finished before the kill is not redone');

    // Members: exactly what the rendered branch holds for them, and what was there at the kill is the same object.
    for (const [i, member] of fleet.members.entries()) {
      const name = `member${i + 1}`;
      const renderedFiles = fleet
        .git(fleet.bare, 'ls-tree', '-r', '--name-only', `flotilla/rendered:clusters/${name}/default`)
        .split('\n')
        .sort();
      const expected = renderedFiles
        .map((f) =>
          f.startsWith('configmap_')
            ? `/configmaps/${f.slice('configmap_'.length, -5)}`
            : `apps/deployments/${f.slice('deployment.apps_'.length, -5)}`,
        )
        .sort();
      const now = managed(member);
      assert.equal([...now.keys()].sort(), expected, `${name} holds exactly the rendered objects`);
      assert.is(now.size, CONFIGMAPS + 1);
      for (const [key, uid] of atKill[i]!) assert.is(now.get(key), uid, `${name} ${key} was not deleted and recreated`);
      assert.is((member.store.get('apps/deployments', 'default', 'nginx')!.spec as { replicas: number }).replicas, 1);
    }
    // Output branch: one commit for the source commit. Status branch: describes that rendered commit, inventories complete.
    const outputs = fleet
      .git(fleet.bare, 'log', '--format=%H', '--grep', `Source-Commit: ${sha}`, 'flotilla/rendered')
      .split('\n')
      .filter(Boolean);
    assert.is(outputs.length, 1, 'rendered once');
    const rendered = fleet.git(fleet.bare, 'rev-parse', 'flotilla/rendered');
    const statusMessage = fleet.git(fleet.bare, 'log', '-1', '--format=%B', 'flotilla/status');
    assert.match(statusMessage, `Rendered-Commit: ${rendered}`);
    assert.match(statusMessage, `Source-Commit: ${sha}`);
    for (const name of ['member1', 'member2']) {
      const inventory = JSON.parse(fleet.git(fleet.bare, 'show', `flotilla/status:inventories/${name}.json`)) as {
        objects: unknown[];
      };
      assert.is(inventory.objects.length, CONFIGMAPS + 1, `${name} inventory lists every applied object`);
    }
    const listen = String((await second.next('start', (e) => e.step === 'start', 1000, true)).listen);
    assert.is((await fetch(`${listen}/readyz`)).status, 200);
  } finally {
    run2.child.kill('SIGTERM');
    const end2 = await run2.exited;
    assert.is(end2.code, 0, run2.stderr());
  }
  assert.not.ok(existsSync(path.join(fleet.bare, LOCK_FILE)), 'a clean stop releases the lock: no reconciler left');
});

test.run();
