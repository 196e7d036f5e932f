import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, MemberHarness } from './helpers/memberHarness.ts';
import type { Member } from '../../src/members/startMember.ts';

const harness = new MemberHarness();
let member: Member;

test.before(async () => {
  member = await harness.start({ name: 'member-counts' });
});

test.after(async () => {
  await harness.cleanup();
});

test('requestsByMethod counts client requests by method, and not the writes of the simulated controllers', async () => {
  const before = (m: string) => member.requestsByMethod.get(m) ?? 0;
  const posts = before('POST');
  const gets = before('GET');
  const created = await api(member, 'POST', '/apis/apps/v1/namespaces/default/deployments', {
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
  assert.is(created.status, 201);
  await member.settled();
  assert.ok(member.store.list('/pods', 'default').length >= 2, 'the controllers created pods');
  assert.is(before('POST') - posts, 1, 'only the client POST is counted');
  assert.is((await api(member, 'DELETE', '/apis/apps/v1/namespaces/default/deployments/web')).status, 200);
  assert.is(before('DELETE'), 1);
  assert.is(before('GET') - gets, 0);
  assert.is((await api(member, 'GET', '/api/v1/namespaces')).status, 200);
  assert.is(before('GET') - gets, 1);
});

test.run();
