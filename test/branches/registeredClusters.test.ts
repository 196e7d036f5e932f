import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Cluster, ResourceModel } from '../../src/api/cluster.ts';
import { DEFAULT_RESOURCE_MODELS } from '../../src/api/clusterResourceModels.ts';
import {
  parseRegisteredClusters,
  serializeRegisteredClusters,
} from '../../src/branches/rendered/registeredClusters.ts';

const cluster = (name: string, spec: Partial<Cluster['spec']> = {}): Cluster =>
  ({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name }, spec }) as Cluster;
/** A Cluster's own copy of the defaults, as the loader gives each. */
const defaults = (): ResourceModel[] => JSON.parse(JSON.stringify(DEFAULT_RESOURCE_MODELS)) as ResourceModel[];

test('the registered-clusters file leaves out models equal to the defaults and keeps any that differ', () => {
  const own = defaults();
  own[8]!.ranges[0]!.min = '256';
  const reordered = defaults().map((m) => ({ ranges: m.ranges, grade: m.grade }));
  const text = serializeRegisteredClusters([
    cluster('b', { resourceModels: defaults() }),
    cluster('a', { syncMode: 'Pull', resourceModels: own }),
    cluster('c'),
    cluster('d', { resourceModels: reordered }),
    cluster('e', { resourceModels: defaults().slice(0, 8) }),
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
