import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { endpointSliceEndpoints, endpointSlicePorts } from '../../src/printers/discoveryCells.ts';

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
