import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { podCells } from '../../src/printers/podCells.ts';
import type { PrintedObject } from '../../src/printers/printedObject.ts';

// kubectl get pods' READY, STATUS and RESTARTS cells, as printPod computes them (pkg/printers/internalversion).

const NOW = Date.parse('2026-01-01T01:00:00Z');
const pod = (spec: object, status: object, metadata: object = {}): PrintedObject =>
  ({ metadata: { name: 'p', ...metadata }, spec, status }) as PrintedObject;
const withInit = { initContainers: [{ name: 'a' }, { name: 'b' }], containers: [{ name: 'c' }] };

test('the first unfinished init container names the status: a failed one by its reason, else Init:n/total', () => {
  const completed = { name: 'a', state: { terminated: { exitCode: 0, reason: 'Completed' } } };
  const cells = (b: object) =>
    podCells(pod(withInit, { phase: 'Pending', initContainerStatuses: [completed, b] }), NOW);
  assert.is(cells({ name: 'b', state: { waiting: { reason: 'PodInitializing' } } }).status, 'Init:1/2');
  assert.is(cells({ name: 'b', state: { running: {} } }).status, 'Init:1/2');
  assert.is(cells({ name: 'b', state: { waiting: { reason: 'ImagePullBackOff' } } }).status, 'Init:ImagePullBackOff');
  assert.is(cells({ name: 'b', state: { terminated: { exitCode: 1, reason: 'Error' } } }).status, 'Init:Error');
  assert.is(cells({ name: 'b', state: { terminated: { exitCode: 2 } } }).status, 'Init:ExitCode:2');
  assert.is(cells({ name: 'b', state: { terminated: { exitCode: 137, signal: 9 } } }).status, 'Init:Signal:9');
});

test('restarts add up with the age of the last one; a running pod not Ready whose last container completed is NotReady', () => {
  const status = {
    phase: 'Running',
    conditions: [{ type: 'Initialized', status: 'True' }],
    containerStatuses: [
      {
        name: 'x',
        ready: true,
        state: { running: {} },
        restartCount: 2,
        lastState: { terminated: { finishedAt: '2026-01-01T00:55:00Z' } },
      },
      { name: 'y', state: { terminated: { exitCode: 0, reason: 'Completed' } }, restartCount: 1 },
    ],
  };
  assert.equal(podCells(pod({ containers: [{ name: 'x' }, { name: 'y' }] }, status), NOW), {
    ready: '1/2',
    status: 'NotReady',
    restarts: '3 (5m ago)',
  });
});

test('a deleted pod is Terminating unless its phase is terminal', () => {
  const deleting = { deletionTimestamp: '2026-01-01T00:59:00Z' };
  assert.is(podCells(pod({ containers: [] }, { phase: 'Running' }, deleting), NOW).status, 'Terminating');
  assert.is(podCells(pod({ containers: [] }, { phase: 'Succeeded' }, deleting), NOW).status, 'Succeeded');
});

test.run();
