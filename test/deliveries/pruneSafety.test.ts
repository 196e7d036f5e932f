// Prune safety inside the applier: held deletions send no DELETE, stay in the inventory and say how to allow them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ObjectRef } from '../../src/api/kinds.ts';
import { applyClusterFolder, type PruneSafetyOptions } from '../../src/deliveries/applyClusterFolder.ts';
import type { KubeRequest } from '../../src/deliveries/KubeTarget.ts';
import { fakeKube, json, NO_WAIT } from './helpers/fakeKube.ts';

const CORE = {
  resources: [
    { name: 'configmaps', kind: 'ConfigMap', namespaced: true },
    { name: 'namespaces', kind: 'Namespace', namespaced: false },
  ],
};
const EXT = { resources: [{ name: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false }] };
const labels = { 'karmada.io/managed': 'true' };
const cmRef = (name: string): ObjectRef => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'd', name });
const cm = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'd', labels },
  data: { k: 'v' },
});
const nsRef: ObjectRef = { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'd' };
const crdRef: ObjectRef = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  namespace: '',
  name: 'widgets.example.com',
};

/** A member on which every object asked about exists, labelled ours, and matches what is applied. */
function member() {
  return fakeKube('m', (req: KubeRequest) => {
    if (req.path === '/api/v1') return json(200, CORE);
    if (req.path === '/apis/apiextensions.k8s.io/v1') return json(200, EXT);
    const name = req.path.split('/').pop()!;
    if (req.method === 'GET')
      return json(200, req.path.includes('/configmaps/') ? cm(name) : { metadata: { name, labels, uid: `u-${name}` } });
    if (req.method === 'DELETE') return json(200, { kind: 'Status', status: 'Success' });
    return json(200, JSON.parse(req.body ?? '{}'));
  });
}

const folder = (...names: string[]) => new Map(names.map((n) => [`clusters/m/d/configmap_${n}.yaml`, cm(n)]));
const run = (manifests: Map<string, unknown>, inventory: ObjectRef[], pruneSafety?: PruneSafetyOptions) => {
  const kube = member();
  return applyClusterFolder({
    cluster: 'm',
    manifests,
    kube,
    inventory,
    prune: true,
    retry: NO_WAIT,
    ...(pruneSafety ? { pruneSafety } : {}),
  }).then((r) => ({ r, kube }));
};
const deletes = (log: KubeRequest[]) => log.filter((q) => q.method === 'DELETE').map((q) => q.path.split('/').pop());

test('an emptied folder is held: no DELETE, every object stays in the inventory, each result says held with the trailer fix', async () => {
  const inventory = [cmRef('a'), cmRef('b')];
  let asked = 0;
  const { r, kube } = await run(new Map(), inventory, {
    source: 'ok',
    readDeletions: async () => {
      asked++;
      return () => undefined;
    },
  });
  assert.equal(deletes(kube.log), []);
  assert.is(asked, 1, 'the trailer is looked up because something would be held');
  assert.equal(
    r.results.map((x) => [x.ref.name, x.action, x.prune]),
    [
      ['a', 'held', true],
      ['b', 'held', true],
    ],
  );
  assert.match(r.results[0]!.message, /would delete all 2 objects on m \(EVERYTHING\)/);
  assert.match(
    r.results[0]!.message,
    /git commit --allow-empty -m "allow prune" --trailer "Flotilla-Allow-Prune: retiring app X"/,
  );
  assert.equal(r.inventory, inventory);
  assert.is(r.prune?.held[0]?.reason, 'EVERYTHING');
  assert.match(r.notes.join('\n'), /prune held: would delete all 2 objects/);
});

test('the trailer lets the same deletions through, and the pruned results name it', async () => {
  const { r, kube } = await run(new Map(), [cmRef('a'), cmRef('b')], {
    source: 'ok',
    readDeletions: async () => () => ({
      allowReason: 'retiring a and b',
      commit: 'e'.repeat(40),
      allowedAt: 'f'.repeat(40),
    }),
  });
  assert.equal(deletes(kube.log), ['a', 'b']);
  assert.ok(r.results.every((x) => x.action === 'pruned'));
  assert.match(
    r.results[0]!.message,
    /allowed by Flotilla-Allow-Prune: retiring a and b \(source commit ffffffffffff\)/,
  );
  assert.equal(r.inventory, []);
  assert.is(r.prune?.allowedBy, 'retiring a and b');
});

test('deletions at or below the threshold go through without looking for a trailer', async () => {
  let asked = 0;
  const { r, kube } = await run(folder('a', 'b'), [cmRef('a'), cmRef('b'), cmRef('c'), cmRef('e')], {
    source: 'ok',
    readDeletions: async () => {
      asked++;
      return () => undefined;
    },
  });
  assert.equal(deletes(kube.log), ['c', 'e'], '2 of 4 is not more than half');
  assert.is(asked, 0);
  assert.equal(r.prune?.held, []);
});

test('more than the threshold is held; a lower custom threshold holds less', async () => {
  const inventory = [cmRef('a'), cmRef('b'), cmRef('c'), cmRef('e')];
  const over = await run(folder('a'), inventory);
  assert.equal(deletes(over.kube.log), []);
  assert.is(over.r.prune?.held[0]?.reason, 'OVER_THRESHOLD');
  assert.match(over.r.prune!.held[0]!.message, /would delete 3 of 4 objects on m \(more than 50%\)/);
  const strict = await run(folder('a', 'b', 'c'), inventory, { source: 'ok', threshold: 0.2 });
  assert.equal(deletes(strict.kube.log), [], '1 of 4 is more than 20%');
  assert.is(strict.r.prune?.held[0]?.reason, 'OVER_THRESHOLD');
});

test('a Namespace or CRD deletion is held alone, however small; the ordinary deletion beside it goes through', async () => {
  const keep = ['k1', 'k2', 'k3', 'k4', 'k5', 'k6'];
  const inventory = [...keep.map(cmRef), cmRef('gone'), nsRef, crdRef];
  const { r, kube } = await run(folder(...keep), inventory);
  assert.equal(deletes(kube.log), ['gone']);
  assert.equal(
    r.results
      .filter((x) => x.action === 'held')
      .map((x) => x.ref.kind)
      .sort(),
    ['CustomResourceDefinition', 'Namespace'],
  );
  assert.equal(r.prune?.held.map((h) => h.reason).sort(), ['CRD', 'NAMESPACE']);
  assert.ok(
    r.inventory.some((x) => x.kind === 'Namespace') && r.inventory.some((x) => x.kind === 'CustomResourceDefinition'),
  );
  assert.not.ok(r.inventory.some((x) => x.name === 'gone'));
});

test('an empty source holds every deletion even with a trailer, and never reads it', async () => {
  let asked = 0;
  const { r, kube } = await run(new Map(), [cmRef('a'), cmRef('b')], {
    source: 'empty',
    readDeletions: async () => {
      asked++;
      return () => ({ allowReason: 'yes', commit: 'f'.repeat(40) });
    },
  });
  assert.equal(deletes(kube.log), []);
  assert.is(asked, 0);
  assert.is(r.prune?.held[0]?.reason, 'SOURCE_EMPTY');
  assert.match(r.results[0]!.message, /never means "delete everything"/);
});

test('a trailer lets through only the deletions of the commit that carries it', async () => {
  const bySource: Record<string, { commit: string; allowReason?: string; allowedAt?: string }> = {
    a: { commit: 'a'.repeat(40), allowReason: 'retiring a', allowedAt: 'a'.repeat(40) },
    b: { commit: 'b'.repeat(40) },
  };
  const { r, kube } = await run(new Map(), [cmRef('a'), cmRef('b')], {
    source: 'ok',
    readDeletions: async () => (cluster, key) => (cluster === 'm' ? bySource[key.split('/').pop()!] : undefined),
  });
  assert.equal(deletes(kube.log), ['a']);
  assert.equal(
    r.results.map((x) => [x.ref.name, x.action]),
    [
      ['a', 'pruned'],
      ['b', 'held'],
    ],
  );
  assert.match(r.results[0]!.message, /allowed by Flotilla-Allow-Prune: retiring a \(source commit aaaaaaaaaaaa\)/);
  assert.equal(
    r.prune?.held.map((h) => h.refs.length),
    [1],
  );
});

test('without options the guard is still on: nothing allows a held deletion', async () => {
  const { r, kube } = await run(new Map(), [cmRef('a')]);
  assert.equal(deletes(kube.log), []);
  assert.is(r.results[0]!.action, 'held');
});

test.run();
