import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startReconciler } from '../../src/passes/startReconciler.ts';
import { signGeneric } from '../../src/passes/verifyWebhook.ts';
import { clusterRegistration, deployment, makeFleet, reconcilerOptions, weightedPolicy } from '../helpers/fleet.ts';
import { LogEvents } from '../helpers/logEvents.ts';
import { startGitHttpServer } from '../helpers/gitHttpServer.ts';

test('a remote repo: a signed webhook makes it fetch now (isomorphic-git over smart HTTP), apply, and push the rendered and status branches back', async () => {
  const fleet = await makeFleet({ members: ['member1', 'member2'], readyDelayMs: 0 });
  fleet.git(fleet.bare, 'config', 'http.receivepack', 'true');
  const server = await startGitHttpServer(path.dirname(fleet.bare));
  const events = new LogEvents();
  const reconciler = await startReconciler(
    reconcilerOptions(fleet, events.log, {
      source: {
        kind: 'remote',
        url: `${server.url}/repo.git`,
        mirrorDir: path.join(fleet.root, 'mirror.git'),
        fetchSchedule: '0 0 1 1 *',
      },
      listen: { host: '127.0.0.1', port: 0 },
      webhookSecret: 's3cret',
    }),
  );
  try {
    const sha = fleet.push({
      'clusters/member1.yaml': clusterRegistration('member1'),
      'clusters/member2.yaml': clusterRegistration('member2'),
      'templates/nginx.yaml': deployment('nginx', 4),
      'policies/nginx.yaml': weightedPolicy('nginx', ['member1', 'member2']),
    });
    const body = JSON.stringify({ ref: 'refs/heads/main', after: sha });
    const res = await fetch(`${reconciler.url}/hooks/generic`, {
      method: 'POST',
      body,
      headers: { 'X-Flotilla-Signature': signGeneric(body, 's3cret'), 'X-Flotilla-Delivery': 'd-1' },
    });
    assert.is(res.status, 202);
    await events.next(
      'the pass of the pushed commit',
      (e) => e.step === 'pass' && e.sourceCommit === sha,
      20_000,
      true,
    );
    const fetched = events.entries.find((e) => e.step === 'fetch' && e.sourceCommit === sha);
    assert.ok(fetched, 'the pass fetched the new head');
    for (const m of fleet.members)
      assert.is((m.store.get('apps/deployments', 'default', 'nginx')!.spec as { replicas: number }).replicas, 2);
    const pushed = events.entries.find((e) => e.step === 'push' && e.sourceCommit === sha) as
      | { pushed: string[] }
      | undefined;
    assert.equal(pushed?.pushed.sort(), ['flotilla/rendered', 'flotilla/status']);
    const message = fleet.git(fleet.bare, 'log', '-1', '--format=%B', 'flotilla/rendered');
    assert.match(message, `Source-Commit: ${sha}`, 'the remote holds the rendered branch');
    assert.match(fleet.git(fleet.bare, 'log', '-1', '--format=%B', 'flotilla/status'), `Source-Commit: ${sha}`);
  } finally {
    await reconciler.stop();
    await server.close();
    await fleet.cleanup();
  }
});

test.run();
