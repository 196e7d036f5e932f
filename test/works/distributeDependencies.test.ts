import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding } from '../../src/api/binding.ts';
import { refKey } from '../../src/api/kinds.ts';
import {
  dependenciesOf,
  distributeDependencies,
  type PlacedDependency,
} from '../../src/works/distributeDependencies.ts';
import { emptyIndex, viewOfWhole, type IndexEntry } from '../../src/branches/rendered/outputIndex.ts';
import { configMap, deployment } from '../helpers/inMemoryModel.ts';

const web = deployment('web', 2, {
  template: {
    spec: { containers: [{ name: 'app', image: 'nginx', envFrom: [{ configMapRef: { name: 'settings' } }] }] },
  },
});
const api = deployment('api', 2);
const settings = configMap('settings');
const WEB = refKey(web.ref);
const API = refKey(api.ref);
const SETTINGS = refKey(settings.ref);
const parentEntry = (clusters: string[], deps = [SETTINGS]): IndexEntry => ({
  file: 'templates/x.yaml',
  policy: 'p',
  clusters,
  deps,
});
const noPrevious = viewOfWhole(emptyIndex());

test('a dependency no policy claims goes wherever its parent goes, with an attached binding listing the parent', async () => {
  const placed = new Map<string, PlacedDependency>([
    [WEB, { template: web, clusters: [{ name: 'member1', replicas: 2 }] }],
    [SETTINGS, { template: settings, clusters: [] }],
  ]);
  const changes = new Map<string, IndexEntry | null>([
    [WEB, parentEntry(['member1', 'member3'])],
    [SETTINGS, { file: 'templates/settings.yaml', clusters: [] }],
  ]);
  const attached = await distributeDependencies(placed, changes, noPrevious);
  assert.equal([...attached.keys()], [SETTINGS], 'only a required template is attached');
  const a = attached.get(SETTINGS)!;
  assert.equal(a.requiredBy, [WEB]);
  // The parent's snapshot carries the replicas its result gives each cluster (Karmada copies its spec.clusters).
  assert.equal(a.clusters, [
    { name: 'member1', replicas: 2 },
    { name: 'member3', replicas: 0 },
  ]);
  assert.equal(a.binding.kind, 'ResourceBinding');
  assert.equal(a.binding.metadata.name, 'settings-configmap');
  assert.equal(a.binding.spec.requiredBy, [
    {
      namespace: 'default',
      name: 'web-deployment',
      clusters: [
        { name: 'member1', replicas: 2 },
        { name: 'member3', replicas: 0 },
      ],
    },
  ]);
  assert.is(a.binding.spec.clusters, undefined, 'an attached binding has no result of its own');
});

test("a dependency with its own policy keeps its result and binding, grown by the parents' clusters", async () => {
  const own: ResourceBinding = {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name: 'settings-configmap', namespace: 'default' },
    spec: {
      resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'settings' },
      clusters: [{ name: 'member2', replicas: 0 }],
    },
  };
  const placed = new Map<string, PlacedDependency>([
    [SETTINGS, { template: settings, clusters: [{ name: 'member2', replicas: 0 }], binding: own }],
  ]);
  const changes = new Map<string, IndexEntry | null>([
    [WEB, parentEntry(['member1', 'member2'])],
    [SETTINGS, { file: 'f', clusters: ['member2'] }],
  ]);
  const a = (await distributeDependencies(placed, changes, noPrevious)).get(SETTINGS)!;
  assert.equal(
    a.clusters.map((c) => c.name),
    ['member1', 'member2'],
  );
  assert.equal(a.binding.spec.clusters, [{ name: 'member2', replicas: 0 }], 'its own result stays its own');
  assert.equal(
    a.binding.spec.requiredBy?.map((r) => r.name),
    ['web-deployment'],
  );
  assert.is(own.spec.requiredBy, undefined, 'the binding it was given is not changed');
});

test('parents this render left alone count as the previous index has them; a parent set anew counts with its new clusters', async () => {
  const previous = viewOfWhole({
    files: {},
    templates: { [WEB]: parentEntry(['member1']), [API]: parentEntry(['member2']) },
  });
  const placed = new Map<string, PlacedDependency>([[SETTINGS, { template: settings, clusters: [] }]]);
  // api is rendered again and now goes to member3; web was not touched.
  const changes = new Map<string, IndexEntry | null>([
    [API, parentEntry(['member3'])],
    [SETTINGS, { file: 'f', clusters: [] }],
  ]);
  const a = (await distributeDependencies(placed, changes, previous)).get(SETTINGS)!;
  assert.equal(a.requiredBy, [API, WEB]);
  assert.equal(
    a.clusters.map((c) => c.name),
    ['member1', 'member3'],
  );
});

test('a parent that no longer lists the template in this render stops requiring it', async () => {
  const previous = viewOfWhole({ files: {}, templates: { [WEB]: parentEntry(['member1']) } });
  const placed = new Map<string, PlacedDependency>([[SETTINGS, { template: settings, clusters: [] }]]);
  const changes = new Map<string, IndexEntry | null>([
    [WEB, parentEntry(['member1'], [])],
    [SETTINGS, { file: 'f', clusters: [] }],
  ]);
  assert.equal((await distributeDependencies(placed, changes, previous)).size, 0);
});

test('a template listing itself is not its own parent', async () => {
  const placed = new Map<string, PlacedDependency>([[SETTINGS, { template: settings, clusters: [] }]]);
  const changes = new Map<string, IndexEntry | null>([
    [SETTINGS, { file: 'f', clusters: ['member1'], deps: [SETTINGS] }],
  ]);
  assert.equal((await distributeDependencies(placed, changes, noPrevious)).size, 0);
});

test('dependencies are interpreted only when the policy says propagateDeps', () => {
  assert.equal(dependenciesOf(web, false, undefined), []);
  assert.equal(dependenciesOf(web, true, undefined), [SETTINGS]);
  assert.equal(dependenciesOf(api, true, undefined), []);
});

test.run();
