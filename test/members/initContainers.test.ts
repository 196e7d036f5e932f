import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { MemberHarness, waitFor } from './helpers/memberHarness.ts';

// A pod's init containers as the kubelet reports them, read back through the real kubectl: waiting while the pod
// initializes (Init:0/1), then Completed and ready, sidecars (restartPolicy Always) running and counted as containers.

const harness = new MemberHarness();
let starting: Member;
let running: Member;

const pod = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: {
    initContainers: [
      { name: 'setup', image: 'busybox' },
      { name: 'proxy', image: 'envoy', restartPolicy: 'Always' },
    ],
    containers: [{ name: 'app', image: 'nginx' }],
  },
});

test.before(async () => {
  // Its kubelet never gets past creating the containers while the test runs.
  starting = await harness.start({ name: 'starting', readyDelayMs: 600_000 });
  running = await harness.start({ name: 'running', readyDelayMs: 30 });
});

test.after(async () => {
  await harness.cleanup();
});

test('a pod initializing shows Init:0/2 with its init containers waiting in PodInitializing and Initialized False', async () => {
  const kubectl = harness.kubectl([starting]);
  assert.is((await kubectl(['apply', '-f', '-'], JSON.stringify(pod('web')))).code, 0);
  const json = await waitFor('the kubelet to report the pod creating', async () => {
    const got = await kubectl(['get', 'pod', 'web', '-o', 'json']);
    const status = JSON.parse(got.stdout).status;
    return status.initContainerStatuses ? status : undefined;
  });
  assert.equal(
    json.initContainerStatuses.map((s: any) => [s.name, s.ready, s.state]),
    [
      ['setup', false, { waiting: { reason: 'PodInitializing' } }],
      ['proxy', false, { waiting: { reason: 'PodInitializing' } }],
    ],
  );
  assert.equal(json.containerStatuses[0].state, { waiting: { reason: 'PodInitializing' } });
  const initialized = json.conditions.find((c: any) => c.type === 'Initialized');
  assert.equal(
    [initialized.status, initialized.reason, initialized.message],
    ['False', 'ContainersNotInitialized', 'containers with incomplete status: [setup proxy]'],
  );
  const table = await kubectl(['get', 'pod', 'web', '--no-headers']);
  assert.equal(table.stdout.trim().split(/\s+/).slice(0, 4), ['web', '0/2', 'Init:0/2', '0']);
});

test('a running pod reports its init containers Completed and ready, its sidecar running and counted ready', async () => {
  const kubectl = harness.kubectl([running]);
  assert.is((await kubectl(['apply', '-f', '-'], JSON.stringify(pod('web')))).code, 0);
  const status = await waitFor('the pod to run', async () => {
    const got = JSON.parse((await kubectl(['get', 'pod', 'web', '-o', 'json'])).stdout).status;
    return got.phase === 'Running' ? got : undefined;
  });
  const [setup, proxy] = status.initContainerStatuses;
  assert.equal(
    [setup.name, setup.ready, setup.started, setup.state.terminated.reason],
    ['setup', true, false, 'Completed'],
  );
  assert.is(setup.state.terminated.exitCode, 0);
  assert.is(setup.state.terminated.containerID, setup.containerID);
  assert.equal([proxy.name, proxy.ready, proxy.started, Object.keys(proxy.state)], ['proxy', true, true, ['running']]);
  assert.is(status.conditions.find((c: any) => c.type === 'Initialized').status, 'True');
  const table = await kubectl(['get', 'pod', 'web', '--no-headers']);
  assert.equal(table.stdout.trim().split(/\s+/).slice(0, 4), ['web', '2/2', 'Running', '0']);
});

test.run();
