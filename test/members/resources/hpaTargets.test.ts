import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { endpointSliceEndpoints, endpointSlicePorts } from '../../../src/members/resources/discoveryPrintColumns.ts';
import { hpaTargets } from '../../../src/members/resources/hpaTargets.ts';

const cpu = (averageUtilization?: number) => ({
  type: 'Resource',
  resource: {
    name: 'cpu',
    target: averageUtilization === undefined ? { type: 'Utilization' } : { type: 'Utilization', averageUtilization },
  },
});

test('TARGETS shows each metric as current/target, <unknown> before the first sync, and at most two', () => {
  assert.is(hpaTargets({ metadata: {}, spec: { metrics: [cpu(50)] } }), 'cpu: <unknown>/50%');
  assert.is(
    hpaTargets({
      metadata: {},
      spec: { metrics: [cpu(50)] },
      status: {
        currentMetrics: [
          { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 200, averageValue: '200m' } } },
        ],
      },
    }),
    'cpu: 200%/50%',
  );
  assert.is(hpaTargets({ metadata: {}, spec: { metrics: [cpu()] } }), 'cpu: <unknown>/<auto>');
  const memory = {
    type: 'Resource',
    resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } },
  };
  assert.is(
    hpaTargets({
      metadata: {},
      spec: { metrics: [memory] },
      status: {
        currentMetrics: [{ type: 'Resource', resource: { name: 'memory', current: { averageValue: '64Mi' } } }],
      },
    }),
    'memory: 64Mi/100Mi',
  );
  const pods = {
    type: 'Pods',
    pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } },
  };
  assert.is(
    hpaTargets({ metadata: {}, spec: { metrics: [cpu(50), memory, pods] } }),
    'cpu: <unknown>/50%, memory: <unknown>/100Mi + 1 more...',
  );
  assert.is(hpaTargets({ metadata: {}, spec: {} }), '<none>');
});

test('EndpointSlice PORTS and ENDPOINTS list three then "+ N more...", and <unset> when empty', () => {
  const slice = {
    metadata: {},
    ports: [{ port: 80 }, { name: 'grpc' }, {}, { port: 9090 }],
    endpoints: [{ addresses: ['10.1.0.1'] }, { addresses: ['10.1.0.2', '10.1.0.3'] }, { addresses: ['10.1.0.4'] }],
  };
  assert.is(endpointSlicePorts(slice), '80,grpc,* + 1 more...');
  assert.is(endpointSliceEndpoints(slice), '10.1.0.1,10.1.0.2,10.1.0.3 + 1 more...');
  assert.is(endpointSlicePorts({ metadata: {}, ports: [] }), '<unset>');
  assert.is(endpointSliceEndpoints({ metadata: {}, endpoints: [] }), '<unset>');
});

test.run();
