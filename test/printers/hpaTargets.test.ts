// The TARGETS cell of `kubectl get hpa` (printers.go formatHPAMetrics), shared by `flotilla get` and the member
// emulator.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hpaTargets } from '../../src/printers/hpaTargets.ts';

const cpu = (averageUtilization?: number) => ({
  type: 'Resource',
  resource: {
    name: 'cpu',
    target: averageUtilization === undefined ? { type: 'Utilization' } : { type: 'Utilization', averageUtilization },
  },
});

test('TARGETS shows each metric as current/target, <unknown> before the first sync, and at most two', () => {
  assert.is(hpaTargets([cpu(50)], undefined), 'cpu: <unknown>/50%');
  assert.is(
    hpaTargets(
      [cpu(50)],
      [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 200, averageValue: '200m' } } }],
    ),
    'cpu: 200%/50%',
  );
  assert.is(hpaTargets([cpu()], undefined), 'cpu: <unknown>/<auto>');
  const memory = {
    type: 'Resource',
    resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } },
  };
  assert.is(
    hpaTargets([memory], [{ type: 'Resource', resource: { name: 'memory', current: { averageValue: '64Mi' } } }]),
    'memory: 64Mi/100Mi',
  );
  const pods = {
    type: 'Pods',
    pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } },
  };
  assert.is(hpaTargets([cpu(50), memory, pods], undefined), 'cpu: <unknown>/50%, memory: <unknown>/100Mi + 1 more...');
  assert.is(hpaTargets(undefined, undefined), '<none>');
});

test.run();
