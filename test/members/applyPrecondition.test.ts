import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness, waitFor } from './helpers/memberHarness.ts';

// A server-side apply whose configuration carries metadata.resourceVersion is conditional on it, as the apiserver's
// apply patcher makes it: the merged object goes to GuaranteedUpdate with that resourceVersion.

const harness = new MemberHarness();
let member: Member;
const URL = '/apis/apps/v1/namespaces/default/deployments/web';
const deployment = (replicas: number, resourceVersion?: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', ...(resourceVersion ? { resourceVersion } : {}) },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
  },
});
const apply = (body: unknown) =>
  api(member, 'PATCH', `${URL}?fieldManager=flotilla&force=true`, {
    body: JSON.stringify(body),
    contentType: 'application/apply-patch+yaml',
  });

test.before(async () => {
  member = await harness.start({ name: 'member1' });
});

test.after(async () => {
  await harness.cleanup();
});

test('an apply with a stale resourceVersion is a 409 Conflict and changes nothing; a current one applies', async () => {
  const created = await apply(deployment(2));
  assert.is(created.status, 201);
  const read = created.body.metadata.resourceVersion as string;
  const scaled = await api(member, 'PATCH', `${URL}/scale`, {
    body: JSON.stringify({ spec: { replicas: 5 } }),
    contentType: 'application/merge-patch+json',
  });
  assert.is(scaled.status, 200);

  const stale = await apply(deployment(2, read));
  assert.is(stale.status, 409);
  assert.is(stale.body.reason, 'Conflict');
  assert.match(
    stale.body.message,
    'the object has been modified; please apply your changes to the latest version and try again',
  );
  assert.is((await api(member, 'GET', URL)).body.spec.replicas, 5);

  // The Deployment controller writes status until all 5 pods are ready, each write a new resourceVersion: read the
  // current one once it has settled, so the apply below races nothing.
  const settled = await waitFor('web at 5 ready replicas', async () => {
    const d = (await api(member, 'GET', URL)).body;
    return d.status?.readyReplicas === 5 && d.status?.observedGeneration === d.metadata.generation ? d : undefined;
  });
  const current = settled.metadata.resourceVersion as string;
  const fresh = await apply(deployment(5, current));
  assert.is(fresh.status, 200);
  assert.is(fresh.body.spec.replicas, 5);
  assert.is.not(fresh.body.metadata.resourceVersion, '', 'the server sets the new resourceVersion');
});

test.run();
