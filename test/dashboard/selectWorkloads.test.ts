import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IndexEntry } from '../../src/branches/rendered/outputIndex.ts';
import {
  catalogWorkloads,
  parseLabelFilter,
  selectWorkloads,
  WORKLOAD_SORTS,
} from '../../src/dashboard/selectWorkloads.ts';

function fleetIndex(count: number, clusters: number): Record<string, IndexEntry> {
  const out: Record<string, IndexEntry> = {};
  for (let i = 0; i < count; i++) {
    const ns = `team-${i % 7}`;
    const name = `app-${String(i).padStart(5, '0')}`;
    out[`apps/v1/Deployment/${ns}/${name}`] = {
      file: `templates/${name}.yaml`,
      labels: { app: name, tier: i % 2 ? 'web' : 'db' },
      clusters: Array.from({ length: (i % clusters) + 1 }, (_, c) => `member${c + 1}`),
    };
  }
  out['v1/ConfigMap/team-0/settings'] = { file: 'templates/settings.yaml', clusters: ['member1'] };
  return out;
}

test('a page of a 10,000-template fleet: total, the page asked for, and every namespace and kind for the menus', () => {
  const s = selectWorkloads(fleetIndex(10_000, 100), { offset: 100, limit: 50 });
  assert.is(s.total, 10_001);
  assert.is(s.page.length, 50);
  assert.is(s.offset, 100);
  assert.equal(s.kinds, ['ConfigMap', 'Deployment']);
  assert.equal(s.namespaces, ['team-0', 'team-1', 'team-2', 'team-3', 'team-4', 'team-5', 'team-6']);
  // Namespace, then name: the order `get -A` lists.
  assert.is(s.page[0]!.ref.namespace, 'team-0');
});

test('filters by namespace, kind, cluster, label and name compose; a page never starts past the end', () => {
  const index = fleetIndex(100, 4);
  const s = selectWorkloads(
    index,
    { namespace: 'team-1', kind: 'Deployment', cluster: 'member3', name: 'app-000', offset: 999 },
    parseLabelFilter('tier=web,app')!,
  );
  const names = selectWorkloads(
    index,
    { namespace: 'team-1', kind: 'Deployment', cluster: 'member3', name: 'app-000', limit: 500 },
    parseLabelFilter('tier=web,app')!,
  ).page.map((p) => p.ref.name);
  assert.ok(names.length > 0);
  for (const n of names) {
    const i = Number(n.slice(4));
    assert.ok(i % 7 === 1 && i % 2 === 1 && i % 4 >= 2 && i < 100, n);
  }
  assert.is(s.offset, s.total - 1);
  assert.is(selectWorkloads(index, {}, parseLabelFilter('tier!=web')!).total, 50 + 1);
});

test('sorts by name, kind or cluster count, ascending or descending', () => {
  const index = fleetIndex(20, 5);
  const byName = selectWorkloads(index, { sort: 'name', limit: 500 }).page.map((p) => p.ref.name);
  assert.equal(byName, [...byName].sort());
  const desc = selectWorkloads(index, { sort: 'clusters', descending: true, limit: 500 }).page;
  assert.is(desc[0]!.entry.clusters.length, 5);
  assert.is(desc[desc.length - 1]!.entry.clusters.length, 1);
  assert.is(selectWorkloads(index, { sort: 'kind' }).page[0]!.ref.kind, 'ConfigMap');
});

test('label filters take kubectl equality terms and refuse set-based ones', () => {
  assert.equal(parseLabelFilter('app=web, tier!=db,canary'), [
    { key: 'app', op: '=', value: 'web' },
    { key: 'tier', op: '!=', value: 'db' },
    { key: 'canary', op: 'exists' },
  ]);
  assert.equal(parseLabelFilter('app.kubernetes.io/name==nginx'), [
    { key: 'app.kubernetes.io/name', op: '=', value: 'nginx' },
  ]);
  assert.equal(parseLabelFilter(''), []);
  assert.is(parseLabelFilter('tier in (web)'), null);
});

test('a catalog read once per set of heads pages exactly as the index does, each order sorted once for every page', () => {
  const index = fleetIndex(2_000, 10);
  const catalog = catalogWorkloads(index);
  const labels = parseLabelFilter('tier=web')!;
  for (const sort of WORKLOAD_SORTS)
    for (const q of [
      { sort, offset: 40, limit: 20 },
      { sort, descending: true, namespace: 'team-3', cluster: 'member4' },
      { sort, kind: 'ConfigMap' },
    ]) {
      const fromIndex = selectWorkloads(index, q, labels);
      assert.equal(selectWorkloads(catalog, q, labels), fromIndex, JSON.stringify(q));
      assert.equal(selectWorkloads(catalog, q), selectWorkloads(index, q), JSON.stringify(q));
    }
  assert.is(catalog.sorted('name'), catalog.sorted('name'));
  // A descending page reverses its own copy: the catalog's order stays for the next page.
  const first = catalog.sorted('namespace')[0]!.key;
  selectWorkloads(catalog, { descending: true });
  assert.is(catalog.sorted('namespace')[0]!.key, first);
});

test.run();
