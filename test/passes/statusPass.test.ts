// The status pass alone (reconcileStatusOnce): real members, real Git, no daemon. It probes, reads back what the
// inventory lists, and commits only what changed; it never writes to a member.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import type { GitRepo } from '../../src/commits/types.ts';
import { connectKubeconfig } from '../../src/deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../../src/deliveries/KubeTarget.ts';
import { reconcileOnce, reconcileStatusOnce, type StatusPassResult } from '../../src/reconcile.ts';
import { waitFor } from '../deliveries/helpers/e2e.ts';
import {
  clusterRegistration,
  configMap,
  configMapPolicy,
  deployment,
  type Fleet,
  makeFleet,
  weightedPolicy,
} from '../helpers/fleet.ts';

const OUT = 'refs/heads/flotilla/rendered';
const STATUS = 'refs/heads/flotilla/status';
const NGINX_STATUS = 'templates/default/deployment.apps_nginx.yaml';
const SETTINGS_STATUS = 'templates/default/configmap_settings.yaml';

let fleet: Fleet;
let repo: GitRepo;
let kubes: Map<string, KubeTarget>;

test.before(async () => {
  // Pods turn Ready 1.5 s after they are bound: the apply's own status cannot show them ready.
  fleet = await makeFleet({ members: ['member1', 'member2'], readyDelayMs: 1_500 });
  fleet.push(
    {
      'clusters/member1.yaml': clusterRegistration('member1'),
      'clusters/member2.yaml': clusterRegistration('member2'),
      'templates/nginx.yaml': deployment('nginx', 4),
      'policies/nginx.yaml': weightedPolicy('nginx', ['member1', 'member2']),
      'templates/settings.yaml': configMap('settings', 'blue'),
      'policies/settings.yaml': configMapPolicy(['member1', 'member2']),
    },
    'nginx 2+2, settings on both',
  );
  repo = await openRepo(fleet.bare);
  kubes = await connectKubeconfig(path.join(fleet.credentials, 'members.config'), { timeoutMs: 5_000 });
});
test.after(async () => {
  await Promise.all([...(kubes?.values() ?? [])].map((k) => k.close()));
  await fleet?.cleanup();
});

const show = (file: string) => {
  try {
    return fleet.git(fleet.bare, 'show', `flotilla/status:${file}`);
  } catch {
    return undefined;
  }
};
const nginxStatus = () =>
  parse(show(NGINX_STATUS) ?? 'null') as {
    status?: { readyReplicas?: number; replicas?: number };
    aggregatedStatus: { clusterName: string; applied: boolean; health: string }[];
  } | null;
const writes = () => [...kubes.values()].reduce((n, k) => n + k.stats.writes, 0);
const statusPass = (now?: () => Date) =>
  reconcileStatusOnce({
    repo,
    outputRef: OUT,
    statusRef: STATUS,
    clusters: kubes,
    log: () => undefined,
    ...(now ? { now } : {}),
  });

test('after an apply, status passes alone bring the status branch to 4/4 Healthy, sending no write to any member', async () => {
  const full = await reconcileOnce({
    repo,
    sourceRef: 'refs/heads/main',
    outputRef: OUT,
    statusRef: STATUS,
    clusters: kubes,
    render: true,
    log: () => undefined,
  });
  assert.ok(full.writes > 0);
  assert.ok(
    nginxStatus()!.aggregatedStatus.some((a) => a.health !== 'Healthy'),
    'the apply pass itself saw the rollout in progress',
  );
  const inventories = fleet.git(fleet.bare, 'rev-parse', 'flotilla/status:inventories');
  const before = writes();
  const passes: StatusPassResult[] = [];
  await waitFor(
    '4/4 ready on the status branch',
    async () => {
      passes.push(await statusPass());
      return nginxStatus()?.status?.readyReplicas === 4;
    },
    20_000,
    200,
  );
  assert.is(writes(), before, 'no create, patch or delete was sent');
  const s = nginxStatus()!;
  assert.equal(
    s.aggregatedStatus.map((a) => `${a.clusterName} ${a.applied} ${a.health}`),
    ['member1 true Healthy', 'member2 true Healthy'],
  );
  assert.is(s.status!.replicas, 4);
  const last = passes.at(-1)!;
  assert.ok(last.statusCommit);
  assert.equal(last.unhealthy, [], 'the pass that saw 4/4 reports nothing pending');
  assert.is(
    last.reports.find((r) => r.cluster === 'member1')!.observed!.length,
    2,
    "member1's inventory: nginx and settings read back",
  );
  assert.match(
    fleet.git(fleet.bare, 'log', '-1', '--format=%B', 'flotilla/status'),
    /member1: Ready=True \(ClusterReady\); 2 object\(s\) read back, none applied/,
  );
  assert.match(
    fleet.git(fleet.bare, 'log', '-1', '--format=%B', 'flotilla/status'),
    /Rendered-Commit: [0-9a-f]{40}\nSource-Commit: [0-9a-f]{40}/,
  );
  assert.is(
    fleet.git(fleet.bare, 'rev-parse', 'flotilla/status:inventories'),
    inventories,
    "inventories are the apply's: untouched",
  );
});

test('a status pass with nothing new commits nothing and leaves every member exactly as it was', async () => {
  // The members' own controllers settle first (pod readiness timers have run: 4/4 above).
  await Promise.all(fleet.members.map((m) => m.settled()));
  await statusPass();
  const head = fleet.git(fleet.bare, 'rev-parse', 'flotilla/status');
  const versions = fleet.members.map((m) => m.store.resourceVersion);
  const [w, requests] = [writes(), [...kubes.values()].reduce((n, k) => n + k.stats.requests, 0)];
  const result = await statusPass();
  assert.is(result.statusCommit, null);
  assert.equal(result.changedPaths, []);
  assert.is(fleet.git(fleet.bare, 'rev-parse', 'flotilla/status'), head, 'the status branch did not move');
  assert.equal(
    fleet.members.map((m) => m.store.resourceVersion),
    versions,
    'no member object changed (its resourceVersion counter)',
  );
  assert.is(writes(), w, 'no write was sent');
  assert.ok([...kubes.values()].reduce((n, k) => n + k.stats.requests, 0) > requests, 'it did read: probes and GETs');
});

test("an object deleted on a member behind Flotilla's back is reported missing, not re-created, and its status stays the apply's", async () => {
  const kube = kubes.get('member1')!;
  const res = await kube.request({ method: 'DELETE', path: '/api/v1/namespaces/default/configmaps/settings' });
  assert.is(res.status, 200);
  const settingsBefore = show(SETTINGS_STATUS);
  const w = writes();
  const result = await statusPass();
  assert.equal(
    result.missing.map((m) => `${m.cluster} ${m.ref.kind}/${m.ref.name}`),
    ['member1 ConfigMap/settings'],
  );
  assert.is(writes(), w);
  assert.is(
    fleet.members[0]!.store.get('/configmaps', 'default', 'settings'),
    undefined,
    'only an apply repairs drift',
  );
  assert.is(show(SETTINGS_STATUS), settingsBefore);
  const full = await reconcileOnce({
    repo,
    sourceRef: 'refs/heads/main',
    outputRef: OUT,
    statusRef: STATUS,
    clusters: kubes,
    render: true,
    log: () => undefined,
  });
  assert.is(full.writes, 1, 'the full pass re-creates it');
  assert.equal((await statusPass()).missing, []);
});

test('a stopped member: the probe fails, Ready is damped (pending) and flips after the threshold with the not-ready taint; still no write', async () => {
  await fleet.members[1]!.stop();
  const t = Date.now();
  const w = writes();
  const first = await statusPass(() => new Date(t));
  assert.ok(first.statusCommit);
  const pending = parse(show('clusters/member2.yaml')!) as {
    metadata: { annotations?: Record<string, string> };
    status: { conditions: { type: string; status: string }[] };
    spec?: unknown;
  };
  assert.is(
    pending.status.conditions.find((c) => c.type === 'Ready')!.status,
    'True',
    'inside the 30 s threshold Ready stays',
  );
  assert.match(pending.metadata.annotations?.['flotilla.io/ready-observed'] ?? '', /^False since \S+Z$/);
  assert.is(first.unread, 2, "member2's two objects are not read: it does not answer");
  const flipped = await statusPass(() => new Date(t + 31_000));
  assert.ok(flipped.statusCommit);
  const down = parse(show('clusters/member2.yaml')!) as {
    metadata: { annotations?: unknown };
    status: { conditions: { type: string; status: string; reason: string }[] };
    spec?: { taints: { key: string; effect: string }[] };
  };
  assert.equal(down.status.conditions.filter((c) => c.type === 'Ready').map((c) => [c.status, c.reason])[0], [
    'False',
    'ClusterNotReachable',
  ]);
  assert.equal(
    down.spec?.taints.map((x) => `${x.key}:${x.effect}`),
    ['cluster.karmada.io/not-ready:NoSchedule'],
  );
  assert.is(down.metadata.annotations, undefined);
  assert.is(writes(), w);
  assert.is(
    nginxStatus()!.aggregatedStatus.find((a) => a.clusterName === 'member2')!.health,
    'Healthy',
    'what member2 last reported stays (Karmada keeps it too)',
  );
});

test('a full pass while a member is NotReady sends it nothing, leaves what it last reported, and the template keeps its replicas', async () => {
  const before = show(NGINX_STATUS);
  const full = await reconcileOnce({
    repo,
    sourceRef: 'refs/heads/main',
    outputRef: OUT,
    statusRef: STATUS,
    clusters: kubes,
    render: true,
    log: () => undefined,
  });
  const member2 = full.delivery!.clusters.get('member2')!;
  assert.ok(member2.notReady, 'the apply skipped member2: the status branch holds it NotReady');
  assert.is(member2.writes, 0);
  assert.is(show(NGINX_STATUS), before);
  const s = parse(show(NGINX_STATUS)!) as {
    status: { readyReplicas: number };
    conditions: { status: string }[];
    aggregatedStatus: { clusterName: string; applied: boolean; health: string }[];
  };
  assert.equal(
    s.aggregatedStatus.map((a) => `${a.clusterName} ${a.applied} ${a.health}`),
    ['member1 true Healthy', 'member2 true Healthy'],
  );
  assert.is(s.status.readyReplicas, 4);
  assert.is(s.conditions[0]!.status, 'True');
});

test.run();
