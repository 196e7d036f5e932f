import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { ClusterDelivery } from '../../src/deliveries/applyRendered.ts';
import type { ApplyResult } from '../../src/deliveries/types.ts';
import { parseYamlValue } from '../../src/yaml/blockYaml.ts';
import { buildStatusFiles, type ClusterReport } from '../../src/statuses/buildStatusFiles.ts';
import { templateStatusPath } from '../../src/branches/status/statusFiles.ts';

const web = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'demo', name: 'web' };
const live = (ready: number) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'demo', generation: 1 },
  spec: { replicas: 2 },
  status: { observedGeneration: 1, replicas: 2, updatedReplicas: 2, readyReplicas: ready, availableReplicas: ready },
});
const delivery = (
  cluster: string,
  results: ApplyResult[],
  previous = results.filter((r) => !r.prune).map((r) => r.ref),
): ClusterReport => ({
  cluster,
  delivery: {
    cluster,
    results,
    inventory: results.filter((r) => !r.prune).map((r) => r.ref),
    previousInventory: previous,
    writes: 0,
    notes: [],
    durationMs: 0,
  } satisfies ClusterDelivery,
});
const now = new Date('2026-01-02T03:04:05Z');
const PATH = templateStatusPath(web);

test('template status path mirrors the rendered layout without the cluster', () => {
  assert.is(PATH, 'templates/demo/deployment.apps_web.yaml');
  assert.is(
    templateStatusPath({ apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'demo' }),
    'templates/_cluster/namespace_demo.yaml',
  );
});

test('two writers for different clusters merge into one template file; the aggregate sums both', () => {
  const first = buildStatusFiles(
    new Map(),
    [delivery('m1', [{ ref: web, action: 'created', message: 'created', live: live(2) }])],
    now,
  );
  const existing = new Map([[PATH, first.get(PATH)!]]);
  const second = buildStatusFiles(
    existing,
    [delivery('m2', [{ ref: web, action: 'unchanged', message: 'x', live: live(1) }])],
    now,
  );
  const file = parse(second.get(PATH)!);
  assert.equal(
    file.aggregatedStatus.map((i: { clusterName: string }) => i.clusterName),
    ['m1', 'm2'],
  );
  assert.is(file.status.readyReplicas, 3);
  assert.is(file.status.replicas, 4);
  assert.is(file.conditions[0].status, 'True');
  assert.is(file.aggregatedStatus[1].health, 'Unhealthy');
});

test('FullyApplied waits for every cluster the binding targets, not only those that reported', () => {
  const targetsOf = () => new Set(['m1', 'm2']);
  const first = buildStatusFiles(
    new Map(),
    [delivery('m1', [{ ref: web, action: 'created', message: 'created', live: live(2) }])],
    now,
    undefined,
    undefined,
    targetsOf,
  );
  const condition = parse(first.get(PATH)!).conditions[0];
  assert.is(condition.status, 'False');
  assert.is(condition.reason, 'FullyAppliedFailed');
  const second = buildStatusFiles(
    new Map([[PATH, first.get(PATH)!]]),
    [delivery('m2', [{ ref: web, action: 'unchanged', message: 'x', live: live(1) }])],
    now,
    undefined,
    undefined,
    targetsOf,
  );
  assert.is(parse(second.get(PATH)!).conditions[0].status, 'True');
});

// meta.SetStatusCondition, as AggregateResourceBindingWorkStatus sets FullyApplied: the time moves with the status only.
test('FullyApplied records when its status last changed, and keeps that time while the status stays', () => {
  const targetsOf = () => new Set(['m1', 'm2']);
  const at = (iso: string) => new Date(iso);
  const condition = (text: string) => parse(text).conditions[0];
  const first = buildStatusFiles(
    new Map(),
    [delivery('m1', [{ ref: web, action: 'created', message: 'created', live: live(2) }])],
    at('2026-01-02T03:00:00Z'),
    undefined,
    undefined,
    targetsOf,
  ).get(PATH)!;
  assert.equal(condition(first), {
    type: 'FullyApplied',
    status: 'False',
    reason: 'FullyAppliedFailed',
    message: 'Failed to apply all works, see status.aggregatedStatus for details',
    lastTransitionTime: '2026-01-02T03:00:00Z',
  });
  // Still False, other entries changing: the time stays.
  const second = buildStatusFiles(
    new Map([[PATH, first]]),
    [delivery('m1', [{ ref: web, action: 'configured', message: 'x', live: live(1) }])],
    at('2026-01-02T03:01:00Z'),
    undefined,
    undefined,
    targetsOf,
  ).get(PATH)!;
  assert.is(condition(second).lastTransitionTime, '2026-01-02T03:00:00Z');
  const third = buildStatusFiles(
    new Map([[PATH, second]]),
    [delivery('m2', [{ ref: web, action: 'created', message: 'created', live: live(1) }])],
    at('2026-01-02T03:02:00Z'),
    undefined,
    undefined,
    targetsOf,
  ).get(PATH)!;
  assert.is(condition(third).status, 'True');
  assert.is(condition(third).lastTransitionTime, '2026-01-02T03:02:00Z');
});

// helper/workstatus.go assembleWorkStatus skips Works being deleted: a deletion the prune guard holds is one.
test('a deletion the prune guard holds counts neither for FullyApplied nor for the aggregate; the file keeps its entry', () => {
  const pod = { apiVersion: 'v1', kind: 'Pod', namespace: 'demo', name: 'one' };
  const running = {
    ...pod,
    metadata: { name: 'one', namespace: 'demo' },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
  const file = parse(
    buildStatusFiles(
      new Map(),
      [
        delivery('m1', [{ ref: pod, action: 'unchanged', message: 'x', live: running }]),
        delivery(
          'm2',
          [{ ref: pod, action: 'held', prune: true, message: 'deletion held by the prune budget' }],
          [pod],
        ),
      ],
      now,
      undefined,
      undefined,
      () => new Set(['m1']),
    ).get(templateStatusPath(pod))!,
  );
  assert.is(file.conditions[0].status, 'True', 'm2 is leaving: its held copy does not hold FullyApplied back');
  assert.is(file.status.phase, 'Running', 'the held copy, without status, does not count as a Pending pod');
  assert.equal(
    file.aggregatedStatus.map((i: { clusterName: string }) => i.clusterName),
    ['m1', 'm2'],
  );
});

test('same input twice gives no edits: nothing churns between passes', () => {
  const reports = [
    {
      ...delivery('m1', [{ ref: web, action: 'created', message: 'created', live: live(2) }]),
      status: { conditions: [{ type: 'Ready', status: 'True' as const, reason: 'ClusterReady' }] },
    },
  ];
  const first = buildStatusFiles(new Map(), reports, now);
  const existing = new Map([...first].map(([p, t]) => [p, t!]));
  // A later pass: "unchanged" instead of "created", a later clock.
  const again = [
    {
      ...delivery('m1', [{ ref: web, action: 'unchanged', message: 'live object already matches', live: live(2) }]),
      status: reports[0]!.status,
    },
  ];
  assert.equal([...buildStatusFiles(existing, again, new Date('2027-01-01T00:00:00Z')).keys()], []);
});

test('a Ready change moves lastTransitionTime; the rest of the cluster status is kept when unreachable', () => {
  const up = buildStatusFiles(
    new Map(),
    [{ cluster: 'm1', status: { kubernetesVersion: 'v1.32.0', conditions: [{ type: 'Ready', status: 'True' }] } }],
    now,
  );
  const existing = new Map([...up].map(([p, t]) => [p, t!]));
  const later = new Date('2026-01-02T04:00:00Z');
  const undamped = { thresholds: { successMs: 0, failureMs: 0 } };
  const down = buildStatusFiles(
    existing,
    [{ cluster: 'm1', status: { conditions: [{ type: 'Ready', status: 'False', reason: 'ClusterNotReachable' }] } }],
    later,
    undefined,
    undamped,
  );
  const cluster = parse(down.get('clusters/m1.yaml')!);
  assert.is(cluster.status.kubernetesVersion, 'v1.32.0');
  assert.is(cluster.status.conditions[0].lastTransitionTime, '2026-01-02T04:00:00Z');
  assert.is(parse(existing.get('clusters/m1.yaml')!).status.conditions[0].lastTransitionTime, '2026-01-02T03:04:05Z');
});

// cluster_status_controller.go syncClusterStatus: setCurrentClusterStatus returns CompleteAPIEnablements, Ready is
// appended after it, and updateStatusIfNeeded sets each with meta.SetStatusCondition (in place, or at the end).
test("a cluster's conditions stand where Karmada's status controller sets them: a new one at the end, a known one in its place", () => {
  const complete = { type: 'CompleteAPIEnablements', status: 'True' as const, reason: 'Complete' };
  const readyWas = (status: 'True' | 'False', reason: string) => ({ type: 'Ready', status, reason });
  const types = (edits: Map<string, string | null>) =>
    parse(edits.get('clusters/m1.yaml')!).status.conditions.map((c: { type: string; status: string }) => [
      c.type,
      c.status,
    ]);
  const collected = { conditions: [readyWas('True', 'ClusterReady'), complete], kubernetesVersion: 'v1.32.0' };
  const undamped = { thresholds: { successMs: 0, failureMs: 0 } };
  const fresh = buildStatusFiles(new Map(), [{ cluster: 'm1', status: collected }], now);
  assert.equal(types(fresh), [
    ['CompleteAPIEnablements', 'True'],
    ['Ready', 'True'],
  ]);
  // First seen unreachable, then reachable: Ready was there first and stays first.
  const down = buildStatusFiles(
    new Map(),
    [{ cluster: 'm1', status: { conditions: [readyWas('False', 'ClusterNotReachable')] } }],
    now,
    undefined,
    undamped,
  );
  const up = buildStatusFiles(
    new Map([...down].map(([p, t]) => [p, t!])),
    [{ cluster: 'm1', status: collected }],
    new Date('2026-01-02T04:00:00Z'),
    undefined,
    undamped,
  );
  assert.equal(types(up), [
    ['Ready', 'True'],
    ['CompleteAPIEnablements', 'True'],
  ]);
});

test('a member seen healthy again while the success threshold holds Ready at False gets its details only once Ready is True', () => {
  const collected = (version: string) => ({
    cluster: 'm1',
    status: {
      conditions: [
        { type: 'Ready', status: 'True' as const, reason: 'ClusterReady' },
        { type: 'CompleteAPIEnablements', status: 'True' as const, reason: 'Complete' },
      ],
      kubernetesVersion: version,
      nodeSummary: { totalNum: 3, readyNum: 3 },
    },
  });
  const down = buildStatusFiles(
    new Map(),
    [
      {
        cluster: 'm1',
        status: { conditions: [{ type: 'Ready', status: 'False', reason: 'ClusterNotReachable' }] },
      },
    ],
    now,
  );
  let existing = new Map([...down].map(([p, t]) => [p, t!]));
  const read = (edits: Map<string, string | null>) => {
    existing = new Map([...existing, ...[...edits].map(([p, t]) => [p, t!] as [string, string])]);
    return parse(existing.get('clusters/m1.yaml')!).status;
  };
  const held = read(buildStatusFiles(existing, [collected('v1.32.0')], new Date(now.getTime() + 10_000)));
  assert.equal(
    held.conditions.map((c: { type: string; status: string }) => [c.type, c.status]),
    [['Ready', 'False']],
  );
  assert.is(held.kubernetesVersion, undefined, 'nothing collected while Ready stays False');
  assert.is(held.nodeSummary, undefined);
  const up = read(buildStatusFiles(existing, [collected('v1.32.1')], new Date(now.getTime() + 40_000)));
  assert.equal(
    up.conditions.map((c: { type: string; status: string }) => [c.type, c.status]),
    [
      ['Ready', 'True'],
      ['CompleteAPIEnablements', 'True'],
    ],
  );
  assert.is(up.kubernetesVersion, 'v1.32.1');
  assert.equal(up.nodeSummary, { totalNum: 3, readyNum: 3 });
});

test('a pruned object leaves its cluster entry; the file goes when no cluster is left', () => {
  const first = buildStatusFiles(
    new Map(),
    [delivery('m1', [{ ref: web, action: 'created', message: 'created', live: live(2) }])],
    now,
  );
  const existing = new Map([...first].map(([p, t]) => [p, t!]));
  const gone = buildStatusFiles(
    existing,
    [delivery('m1', [{ ref: web, prune: true, action: 'pruned', message: 'deleted' }], [web])],
    now,
  );
  assert.is(gone.get(PATH), null);
  assert.match(gone.get('inventories/m1.json')!, /"objects":\[\n\n\]/);
});

test('a conflict is recorded as not applied, with the reason', () => {
  const edits = buildStatusFiles(
    new Map(),
    [delivery('m1', [{ ref: web, action: 'conflict', message: 'not ours' }])],
    now,
  );
  const file = parse(edits.get(PATH)!);
  assert.equal(file.aggregatedStatus[0], {
    clusterName: 'm1',
    applied: false,
    health: 'Unknown',
    message: 'conflict: not ours',
  });
  assert.is(file.conditions[0].status, 'False');
});

test('status strings a YAML 1.1 reader would take for something else (clusters named yes, on, n) read back as the same strings', () => {
  const reports = ['yes', 'on', 'n'].map((cluster) =>
    delivery(cluster, [{ ref: web, action: 'created', message: 'created', live: live(2) }]),
  );
  const text = buildStatusFiles(new Map(), reports, now).get(PATH)!;
  const file = parseYamlValue(text) as { aggregatedStatus: { clusterName: unknown }[] };
  assert.equal(file.aggregatedStatus.map((a) => a.clusterName).sort(), ['n', 'on', 'yes'], text);
});

// work_status_controller.go reflectStatus: when the native ReflectStatus fails (a template generation annotation that is
// no number, a status that is no object), it returns before the Work is updated: the cluster keeps the status and
// health it last reflected, and one that never reflected is applied with Unknown health and no status.
test("a member object whose status cannot be reflected leaves the cluster's last reflected status and health", () => {
  const withAnnotation = (value: string, ready: number) => {
    const object = live(ready);
    return {
      ...object,
      metadata: { ...object.metadata, annotations: { 'resourcetemplate.karmada.io/generation': value } },
    };
  };
  const unreadable = buildStatusFiles(
    new Map(),
    [delivery('m1', [{ ref: web, action: 'created', message: 'created', live: withAnnotation('abc', 2) }])],
    now,
  );
  assert.equal(parse(unreadable.get(PATH)!).aggregatedStatus, [
    { clusterName: 'm1', applied: true, health: 'Unknown' },
  ]);
  const good = buildStatusFiles(
    new Map(),
    [delivery('m1', [{ ref: web, action: 'unchanged', message: 'x', live: withAnnotation('1', 2) }])],
    now,
  ).get(PATH)!;
  assert.is(parse(good).aggregatedStatus[0].health, 'Healthy');
  const again = buildStatusFiles(
    new Map([[PATH, good]]),
    [delivery('m1', [{ ref: web, action: 'configured', message: 'x', live: withAnnotation('abc', 0) }])],
    now,
  );
  assert.is(again.has(PATH), false, 'the file stays as it was');
  const observed = buildStatusFiles(
    new Map([[PATH, good]]),
    [{ cluster: 'm1', observed: [{ ref: web, live: withAnnotation('abc', 0) }] }],
    now,
  );
  assert.is(observed.has(PATH), false, 'a status pass changes nothing either');

  const widget = { apiVersion: 'example.io/v1', kind: 'Widget', namespace: 'demo', name: 'w' };
  const scalar = buildStatusFiles(
    new Map(),
    [
      delivery('m1', [
        {
          ref: widget,
          action: 'created',
          message: 'created',
          live: { ...widget, metadata: { name: 'w', namespace: 'demo' }, status: 'ok' },
        },
      ]),
    ],
    now,
  );
  assert.equal(parse(scalar.get(templateStatusPath(widget))!).aggregatedStatus, [
    { clusterName: 'm1', applied: true, health: 'Unknown' },
  ]);
});

test.run();
