import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { podQosClass } from '../../../src/members/resources/podQos.ts';
import { defaultObject } from '../../../src/members/resources/defaultObject.ts';
import type { KubeObject } from '../../../src/members/types.ts';

const pod = (...resources: object[]): KubeObject => {
  const object: KubeObject = {
    metadata: { name: 'p' },
    spec: { containers: resources.map((r, i) => ({ name: `c${i}`, image: 'x:1', resources: r })) },
  };
  defaultObject('Pod', object, () => '');
  return object;
};

test('no requests or limits is BestEffort; limits on cpu and memory everywhere is Guaranteed; the rest Burstable', () => {
  assert.is(podQosClass(pod({})), 'BestEffort');
  // Requests default to limits, and 1000m equals 1.
  assert.is(
    podQosClass(
      pod(
        { limits: { cpu: '1', memory: '1Gi' } },
        { limits: { cpu: '500m', memory: '64Mi' }, requests: { cpu: '0.5' } },
      ),
    ),
    'Guaranteed',
  );
  assert.is(
    podQosClass(pod({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1000m', memory: '1024Mi' } })),
    'Guaranteed',
  );
  assert.is(podQosClass(pod({ limits: { cpu: '1' } })), 'Burstable');
  assert.is(podQosClass(pod({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '100m' } })), 'Burstable');
  assert.is(podQosClass(pod({ limits: { cpu: '1', memory: '1Gi' } }, {})), 'Burstable');
  assert.is(podQosClass(pod({ requests: { 'ephemeral-storage': '1Gi' } })), 'BestEffort');
});

test.run();
