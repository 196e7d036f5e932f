import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { containerLogRefusal } from '../../../src/members/resources/podStreamContainer.ts';
import type { KubeObject } from '../../../src/members/types.ts';

const pod = (status: object): KubeObject => ({
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'c' }], initContainers: [{ name: 'init' }] },
  status: { containerStatuses: [{ name: 'c', ...status }] },
});

test("a container's log is refused in the kubelet's words until it has run, and --previous until it has run before", () => {
  const cases: [object, boolean, string | undefined][] = [
    [{ state: { running: {} }, containerID: 'kwok://1' }, false, undefined],
    [{ state: { running: {} }, lastState: {} }, true, 'previous terminated container "c" in pod "p" not found'],
    [{ state: { running: {} }, lastState: { terminated: { containerID: 'kwok://0' } } }, true, undefined],
    [
      { state: { waiting: { reason: 'ContainerCreating' } } },
      false,
      'container "c" in pod "p" is waiting to start: ContainerCreating',
    ],
    [
      { state: { waiting: { reason: 'ErrImagePull' } } },
      false,
      'container "c" in pod "p" is waiting to start: image can\'t be pulled',
    ],
    [
      { state: { waiting: { reason: 'ImagePullBackOff' } } },
      false,
      'container "c" in pod "p" is waiting to start: trying and failing to pull image',
    ],
    [{ state: { terminated: {} } }, false, 'container "c" in pod "p" is terminated'],
    [{ state: { terminated: { containerID: 'kwok://1' } } }, false, undefined],
    [{ state: {} }, false, 'container "c" in pod "p" is waiting to start - no logs yet'],
  ];
  for (const [status, previous, refusal] of cases)
    assert.is(containerLogRefusal(pod(status), 'c', previous), refusal, JSON.stringify(status));
  assert.is(
    containerLogRefusal({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c' }] }, status: {} }, 'c', false),
    'container "c" in pod "p" is not available',
  );
});

test.run();
