import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Cluster } from '../../src/api/cluster.ts';
import { DEFAULT_RESOURCE_MODELS } from '../../src/api/clusterResourceModels.ts';
import { parseRegisteredClusters, serializeRegisteredClusters } from '../../src/branches/rendered/registeredClusters.ts';

const cluster = (name: string, spec: Partial<Cluster['spec']> = {}): Cluster =>
  ({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name }, spec }) as Cluster;
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

test('the registered-clusters file leaves out models equal to the defaults and keeps any that differ', () => {
  const own = copy(DEFAULT_RESOURCE_MODELS);
  own[8]!.ranges[0]!.min = '256';
  const reordered = copy(DEFAULT_RESOURCE_MODELS).map((m) => ({ ranges: m.ranges, grade: m.grade }));
  const text = serializeRegisteredClusters([
    cluster('b', { resourceModels: copy(DEFAULT_RESOURCE_MODELS) }),
    cluster('a', { syncMode: 'Pull', resourceModels: own }),
    cluster('c'),
    cluster('d', { resourceModels: reordered }),
    cluster('e', { resourceModels: copy(DEFAULT_RESOURCE_MODELS).slice(0, 8) }),
  ]);
  const parsed = parseRegisteredClusters(text);
  assert.equal(
    parsed.map((c) => [c.name, c.syncMode, c.resourceModels !== undefined]),
    [
      ['a', 'Pull', true],
      ['b', 'Push', false],
      ['c', 'Push', false],
      // The same models with keys in another order are not the defaults' JSON: written, as before.
      ['d', 'Push', true],
      ['e', 'Push', true],
    ],
  );
  assert.equal(parsed[0]!.resourceModels, own);
});

test.run();
