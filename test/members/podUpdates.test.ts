import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness } from './helpers/memberHarness.ts';

// A pod's spec is fixed once it is created, except what ValidatePodUpdate lets change: kubectl sees the same 422 as
// from a real member, and the fields admission added (the service account's volume, default tolerations) never count
// as a change, so applying the same manifest again still succeeds.

const harness = new MemberHarness();
let member: Member;
let kubectl: ReturnType<MemberHarness['kubectl']>;

test.before(async () => {
  member = await harness.start({ name: 'member1' });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

const manifest = (image: string, command?: string[]) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: { containers: [{ name: 'web', image, ...(command ? { command } : {}) }] },
  });

test("a pod's image changes by apply, and again by the same apply, client-side or server-side", async () => {
  const file = path.join(harness.tempDir(), 'web.json');
  writeFileSync(file, manifest('nginx:1'));
  assert.is((await kubectl(['apply', '-f', file])).code, 0);
  assert.is((await kubectl(['apply', '-f', file])).code, 0);
  writeFileSync(file, manifest('nginx:2'));
  const applied = await kubectl(['apply', '-f', file]);
  assert.is(applied.code, 0, applied.stderr);
  assert.match(applied.stdout, 'pod/web configured');
  const serverSide = await kubectl(['apply', '--server-side', '--force-conflicts', '-f', file]);
  assert.is(serverSide.code, 0, serverSide.stderr);
  const stored = (await api(member, 'GET', '/api/v1/namespaces/default/pods/web')).body;
  assert.is(stored.spec.containers[0].image, 'nginx:2');
});

test("an apply, a patch or a replace that changes anything else of a pod's spec is refused and changes nothing", async () => {
  const file = path.join(harness.tempDir(), 'web-command.json');
  writeFileSync(file, manifest('nginx:2', ['sleep', '3600']));
  const applied = await kubectl(['apply', '-f', file]);
  assert.is.not(applied.code, 0);
  assert.match(
    applied.stderr,
    'The Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
  );
  assert.match(applied.stderr, /\+ \tContainers: \[.*"command":\["sleep","3600"\]/);

  const patched = await kubectl(['patch', 'pod', 'web', '-p', '{"spec":{"restartPolicy":"Never"}}']);
  assert.is.not(patched.code, 0);
  assert.match(patched.stderr, 'spec: Forbidden: pod updates may not change fields other than');
  const added = await kubectl([
    'patch',
    'pod',
    'web',
    '--type=json',
    '-p',
    '[{"op":"add","path":"/spec/containers/-","value":{"name":"side","image":"busybox"}}]',
  ]);
  assert.match(added.stderr, 'spec.containers: Forbidden: pod updates may not add or remove containers');
  const stored = (await api(member, 'GET', '/api/v1/namespaces/default/pods/web')).body;
  assert.is(stored.spec.restartPolicy, 'Always');
  assert.equal(
    stored.spec.containers.map((c: { name: string }) => c.name),
    ['web'],
  );
  assert.is(stored.spec.containers[0].command, undefined);
});

test('a pod gains a toleration and a shorter activeDeadlineSeconds, and may not lengthen it', async () => {
  const patch = (body: unknown) => kubectl(['patch', 'pod', 'web', '-p', JSON.stringify(body)]);
  assert.is((await patch({ spec: { activeDeadlineSeconds: 600 } })).code, 0);
  assert.is(
    (await patch({ spec: { activeDeadlineSeconds: 300, tolerations: [{ key: 'spot', operator: 'Exists' }] } })).code,
    0,
  );
  const longer = await patch({ spec: { activeDeadlineSeconds: 900 } });
  assert.match(
    longer.stderr,
    'spec.activeDeadlineSeconds: Invalid value: 900: must be less than or equal to previous value',
  );
  const stored = (await api(member, 'GET', '/api/v1/namespaces/default/pods/web')).body;
  assert.is(stored.spec.activeDeadlineSeconds, 300);
  assert.ok(stored.spec.tolerations.some((t: { key?: string }) => t.key === 'spot'));
});

test.run();
