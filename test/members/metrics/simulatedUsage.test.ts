import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildNodeMetrics, buildPodMetrics } from '../../../src/members/metrics/buildMetrics.ts';
import { formatCpu, formatMemory, podUsage, splitOverContainers } from '../../../src/members/metrics/simulatedUsage.ts';
import type { KubeObject } from '../../../src/members/types.ts';

const pod = (annotations?: Record<string, string>, containers = ['a']): KubeObject => ({
  metadata: { name: 'p', namespace: 'default', labels: { app: 'web' }, ...(annotations ? { annotations } : {}) },
  spec: { nodeName: 'n1', containers: containers.map((name) => ({ name })) },
  status: { phase: 'Running' },
});

test('usage is read from the cpu-usage and memory-usage annotations as quantities; absent means 0', () => {
  assert.equal(
    podUsage(pod({ 'emulator.flotilla.io/cpu-usage': '150m', 'emulator.flotilla.io/memory-usage': '64Mi' })),
    { cpu: 150_000_000n, memory: 64n * 1024n * 1024n },
  );
  assert.equal(podUsage(pod({ 'emulator.flotilla.io/cpu-usage': '1.5' })), { cpu: 1_500_000_000n, memory: 0n });
  assert.equal(podUsage(pod()), { cpu: 0n, memory: 0n });
  assert.equal(podUsage(pod({ 'emulator.flotilla.io/cpu-usage': 'lots' })), { cpu: 0n, memory: 0n });
});

test("a pod without the annotation takes it from its owner's pod template; its own wins", () => {
  assert.is(podUsage(pod(), { 'emulator.flotilla.io/cpu-usage': '300m' }).cpu, 300_000_000n);
  assert.is(
    podUsage(pod({ 'emulator.flotilla.io/cpu-usage': '100m' }), { 'emulator.flotilla.io/cpu-usage': '300m' }).cpu,
    100_000_000n,
  );
});

test('usage is split over containers and written as metrics-server writes quantities', () => {
  assert.equal(splitOverContainers(100n, 3), [34n, 33n, 33n]);
  assert.is(formatCpu(150_000_000n), '150m');
  assert.is(formatCpu(2_000_000_000n), '2');
  assert.is(formatMemory(64n * 1024n * 1024n), '64Mi');
  assert.is(formatCpu(0n), '0');
  const metrics = buildPodMetrics(
    pod(undefined, ['a', 'b']),
    { cpu: 300_000_000n, memory: 0n },
    '2026-01-01T00:00:00Z',
  );
  assert.equal(metrics.containers, [
    { name: 'a', usage: { cpu: '150m', memory: '0' } },
    { name: 'b', usage: { cpu: '150m', memory: '0' } },
  ]);
  assert.equal(metrics.metadata, {
    name: 'p',
    namespace: 'default',
    creationTimestamp: '2026-01-01T00:00:00Z',
    labels: { app: 'web' },
  });
  const node = buildNodeMetrics(
    { metadata: { name: 'n1' } },
    [
      { cpu: 100_000_000n, memory: 1024n },
      { cpu: 50_000_000n, memory: 1024n },
    ],
    '2026-01-01T00:00:00Z',
  );
  assert.equal(node.usage, { cpu: '150m', memory: '2Ki' });
});

test.run();
