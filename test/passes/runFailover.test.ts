// Failover through the real daemon: `flotilla run` as its own process (default resync, short Ready thresholds), with
// member2's process really stopped and later restarted on its data dir and port. (kill -9 mid-propagation:
// test/passes/crashSafety.test.ts; the same rules on a fixed clock: test/outputs/failover.test.ts.)
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { startMember } from '../../src/members/startMember.ts';
import { waitFor } from '../deliveries/helpers/e2e.ts';
import { refuses } from '../helpers/refuses.ts';
import { spawnFlotilla, type Child } from '../helpers/spawnFlotilla.ts';
import {
  clusterRegistration,
  configMap,
  deployment,
  type Fleet,
  makeFleet,
  NOT_READY_TAINT_POLICY,
  weightedPolicy,
} from '../helpers/fleet.ts';

const children: Child[] = [];
let fleet: Fleet | undefined;

test.after(async () => {
  await Promise.all(children.map((c) => c.kill9()));
  await fleet?.cleanup();
});

const SETTINGS_POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: settings
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: ConfigMap, name: settings}
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    clusterTolerations:
      - {key: cluster.karmada.io/not-ready, operator: Exists, effect: NoExecute}
`;

test('flotilla run with the default resync (5m) and short thresholds: member2 stopped moves its replica to member1 after the toleration; restarted, it loses nothing still wanted', async () => {
  fleet = await makeFleet({ members: ['member1', 'member2'], readyDelayMs: 100 });
  const f = fleet;
  const source = f.push(
    {
      'clusters/member1.yaml': clusterRegistration('member1'),
      'clusters/member2.yaml': clusterRegistration('member2'),
      'policies/not-ready-evicts.yaml': NOT_READY_TAINT_POLICY,
      'templates/nginx.yaml': deployment('nginx', 2),
      'policies/nginx.yaml': weightedPolicy('nginx', ['member1', 'member2'], { notReadyTolerationSeconds: 2 }),
      'templates/settings.yaml': configMap('settings', 'blue'),
      'policies/settings.yaml': SETTINGS_POLICY,
    },
    'nginx 1:1, tolerating not-ready for 2 s; settings on both, tolerating it forever',
  );
  const run = spawnFlotilla([
    'run',
    '--repo',
    f.bare,
    '--credentials-dir',
    f.credentials,
    '--listen',
    'off',
    '--cluster-status-update-frequency',
    '1s',
    '--cluster-failure-threshold',
    '1s',
    '--cluster-success-threshold',
    '1s',
  ]);
  children.push(run);
  const { events } = run;
  const show = (rev: string, file: string) => {
    try {
      return f.git(f.bare, 'show', `${rev}:${file}`);
    } catch {
      return undefined;
    }
  };
  const statusOf = (cluster: string) =>
    parse(show('flotilla/status', `clusters/${cluster}.yaml`) ?? 'null') as {
      spec?: { taints?: { key: string; effect: string }[] };
      status: { conditions: { type: string; status: string; reason: string }[] };
    } | null;
  const renderedMessages = () => f.git(f.bare, 'log', '--format=%B%x00', 'flotilla/rendered');
  const renderedFiles = () => f.git(f.bare, 'ls-tree', '-r', '--name-only', 'flotilla/rendered').split('\n');
  const NGINX_M2 = 'clusters/member2/default/deployment.apps_nginx.yaml';
  const [member1, member2] = f.members as [(typeof f.members)[0], (typeof f.members)[0]];
  const deployOn = (m: typeof member1) =>
    m.store.get('apps/deployments', 'default', 'nginx') as
      | { spec: { replicas: number }; status?: { readyReplicas?: number } }
      | undefined;
  const timeline: string[] = [];
  const mark = (what: string, since: number) => timeline.push(`${what} ${((Date.now() - since) / 1000).toFixed(1)}s`);
  try {
    await events.next(
      'the first pass of the source commit',
      (e) => e.step === 'pass' && e.sourceCommit === source && !e.error,
      30_000,
      true,
    );
    const start = await events.next('start', (e) => e.step === 'start', 1_000, true);
    assert.equal(start.readyThresholds, { failureMs: 1000, successMs: 1000 }, 'the flags reach the daemon');
    assert.equal(
      [start.resyncMs, start.statusUpdateFrequencyMs, start.gracefulEvictionTimeoutSeconds],
      [300_000, 1000, 600],
      'resync and grace period as by default',
    );
    await waitFor(
      'nginx healthy on both members',
      () => {
        const s = parse(show('flotilla/status', 'templates/default/deployment.apps_nginx.yaml') ?? 'null') as {
          aggregatedStatus?: { health: string }[];
        } | null;
        return s?.aggregatedStatus?.length === 2 && s.aggregatedStatus.every((a) => a.health === 'Healthy');
      },
      20_000,
      100,
    );
    const settingsUid = member2.store.get('/configmaps', 'default', 'settings')!.metadata.uid;
    const { port, dataDir } = member2;

    const stopped = Date.now();
    await member2.stop();
    assert.ok(await refuses('127.0.0.1', port), 'member2 is really gone');
    const down = await waitFor(
      'member2 NotReady with the NoExecute taint',
      () => {
        const s = statusOf('member2');
        return s?.status.conditions.find((c) => c.type === 'Ready')?.status === 'False' ? s : undefined;
      },
      20_000,
      100,
    );
    mark('NotReady', stopped);
    assert.is(down.status.conditions.find((c) => c.type === 'Ready')!.reason, 'ClusterNotReachable');
    assert.equal(
      down.spec?.taints?.map((t) => `${t.key}:${t.effect}`),
      ['cluster.karmada.io/not-ready:NoSchedule', 'cluster.karmada.io/not-ready:NoExecute'],
    );
    const evicted = await waitFor(
      'the eviction commit after the 2 s toleration',
      () =>
        /^failover: member2 NotReady since \S+ \(ClusterNotReachable\), taint cluster\.karmada\.io\/not-ready:NoExecute tolerated for 2s from \S+, expired: Deployment default\/nginx 1 replica member2→member1$/m.exec(
          renderedMessages(),
        ),
      20_000,
      100,
    );
    mark('evicted', stopped);
    assert.ok(evicted);
    await waitFor(
      "member1 runs both replicas and member2's copy leaves the rendered branch",
      () => {
        const d = deployOn(member1);
        return d?.spec.replicas === 2 && d.status?.readyReplicas === 2 && !renderedFiles().includes(NGINX_M2);
      },
      20_000,
      100,
    );
    mark('replacements healthy, member2 copy removed', stopped);
    assert.match(
      renderedMessages(),
      /^failover: member2's copy of Deployment default\/nginx removed: replacements healthy on member1/m,
    );
    assert.ok(
      renderedFiles().includes('clusters/member2/default/configmap_settings.yaml'),
      'settings tolerates not-ready forever: it stays placed',
    );

    // member2's process comes back on its data dir and port: it kept everything it had.
    const back = await startMember({ name: 'member2', dataDir, readyDelayMs: 100 });
    f.members[1] = back;
    const restarted = Date.now();
    assert.is(back.port, port);
    assert.ok(deployOn(back), 'the stale nginx copy survived the restart, as on a real cluster');
    await waitFor(
      'member2 Ready and untainted again',
      () => {
        const s = statusOf('member2');
        return s?.status.conditions.find((c) => c.type === 'Ready')?.status === 'True' && !s.spec?.taints?.length;
      },
      20_000,
      100,
    );
    mark('Ready again', restarted);
    await waitFor(
      "Divided replicas stay on member1 (Karmada steady mode): member2's stale copy is pruned now that it is Ready",
      () => deployOn(back) === undefined,
      20_000,
      100,
    );
    assert.is(
      back.store.get('/configmaps', 'default', 'settings')!.metadata.uid,
      settingsUid,
      'settings was never deleted and re-created',
    );
    assert.is(deployOn(member1)!.spec.replicas, 2);
    assert.match(
      f.git(f.bare, 'log', '-1', '--format=%B', 'flotilla/rendered'),
      /^Cluster state: every cluster Ready and untainted/m,
    );
    assert.not.ok(
      events.entries.some((e) => e.step === 'pass' && e.error),
      `no pass failed: ${JSON.stringify(events.entries.filter((e) => e.error).slice(0, 3))}`,
    );
    assert.not.ok(
      events.entries.some((e) => e.step === 'pass' && (e.reasons as string[]).includes('resync')),
      'all of it happened before the first resync',
    );
    console.log(`  failover through flotilla run: ${timeline.join(', ')}`);
  } finally {
    assert.is(await run.stop(), 0, run.stderr());
  }
});

test.run();
