import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { podRequests } from '../../src/interpreters/podRequests.ts';

test('pod requests: containers summed, raised to the largest init container, plus overhead', () => {
  const r = podRequests({
    containers: [
      { resources: { requests: { cpu: '100m' } } },
      { resources: { requests: { cpu: '200m', memory: '1000' } } },
    ],
    initContainers: [{ resources: { requests: { cpu: '1' } } }],
    overhead: { cpu: '10m' },
  });
  // Karmada's memory is a BinarySI Quantity, which prints 1000 bytes as DecimalSI: "1k".
  assert.equal(r, { cpu: '1010m', memory: '1k' });
});

test.run();
