// A pod's request and usage for a Resource metric (all containers) and a ContainerResource metric (one), as
// Karmada's calculatePodRequests, getPodMetrics and getContainerMetrics read them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { podRequest, podUsage } from '../../src/autoscalers/podMetrics.ts';

const containers = (...list: [string, Record<string, number>][]) =>
  list.map(([name, amounts]) => ({ name, amounts: new Map(Object.entries(amounts)) }));

test('requests: summed over every container, or the named one alone; a read container without one fails', () => {
  const pod = containers(['app', { cpu: 50 }], ['sidecar', { cpu: 150, memory: 64_000 }]);
  assert.equal(podRequest(pod, 'cpu'), { ok: true, milli: 200 });
  assert.equal(podRequest(pod, 'cpu', 'app'), { ok: true, milli: 50 });
  assert.equal(podRequest(pod, 'memory'), { ok: false, container: 'app' });
  assert.equal(podRequest(pod, 'memory', 'sidecar'), { ok: true, milli: 64_000 });
  // A pod without the named container requests nothing of it (calculatePodRequests matches no container).
  assert.equal(podRequest(pod, 'cpu', 'nope'), { ok: true, milli: 0 });
});

test("usage: a pod's sum misses when any container lacks it; a named container absent from the metrics fails", () => {
  const sample = containers(['app', { cpu: 100, memory: 1 }], ['sidecar', { cpu: 100 }]);
  assert.equal(podUsage('default/web-1', sample, 'cpu'), { ok: true, milli: 200 });
  assert.equal(podUsage('default/web-1', sample, 'memory'), { ok: true, milli: undefined });
  assert.equal(podUsage('default/web-1', [], 'cpu'), { ok: true, milli: undefined });
  assert.equal(podUsage('default/web-1', sample, 'cpu', 'app'), { ok: true, milli: 100 });
  assert.equal(podUsage('default/web-1', sample, 'memory', 'sidecar'), { ok: true, milli: undefined });
  assert.equal(podUsage('default/web-1', sample, 'cpu', 'nope'), {
    ok: false,
    message: 'container nope not present in metrics for pod default/web-1',
  });
});

test.run();
