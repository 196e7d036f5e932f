// The reconciler's timing with no resync at all (resyncMs 0): status catch-up after a push, and failover driven by
// the status cadence and the deadlines Git records. Real daemon in-process, real members, real durations (short).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { startReconciler, type Reconciler } from '../../src/passes/startReconciler.ts';
import { waitFor } from '../deliveries/helpers/e2e.ts';
import {
  clusterRegistration,
  configMap,
  deployment,
  type Fleet,
  makeFleet,
  NOT_READY_TAINT_POLICY,
  reconcilerOptions,
  weightedPolicy,
} from '../helpers/fleet.ts';
import { LogEvents } from '../helpers/logEvents.ts';

let fleet: Fleet;
const running: Reconciler[] = [];

test.before(async () => {
  // Pods turn Ready 1 s after they are bound: a status written in the apply pass shows the rollout unfinished.
  fleet = await makeFleet({ members: ['member1', 'member2'], readyDelayMs: 1_000 });
});
test.after(async () => {
  for (const r of running) await r.stop();
  await fleet?.cleanup();
});

const show = (rev: string, file: string) => {
  try {
    return fleet.git(fleet.bare, 'show', `${rev}:${file}`);
  } catch {
    return undefined;
  }
};
type TemplateStatus = {
  status?: { readyReplicas?: number; replicas?: number };
  aggregatedStatus?: { clusterName: string; health: string }[];
} | null;
const nginxStatus = () =>
  parse(show('flotilla/status', 'templates/default/deployment.apps_nginx.yaml') ?? 'null') as TemplateStatus;
const clusterStatus = (name: string) =>
  parse(show('flotilla/status', `clusters/${name}.yaml`) ?? 'null') as {
    spec?: { taints?: { key: string; effect: string }[] };
    status: { conditions: { type: string; status: string; reason: string }[] };
  } | null;
const passReasons = (events: LogEvents) =>
  events.entries.filter((e) => e.step === 'pass' || e.step === 'status-pass').flatMap((e) => e.reasons as string[]);

test('after a push the status branch reaches 4/4 Healthy by catch-up status passes alone: no resync, no cadence', async () => {
  const events = new LogEvents();
  const reconciler = await startReconciler(
    reconcilerOptions(fleet, events.log, { statusUpdateFrequencyMs: 0, catchUp: { intervalMs: 200, forMs: 20_000 } }),
  );
  running.push(reconciler);
  const pushed = Date.now();
  const sha = fleet.push(
    {
      'clusters/member1.yaml': clusterRegistration('member1'),
      'clusters/member2.yaml': clusterRegistration('member2'),
      'templates/nginx.yaml': deployment('nginx', 4),
      'policies/nginx.yaml': weightedPolicy('nginx', ['member1', 'member2'], { notReadyTolerationSeconds: 2 }),
      'policies/not-ready-evicts.yaml': NOT_READY_TAINT_POLICY,
    },
    'nginx 2+2',
  );
  const pass = await events.next('the pass of the push', (e) => e.step === 'pass' && e.sourceCommit === sha);
  assert.ok((pass.writes as number) > 0);
  const seenInPass = nginxStatus();
  assert.ok(seenInPass?.status?.readyReplicas !== 4, 'the apply pass cannot see pods that turn ready a second later');
  const healthy = await events.next(
    'a status pass that leaves 4/4 on the status branch',
    (e) => e.step === 'status-pass' && nginxStatus()?.status?.readyReplicas === 4,
    45_000,
    true,
  );
  const seconds = (Date.now() - pushed) / 1000;
  assert.equal(healthy.reasons, ['catch-up']);
  assert.is(healthy.next, undefined, 'everything it touched is Healthy: the catch-up ends, nothing else is scheduled');
  assert.equal(
    nginxStatus()!.aggregatedStatus!.map((a) => `${a.clusterName} ${a.health}`),
    ['member1 Healthy', 'member2 Healthy'],
  );
  assert.equal([...new Set(passReasons(events))].sort(), ['catch-up', 'push']);
  const catchUps = events.entries.filter((e) => e.step === 'status-pass');
  assert.ok(
    catchUps.every((e) => e.missing === 0),
    'a status pass never re-applies',
  );
  console.log(
    `  status branch 4/4 Healthy ${seconds.toFixed(1)} s after the push, ${catchUps.length} catch-up status passes`,
  );
  await reconciler.stop();
});

test('resync 0: a stopped member turns NotReady after the threshold and is evicted after the toleration, by the status cadence and deadlines alone', async () => {
  const events = new LogEvents();
  const reconciler = await startReconciler(
    reconcilerOptions(fleet, events.log, {
      statusUpdateFrequencyMs: 500,
      catchUp: { intervalMs: 200, forMs: 20_000 },
      readyThresholds: { failureMs: 1_000, successMs: 1_000 },
    }),
  );
  running.push(reconciler);
  const sha = fleet.push(
    { 'templates/settings.yaml': configMap('settings', 'blue') },
    'an unplaced ConfigMap: starts a pass',
  );
  await events.next('the first pass', (e) => e.step === 'pass' && e.sourceCommit === sha);
  await waitFor(
    'nginx healthy on both members',
    () =>
      nginxStatus()?.aggregatedStatus?.every((a) => a.health === 'Healthy') &&
      nginxStatus()?.status?.readyReplicas === 4,
    45_000,
    100,
  );

  const member2 = fleet.members[1]!;
  const stopped = Date.now();
  await member2.stop();
  const notReady = await events.next(
    'member2 NotReady with its NoExecute taint',
    () => clusterStatus('member2')?.status.conditions.find((c) => c.type === 'Ready')?.status === 'False',
    45_000,
    true,
  );
  const notReadyAfter = (Date.now() - stopped) / 1000;
  assert.equal(
    clusterStatus('member2')!.spec?.taints?.map((t) => `${t.key}:${t.effect}`),
    ['cluster.karmada.io/not-ready:NoSchedule', 'cluster.karmada.io/not-ready:NoExecute'],
  );
  assert.ok(notReady);
  const evictedLine =
    /^failover: member2 NotReady since \S+ \(ClusterNotReachable\), taint cluster\.karmada\.io\/not-ready:NoExecute tolerated for 2s from \S+, expired: Deployment default\/nginx 2 replicas member2→member1$/m;
  await events.next(
    'the eviction render',
    (e) =>
      e.step === 'pass' && evictedLine.test(fleet.git(fleet.bare, 'log', '-1', '--format=%B', 'flotilla/rendered')),
    45_000,
    true,
  );
  const evictedAfter = (Date.now() - stopped) / 1000;
  const evictionPass = events.entries
    .filter((e) => e.step === 'pass')
    .find((e) => (e.reasons as string[]).includes('failover-check'));
  assert.ok(
    evictionPass,
    `the eviction came from the Failover-Check deadline: ${JSON.stringify(events.entries.filter((e) => e.step === 'pass').map((e) => e.reasons))}`,
  );
  assert.ok(
    events.entries.some((e) => e.step === 'pass' && (e.reasons as string[]).includes('cluster-state')),
    'the status pass that tainted member2 asked for a render at once',
  );

  const m1 = () =>
    fleet.members[0]!.store.get('apps/deployments', 'default', 'nginx') as
      | { spec: { replicas: number }; status?: { readyReplicas?: number } }
      | undefined;
  await waitFor(
    "member1 runs all 4, healthy, and member2's copy leaves the rendered branch",
    () =>
      m1()?.spec.replicas === 4 &&
      m1()?.status?.readyReplicas === 4 &&
      !fleet
        .git(fleet.bare, 'ls-tree', '-r', '--name-only', 'flotilla/rendered')
        .includes('clusters/member2/default/deployment.apps_nginx.yaml'),
    45_000,
    100,
  );
  const releasedAfter = (Date.now() - stopped) / 1000;
  assert.match(
    fleet.git(fleet.bare, 'log', '--format=%B', 'flotilla/rendered'),
    /^failover: member2's copy of Deployment default\/nginx removed: replacements healthy on member1/m,
  );
  assert.not.ok(passReasons(events).includes('resync'), 'no resync ever ran');
  // No timing is asserted (a loaded machine stretches it): that no resync ran and the eviction came from the
  // Failover-Check deadline is what proves the cadence and deadlines did it. The times are printed for the record.
  console.log(
    `  member2 stopped: NotReady ${notReadyAfter.toFixed(1)} s, evicted ${evictedAfter.toFixed(1)} s, replacements healthy and copy released ${releasedAfter.toFixed(1)} s (threshold 1 s, toleration 2 s, status every 0.5 s, no resync)`,
  );
  const statusPasses = reconciler.metrics.registry.getSingleMetric('flotilla_status_passes_total');
  assert.ok(statusPasses, 'status passes are counted in /metrics');
  const counted = (await statusPasses!.get()).values.find((v) => v.labels.result === 'success')?.value ?? 0;
  assert.is(counted, events.entries.filter((e) => e.step === 'status-pass' && !e.error).length);
  await reconciler.stop();
});

test.run();
