import { spawn } from 'node:child_process';
import path from 'node:path';
import { Agent } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LockHeldError } from '../../src/passes/acquireRepoLock.ts';
import { startReconciler, type Reconciler } from '../../src/passes/startReconciler.ts';
import {
  clusterRegistration,
  deployment,
  type Fleet,
  makeFleet,
  reconcilerOptions,
  weightedPolicy,
} from '../helpers/fleet.ts';
import { LogEvents } from '../helpers/logEvents.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

let fleet: Fleet;
let events: LogEvents;
let reconciler: Reconciler;

test.before(async () => {
  fleet = await makeFleet({ members: ['member1', 'member2'], readyDelayMs: 0 });
  events = new LogEvents();
  reconciler = await startReconciler(reconcilerOptions(fleet, events.log));
});
test.after(async () => {
  await reconciler?.stop();
  await fleet?.cleanup();
});

const replicasOn = (i: number, name = 'nginx') =>
  (fleet.members[i]!.store.get('apps/deployments', 'default', name)?.spec as { replicas?: number } | undefined)
    ?.replicas;
const passFor = (sha: string) => (e: Record<string, unknown>) => e.step === 'pass' && e.sourceCommit === sha;

test('a git push into the bare repo starts a pass at once; clusters come from their registrations in Git', async () => {
  const sha = fleet.push(
    {
      'clusters/member1.yaml': clusterRegistration('member1'),
      'templates/nginx.yaml': deployment('nginx', 2),
      'policies/nginx.yaml': weightedPolicy('nginx', ['member1', 'member2']),
    },
    'nginx on member1 only: member2 is not registered yet',
  );
  const pass = await events.next('the pass of the pushed commit', passFor(sha));
  assert.equal(pass.reasons, ['push']);
  assert.is(replicasOn(0), 2, 'all replicas on the one registered cluster');
  assert.is(replicasOn(1), undefined, 'member2 is not registered: nothing delivered there');
  assert.ok(
    events.entries.some((e) => e.step === 'render' && e.sourceCommit === sha),
    'the render step names the source commit',
  );
  assert.ok(events.entries.some((e) => e.step === 'apply' && e.cluster === 'member1' && e.sourceCommit === sha));
});

test('a cluster registered in a later commit is delivered to in the pass of that commit; replicas move 2+2', async () => {
  const sha = fleet.push(
    { 'clusters/member2.yaml': clusterRegistration('member2'), 'templates/nginx.yaml': deployment('nginx', 4) },
    'register member2, 4 replicas',
  );
  await events.next('the pass of the second commit', passFor(sha));
  assert.is(replicasOn(0), 2);
  assert.is(replicasOn(1), 2);
});

test('resync re-applies drift found on a member; once converged a pass writes nothing and commits nothing', async () => {
  const kube = fleet.members[1]!;
  // Drift: someone deletes the Deployment on member2 behind Flotilla's back.
  const agent = new Agent({ connect: { ca: kube.caPem } });
  const res = await fetch(`${kube.url}/apis/apps/v1/namespaces/default/deployments/nginx`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${kube.token}` },
    // The member's CA is its own; undici takes it per request through a dispatcher.
    dispatcher: agent,
  } as RequestInit);
  assert.is(res.status, 200, await res.text());
  await agent.close();
  assert.is(replicasOn(1), undefined);
  await reconciler.kick('resync');
  assert.is(replicasOn(1), 2, 'the drift was repaired');
  // Status settles as pods turn ready; then a pass is a no-op.
  let last: Reconciler['lastPass'];
  for (let i = 0; i < 10; i++) {
    await reconciler.kick('resync');
    last = reconciler.lastPass;
    if (last?.result?.statusCommit === null) break;
  }
  await reconciler.kick('resync');
  last = reconciler.lastPass;
  assert.ok(last?.ok);
  assert.is(last!.result!.writes, 0, 'no writes to members');
  assert.is(last!.result!.statusCommit, null, 'no status commit');
  assert.is(last!.result!.rendered.length, 0, 'nothing rendered');
});

test('packed-refs rewrites (git pack-refs) are watched too', async () => {
  const before = events.entries.length;
  fleet.git(fleet.bare, 'pack-refs', '--all', '--prune');
  const pass = await events.next(
    'a pass after pack-refs',
    (e) => e.step === 'pass' && events.entries.indexOf(e) >= before,
  );
  assert.equal(pass.reasons, ['push']);
});

test('a force-push to the watched branch is detected, logged, and its new head rendered', async () => {
  fleet.git(fleet.work.dir, 'reset', '-q', '--hard', 'HEAD~1');
  fleet.git(fleet.work.dir, 'commit', '-q', '--allow-empty', '-m', 'rewritten history');
  fleet.git(fleet.work.dir, 'push', '-q', '--force', 'origin', 'HEAD:main');
  const sha = fleet.git(fleet.work.dir, 'rev-parse', 'HEAD');
  const warning = await events.next(
    'the force-push warning',
    (e) => e.step === 'render' && typeof e.warning === 'string',
  );
  assert.match(String(warning.warning), 'force-pushed');
  assert.is(warning.sourceCommit, sha);
  await events.next('the pass of the new head', passFor(sha), 15_000, true);
  assert.is(replicasOn(0), 2, 'the rewritten head registers member1 only and has 2 replicas');
});

test('one reconciler per repo: a second one in-process, and `flotilla run` as a process, are refused naming the holder', async () => {
  try {
    await startReconciler({
      source: { kind: 'local', path: fleet.bare },
      clusters: { kind: 'fixed', targets: new Map() },
      resyncMs: 0,
      log: () => undefined,
    });
    assert.unreachable('the second reconciler started');
  } catch (err) {
    assert.instance(err, LockHeldError);
  }
  const child = spawn(process.execPath, [BIN, 'run', '--repo', fleet.bare, '--listen', '127.0.0.1:0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.is(code, 2);
  assert.match(
    stderr,
    `another reconciler holds ${path.join(fleet.bare, 'flotilla-reconciler.lock')}: pid ${process.pid}`,
  );
});

test.run();
