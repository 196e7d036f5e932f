// End to end: a Kustomize folder and a Helm chart pushed to a bare repo, the reconciler rendering and applying them
// to an emulated member, kubectl 1.32 reading what landed there; then a replicaCount change in values.yaml.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startReconciler, type Reconciler } from '../../src/passes/startReconciler.ts';
import { clusterRegistration, type Fleet, makeFleet, reconcilerOptions } from '../helpers/fleet.ts';
import { LogEvents } from '../helpers/logEvents.ts';
import { kubectl } from '../deliveries/helpers/e2e.ts';
import { GUESTBOOK_POLICY, helmGuestbook, KUSTOMIZE_GUESTBOOK } from './unitFixtures.ts';

let fleet: Fleet;
let events: LogEvents;
let reconciler: Reconciler;

test.before(async () => {
  fleet = await makeFleet({ members: ['member1'], readyDelayMs: 0 });
  events = new LogEvents();
  reconciler = await startReconciler(reconcilerOptions(fleet, events.log));
});
test.after(async () => {
  await reconciler?.stop();
  await fleet?.cleanup();
});

const passFor = (sha: string) => (e: Record<string, unknown>) => e.step === 'pass' && e.sourceCommit === sha;
const get = (args: string[]) =>
  kubectl(path.join(fleet.credentials, 'members.config'), path.join(fleet.root, 'kubectl-cache'), [
    '--context',
    'member1',
    ...args,
  ]);

test('a pushed Kustomize folder and Helm chart reach the member; a replicaCount change in values.yaml follows', async () => {
  const sha = fleet.push(
    {
      'clusters/member1.yaml': clusterRegistration('member1'),
      ...KUSTOMIZE_GUESTBOOK,
      ...helmGuestbook(1),
      'policies/guestbook.yaml': GUESTBOOK_POLICY,
    },
    'guestbook from Kustomize and Helm',
  );
  await events.next('the pass of the guestbook commit', passFor(sha));
  const listed = await get(['get', 'deployments,services', '-o', 'name']);
  assert.is(listed.code, 0, listed.stderr);
  for (const name of [
    'deployment.apps/kustomize-guestbook-ui',
    'deployment.apps/helm-guestbook',
    'service/kustomize-guestbook-ui',
    'service/helm-guestbook',
  ])
    assert.ok(listed.stdout.split('\n').includes(name), `${name} in:\n${listed.stdout}`);

  const scaled = fleet.push({ 'helm-guestbook/values.yaml': helmGuestbook(3)['helm-guestbook/values.yaml']! }, 'three');
  await events.next('the pass of the values change', passFor(scaled));
  const replicas = await get(['get', 'deployment', 'helm-guestbook', '-o', 'jsonpath={.spec.replicas}']);
  assert.is(replicas.stdout, '3', replicas.stderr);
});

test.run();
