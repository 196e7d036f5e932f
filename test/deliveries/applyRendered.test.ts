// End to end: three emulated members on loopback, the rendered branch in a real Git repo, kubectl 1.32 as the
// independent check of what landed. Tests run in order and build on each other.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyRendered, type RenderedDelivery } from '../../src/deliveries/applyRendered.ts';
import { connectKubeconfig } from '../../src/deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../../src/deliveries/KubeTarget.ts';
import type { GitRepo } from '../../src/commits/types.ts';
import type { Member } from '../../src/members/startMember.ts';
import { commitRendered, kubectl, RENDERED_REF, rendered, Scratch } from './helpers/e2e.ts';
import { writeStatus } from '../../src/statuses/writeStatus.ts';

const scratch = new Scratch();
const FAST_RETRY = { attempts: 3, baseDelayMs: 20, maxDelayMs: 100 };
let members: Member[];
let kubes: Map<string, KubeTarget>;
let repo: GitRepo;
let kubeconfig: string;
let cache: string;

const crd = rendered('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'widgets.example.com', undefined, {
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
});
const deployment = rendered('apps/v1', 'Deployment', 'web', 'demo', {
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [{ name: 'web', image: 'nginx:1.27', resources: { requests: { cpu: '100m', memory: '64Mi' } } }],
      },
    },
  },
});
const folder = (extra: Record<string, unknown>[] = []) => [
  rendered('v1', 'Namespace', 'demo', undefined),
  crd,
  deployment,
  rendered('example.com/v1', 'Widget', 'w1', 'demo', { spec: { size: 3 } }),
  rendered('v1', 'ConfigMap', 'cfg', 'demo', { data: { mode: 'blue' } }),
  rendered('v1', 'ConfigMap', 'handmade', 'default', { data: { from: 'git' } }),
  ...extra,
];
const apply = (opts: { clusters?: Map<string, KubeTarget> } = {}) =>
  applyRendered({
    repo,
    outputRef: RENDERED_REF,
    clusters: opts.clusters ?? kubes,
    concurrency: 3,
    retry: FAST_RETRY,
    crdEstablishTimeoutMs: 10_000,
  });
const actions = (d: RenderedDelivery, cluster: string) =>
  Object.fromEntries(
    d.clusters.get(cluster)!.results.map((r) => [`${r.ref.kind}/${r.ref.name}${r.prune ? ' (prune)' : ''}`, r.action]),
  );
const k = (member: string, ...args: string[]) => kubectl(kubeconfig, cache, ['--context', member, ...args]);
// `kubectl create configmap` sends protobuf; a manifest on stdin goes as JSON, which any API server takes.
const handMade = (member: string, name: string, namespace: string, data: Record<string, string>) =>
  kubectl(
    kubeconfig,
    cache,
    ['--context', member, 'create', '-f', '-'],
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data }),
  );

test.before(async () => {
  members = await Promise.all(['m1', 'm2', 'm3'].map((n) => scratch.member(n)));
  kubeconfig = scratch.kubeconfig(members);
  cache = scratch.dir('flotilla-kubectl-cache-');
  kubes = await connectKubeconfig(kubeconfig, { timeoutMs: 3_000 });
  repo = await scratch.repo();
  await commitRendered(repo, { m1: folder(), m2: folder(), m3: folder() });
  // Someone created default/handmade on m1 by hand before Flotilla came along.
  const made = await handMade('m1', 'handmade', 'default', { from: 'hand' });
  assert.is(made.code, 0, made.stderr);
});

test.after(async () => {
  await Promise.all([...(kubes?.values() ?? [])].map((kube) => kube.close()));
  await scratch.cleanup();
});

test('first pass creates Namespace, CRD, custom resource and workloads on every member; kubectl sees them', async () => {
  const d = await apply();
  for (const c of ['m2', 'm3']) {
    assert.equal(
      actions(d, c),
      {
        'Namespace/demo': 'created',
        'CustomResourceDefinition/widgets.example.com': 'created',
        'Deployment/web': 'created',
        'Widget/w1': 'created',
        'ConfigMap/cfg': 'created',
        'ConfigMap/handmade': 'created',
      },
      c,
    );
  }
  const got = await k('m2', 'get', 'deployment', 'web', '-n', 'demo', '-o', 'json', '--show-managed-fields');
  assert.is(got.code, 0, got.stderr);
  const obj = JSON.parse(got.stdout);
  assert.is(obj.spec.replicas, 2);
  assert.is(obj.metadata.labels['karmada.io/managed'], 'true');
  assert.ok(
    obj.metadata.managedFields.some(
      (f: { manager: string; operation: string }) => f.manager === 'flotilla' && f.operation === 'Apply',
    ),
  );
  const widget = await k('m3', 'get', 'widgets.example.com', 'w1', '-n', 'demo', '-o', 'json');
  assert.is(widget.code, 0, widget.stderr);
  assert.is(JSON.parse(widget.stdout).spec.size, 3);
  await writeStatus({
    repo,
    reports: [...d.clusters.values()].map((delivery) => ({ cluster: delivery.cluster, delivery })),
    renderedCommit: d.renderedCommit,
    sourceCommit: d.sourceCommit,
  });
});

test('under abort a hand-made object with the same name survives untouched and is reported as a conflict', async () => {
  const d = await apply();
  const result = d.clusters.get('m1')!.results.find((r) => r.ref.name === 'handmade')!;
  assert.is(result.action, 'conflict');
  assert.match(result.message, /Karmada will not manage this resource/);
  const got = JSON.parse((await k('m1', 'get', 'configmap', 'handmade', '-n', 'default', '-o', 'json')).stdout);
  assert.equal(got.data, { from: 'hand' });
  assert.is(got.metadata.labels?.['karmada.io/managed'], undefined);
});

test('a pass over an unchanged folder makes zero writes', async () => {
  const before = [...kubes.values()].map((kube) => kube.stats.writes);
  const d = await apply();
  assert.equal(
    [...d.clusters.values()].map((c) => c.writes),
    [0, 0, 0],
  );
  assert.equal(
    [...kubes.values()].map((kube) => kube.stats.writes),
    before,
    'no POST/PUT/PATCH/DELETE left the client',
  );
  for (const c of ['m2', 'm3'])
    assert.ok(
      Object.values(actions(d, c)).every((a) => a === 'unchanged'),
      c,
    );
});

test('a changed manifest is configured in place, and only that one is written', async () => {
  await commitRendered(repo, {
    m1: folder(),
    m2: folder(),
    m3: [
      ...folder().filter((o) => (o.metadata as { name: string }).name !== 'cfg'),
      rendered('v1', 'ConfigMap', 'cfg', 'demo', { data: { mode: 'green' } }, 'abort', 'b'.repeat(40)),
    ],
  });
  const d = await apply();
  assert.is(d.clusters.get('m3')!.writes, 1);
  assert.is(actions(d, 'm3')['ConfigMap/cfg'], 'configured');
  assert.is(
    JSON.parse((await k('m3', 'get', 'configmap', 'cfg', '-n', 'demo', '-o', 'json')).stdout).data.mode,
    'green',
  );
  assert.is(d.clusters.get('m1')!.writes + d.clusters.get('m2')!.writes, 0);
  await writeStatus({
    repo,
    reports: [...d.clusters.values()].map((delivery) => ({ cluster: delivery.cluster, delivery })),
    renderedCommit: d.renderedCommit,
  });
});

test('removing an object from the folder prunes only objects that are ours', async () => {
  // On m3 someone took cfg over by hand (label removed): no longer ours to delete.
  assert.is((await k('m3', 'label', 'configmap', 'cfg', '-n', 'demo', 'karmada.io/managed-')).code, 0);
  // An unrelated hand-made object in the same namespace.
  assert.is((await handMade('m2', 'stranger', 'demo', { a: 'b' })).code, 0);
  const without = () => folder().filter((o) => !['cfg', 'handmade'].includes((o.metadata as { name: string }).name));
  await commitRendered(repo, { m1: without(), m2: without(), m3: without() });
  const d = await apply();
  assert.is(actions(d, 'm1')['ConfigMap/cfg (prune)'], 'pruned');
  assert.is(actions(d, 'm2')['ConfigMap/cfg (prune)'], 'pruned');
  assert.is(actions(d, 'm2')['ConfigMap/handmade (prune)'], 'pruned');
  assert.is(actions(d, 'm3')['ConfigMap/cfg (prune)'], 'conflict');
  assert.is(
    actions(d, 'm1')['ConfigMap/handmade (prune)'],
    undefined,
    'the conflicting object was never in the inventory',
  );
  assert.is((await k('m1', 'get', 'configmap', 'cfg', '-n', 'demo')).code, 1, 'gone from m1');
  assert.is((await k('m3', 'get', 'configmap', 'cfg', '-n', 'demo')).code, 0, 'kept on m3');
  assert.is((await k('m1', 'get', 'configmap', 'handmade', '-n', 'default')).code, 0, 'hand-made object kept on m1');
  assert.is((await k('m2', 'get', 'configmap', 'stranger', '-n', 'demo')).code, 0, 'unrelated object kept on m2');
  await writeStatus({
    repo,
    reports: [...d.clusters.values()].map((delivery) => ({ cluster: delivery.cluster, delivery })),
    renderedCommit: d.renderedCommit,
  });
  // The next pass has nothing left to prune.
  const again = await apply();
  assert.equal(
    [...again.clusters.values()].map((c) => c.writes),
    [0, 0, 0],
  );
  assert.ok(again.clusters.get('m1')!.results.every((r) => !r.prune));
});

test('a missing cluster folder applies nothing and prunes nothing', async () => {
  const rest = folder().filter((o) => !['cfg', 'handmade'].includes((o.metadata as { name: string }).name));
  await commitRendered(repo, { m1: rest, m2: rest });
  const d = await apply();
  const m3 = d.clusters.get('m3')!;
  assert.is(m3.writes, 0);
  assert.equal(m3.results, []);
  assert.match(m3.notes.join('\n'), /missing from the rendered commit/);
  assert.is((await k('m3', 'get', 'deployment', 'web', '-n', 'demo')).code, 0);
  assert.ok(m3.inventory.length > 0, 'the inventory is kept for when the folder comes back');
  await commitRendered(repo, { m1: rest, m2: rest, m3: rest });
});

test('a member that refuses connections or answers 500 fails alone; the others apply', async () => {
  const [, m2, m3] = members;
  const extra = [rendered('v1', 'ConfigMap', 'added', 'demo', { data: { n: '1' } })];
  const rest = folder(extra).filter((o) => !['cfg', 'handmade'].includes((o.metadata as { name: string }).name));
  await commitRendered(repo, { m1: rest, m2: rest, m3: rest });
  await m2!.faults.set({ refuse: true });
  await m3!.faults.set({ errorRate: 1 });
  try {
    const requestsTo = (m: Member) => [...m.requestsByMethod.values()].reduce((sum, n) => sum + n, 0);
    const before = requestsTo(m3!);
    const d = await apply();
    assert.is(actions(d, 'm1')['ConfigMap/added'], 'created');
    assert.ok(Object.values(actions(d, 'm2')).every((a) => a === 'failed'));
    assert.match(d.clusters.get('m2')!.notes.join('\n'), /ECONNREFUSED|did not answer/);
    assert.ok(Object.values(actions(d, 'm3')).every((a) => a === 'failed'));
    assert.match(d.clusters.get('m3')!.results[0]!.message, /500/);
    // Failing members do not hold the pass up, counted rather than timed: the refusing one is given up after its
    // first request, and the erring one gets each object's read and write, each its attempts, and no more.
    assert.match(d.clusters.get('m2')!.notes.join('\n'), /the remaining objects were not attempted/);
    const toM3 = requestsTo(m3!) - before;
    assert.ok(toM3 <= FAST_RETRY.attempts * 2 * rest.length, `${toM3} requests to m3 for ${rest.length} objects`);
    assert.ok(d.clusters.get('m2')!.inventory.length >= 4, 'a failed pass forgets nothing');
  } finally {
    await m2!.faults.reset();
    await m3!.faults.reset();
  }
  const healed = await apply();
  for (const c of ['m2', 'm3']) assert.is(actions(healed, c)['ConfigMap/added'], 'created', c);
});

test('apply throughput against one member (200 ConfigMaps, then a no-op pass)', async () => {
  const many = Array.from({ length: 200 }, (_, i) =>
    rendered('v1', 'ConfigMap', `bulk-${i}`, 'demo', { data: { i: String(i) } }),
  );
  const base = folder().filter((o) => !['cfg', 'handmade'].includes((o.metadata as { name: string }).name));
  await commitRendered(repo, { m1: [...base, ...many], m2: base, m3: base });
  const only = new Map([['m1', kubes.get('m1')!]]);
  let t = performance.now();
  const d = await apply({ clusters: only });
  const first = performance.now() - t;
  assert.is(Object.values(actions(d, 'm1')).filter((a) => a === 'created').length, 200);
  t = performance.now();
  const again = await apply({ clusters: only });
  const second = performance.now() - t;
  assert.is(again.clusters.get('m1')!.writes, 0);
  console.log(
    `      apply: 200 creates in ${first.toFixed(0)} ms (${(200 / (first / 1000)).toFixed(0)} objects/s); no-op pass over ${again.clusters.get('m1')!.results.length} objects in ${second.toFixed(0)} ms (${(again.clusters.get('m1')!.results.length / (second / 1000)).toFixed(0)} objects/s)`,
  );
});

test.run();
