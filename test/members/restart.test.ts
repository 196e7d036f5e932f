import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { statSync } from 'node:fs';
import path from 'node:path';
import { api, MemberHarness, waitFor } from './helpers/memberHarness.ts';

// State, CA, token and port survive a restart on the same data dir.

const harness = new MemberHarness();

test.after(async () => {
  await harness.cleanup();
});

test('a member restarted on the same dataDir keeps its objects, CA, token and port', async () => {
  const dataDir = harness.tempDir();
  const first = await harness.start({ name: 'member1', dataDir });
  const created = await api(first, 'POST', '/api/v1/namespaces/default/configmaps', {
    body: { metadata: { name: 'kept' }, data: { k: 'v' } },
  });
  assert.is(created.status, 201);
  const deploy = await api(first, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/web?fieldManager=test', {
    contentType: 'application/apply-patch+yaml',
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
      },
    },
  });
  assert.is(deploy.status, 201);
  await waitFor(
    '2 ready',
    async () =>
      (await api(first, 'GET', '/apis/apps/v1/namespaces/default/deployments/web')).body.status?.readyReplicas === 2,
  );
  const rvBefore = first.store.resourceVersion;
  await first.stop();
  assert.is(statSync(path.join(dataDir, 'state.json')).mode & 0o777, 0o600);

  const second = await harness.start({ name: 'member1', dataDir, port: undefined });
  assert.is(second.port, first.port);
  assert.is(second.caPem, first.caPem);
  assert.is(second.token, first.token);
  const kept = await api(second, 'GET', '/api/v1/namespaces/default/configmaps/kept');
  assert.is(kept.status, 200);
  assert.equal(kept.body.data, { k: 'v' });
  assert.is(kept.body.metadata.uid, created.body.metadata.uid);
  const pods = await api(second, 'GET', '/api/v1/namespaces/default/pods?labelSelector=app%3Dweb');
  assert.is(pods.body.items.length, 2, 'the same two pods, not new ones');
  assert.ok(Number(pods.body.metadata.resourceVersion) >= rvBefore, 'resourceVersion never goes backwards');
  // The managedFields recorded before the restart still drive conflicts after it.
  const conflict = await api(
    second,
    'PATCH',
    '/apis/apps/v1/namespaces/default/deployments/web?fieldManager=intruder',
    {
      contentType: 'application/apply-patch+yaml',
      body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 5 } },
    },
  );
  assert.is(conflict.status, 409);
});

test.run();
