// A member's Secret values must never reach the status branch: not through the built-in reflection, not through a
// declared statusReflection, and not kept from a status file written before this rule existed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse, stringify } from 'yaml';
import type { ClusterDelivery } from '../../src/deliveries/applyRendered.ts';
import { customReflectStatus, interpreterSet } from '../../src/interpreters/customizations.ts';
import type { InterpreterCustomization } from '../../src/api/interpreterCustomization.ts';
import { buildStatusFiles, type ClusterReport } from '../../src/statuses/buildStatusFiles.ts';
import { templateStatusPath } from '../../src/branches/status/statusFiles.ts';
import { reflectStatus } from '../../src/statuses/reflectStatus.ts';

const ref = { apiVersion: 'v1', kind: 'Secret', namespace: 'demo', name: 'db' };
const liveSecret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'db', namespace: 'demo' },
  type: 'Opaque',
  data: { password: 'aHVudGVyMg==' },
  status: { token: 'c2VjcmV0' },
};
const reflectData = (kind: string) =>
  interpreterSet([
    {
      object: {
        apiVersion: 'flotilla.io/v1alpha1',
        kind: 'InterpreterCustomization',
        metadata: { name: 'leak' },
        spec: {
          target: { apiVersion: 'v1', kind },
          customizations: {
            statusReflection: { paths: ['data', 'status.token'] },
            statusAggregation: { sum: ['data'] },
          },
        },
      } as InterpreterCustomization,
      source: { file: 'leak.yaml', line: 1, column: 1 },
    },
  ]);
const report = (live: Record<string, unknown>): ClusterReport => ({
  cluster: 'm1',
  delivery: {
    cluster: 'm1',
    results: [{ ref, action: 'created', message: 'created', live }],
    inventory: [ref],
    previousInventory: [ref],
    writes: 1,
    notes: [],
    durationMs: 0,
  } satisfies ClusterDelivery,
});

test('a Secret reflects nothing, whatever its member copy holds', () => {
  assert.is(reflectStatus(liveSecret), undefined);
});

test('a statusReflection declared for Secrets copies nothing, while the same paths on another kind still work', () => {
  assert.is(customReflectStatus(reflectData('Secret').get('v1/Secret')!, liveSecret), undefined);
  const configMap = { ...liveSecret, kind: 'ConfigMap', data: { color: 'blue' } };
  assert.equal(customReflectStatus(reflectData('ConfigMap').get('v1/ConfigMap')!, configMap), {
    data: { color: 'blue' },
    token: 'c2VjcmV0',
  });
});

test("a Secret's status file names clusters, applied and health, and never a value of its data", () => {
  const text = buildStatusFiles(
    new Map(),
    [report(liveSecret)],
    new Date('2026-01-01T00:00:00Z'),
    reflectData('Secret'),
  ).get(templateStatusPath(ref))!;
  assert.not.match(text, /aHVudGVyMg==|c2VjcmV0|password/);
  const file = parse(text);
  assert.equal(file.aggregatedStatus, [{ clusterName: 'm1', applied: true, health: 'Healthy' }]);
  assert.is(file.status, undefined);
});

test('a Secret value written to the status branch by an older Flotilla is scrubbed at the next write', () => {
  const path = templateStatusPath(ref);
  const old = stringify({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'db', namespace: 'demo' },
    status: { data: { password: 'aHVudGVyMg==' } },
    conditions: [],
    aggregatedStatus: [
      { clusterName: 'm0', applied: true, health: 'Healthy', status: { data: { password: 'aHVudGVyMg==' } } },
    ],
  });
  const text = buildStatusFiles(new Map([[path, old]]), [report(liveSecret)], new Date('2026-01-01T00:00:00Z')).get(
    path,
  )!;
  assert.not.match(text, /aHVudGVyMg==/);
  assert.equal(
    parse(text).aggregatedStatus.map((i: { clusterName: string }) => i.clusterName),
    ['m0', 'm1'],
  );
});

test.run();
