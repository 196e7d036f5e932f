// Issue 5's "Done when", tried as a new user would: `flotilla up` left running and every command it prints pasted
// into a shell; then failover through the real daemon (`flotilla run` as its own process) with member2's process
// really stopped and restarted on its data dir and port. (kill -9 mid-propagation: test/passes/crashSafety.test.ts.)
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { connectKubeconfig } from '../../src/deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../../src/deliveries/KubeTarget.ts';
import { startMember } from '../../src/members/startMember.ts';
import { LOCK_FILE } from '../../src/passes/acquireRepoLock.ts';
import { KUBECTL, waitFor } from '../deliveries/helpers/e2e.ts';
import { clusterRegistration, configMap, deployment, LogEvents, makeFleet, NOT_READY_TAINT_POLICY, weightedPolicy, type Fleet } from '../passes/helpers/fleet.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/flotilla.js');
const children: ChildProcess[] = [];
const dirs: string[] = [];
let fleet: Fleet | undefined;

test.after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await fleet?.cleanup();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** A shell as a new user has one: no git identity, `kubectl` (pinned, private cache) and `curl` on PATH. */
function userShellEnv(home: string): NodeJS.ProcessEnv {
  const bin = path.join(home, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(path.join(bin, 'kubectl'), `#!/bin/sh\nexec ${KUBECTL} --cache-dir ${path.join(home, 'kube-cache')} "$@"\n`);
  // curl may be missing: this one does what the printed line asks of it (-s URL) with Node's fetch.
  writeFileSync(path.join(bin, 'curl'), `#!/bin/sh\n[ "$1" = "-s" ] || { echo "curl shim: only -s URL" >&2; exit 2; }\nexec ${process.execPath} -e 'fetch(process.argv[1]).then(async (r) => { process.stdout.write(await r.text()); process.exitCode = r.ok ? 0 : 22; })' "$2"\n`);
  for (const f of ['kubectl', 'curl']) chmodSync(path.join(bin, f), 0o755);
  return {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: home, LANG: 'C',
    GIT_CONFIG_GLOBAL: path.join(home, 'gitconfig-none'), GIT_CONFIG_NOSYSTEM: '1',
  };
}

function sh(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('/bin/sh', ['-c', line], { cwd, env, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Resolves true once nothing accepts connections on host:port. */
function refuses(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => { socket.destroy(); resolve(false); });
    socket.once('error', () => resolve(true));
  });
}

async function replicasOn(kubes: ReadonlyMap<string, KubeTarget>, cluster: string): Promise<{ spec: number; ready: number } | undefined> {
  const res = await kubes.get(cluster)!.request({ method: 'GET', path: '/apis/apps/v1/namespaces/default/deployments/nginx' }).catch(() => undefined);
  if (res?.status !== 200) return undefined;
  const d = res.body as { spec?: { replicas?: number }; status?: { readyReplicas?: number } };
  return { spec: d.spec?.replicas ?? 0, ready: d.status?.readyReplicas ?? 0 };
}

test('flotilla up (left running): every printed command works when pasted, replicas 4 gives 2+2 and 4/4 on the status branch, Ctrl-C stops it all', async () => {
  const home = tempDir('flotilla-user-');
  const dir = path.join(home, 'demo');
  const env = userShellEnv(home);
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, 'up', '--dir', dir], { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => { out += c.toString(); });
  child.stderr!.on('data', (c: Buffer) => { err += c.toString(); });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  await waitFor('the "Try next" block and the running note', () => out.includes('Ctrl-C stops everything it started') || child.exitCode !== null, 60_000);
  assert.ok(child.exitCode === null, `up ended early:\n${out}\n${err}`);
  const secondsToReady = (Date.now() - started) / 1000;
  assert.match(out, /^deployment\/nginx {2}READY 2\/2 \(aggregated\) {2}member1 1\/1, member2 1\/1$/m);
  assert.match(out, /^member3 +v1\.32\.0 +Pull +True/m);

  const block = out.slice(out.indexOf('Try next:\n') + 'Try next:\n'.length, out.indexOf('Flotilla is running'));
  const lines = block.split('\n').map((l) => l.trim()).filter(Boolean);
  assert.ok(lines.length >= 7, block);
  const kubeconfig = path.join(dir, 'members.config');
  const kubes = await connectKubeconfig(kubeconfig, { timeoutMs: 5_000 });
  let cwd = home;
  const shellEnv = { ...env };
  let metricsUrl = '';
  const ran: string[] = [];
  try {
    for (const line of lines) {
      const exported = /^export (\w+)=(\S+)$/.exec(line);
      const cd = /^cd (\S+)$/.exec(line);
      if (exported) {
        shellEnv[exported[1]!] = exported[2]!;
        assert.is(exported[2], kubeconfig);
      } else if (cd) {
        cwd = path.resolve(cwd, cd[1]!);
        assert.ok(existsSync(path.join(cwd, '.git')), `${line}: a git clone`);
      } else {
        // A status read right after the push may lag the members by the rollout (catch-up status passes follow it).
        if (line.includes('show flotilla/status:')) {
          const since = Date.now();
          await waitFor('4/4 on the status branch', async () => {
            const r = await sh(line, cwd, shellEnv);
            const s = r.code === 0 ? parse(r.stdout) as { status?: { readyReplicas?: number; replicas?: number } } : undefined;
            return s?.status?.readyReplicas === 4 && s.status.replicas === 4;
          }, 30_000, 200);
          console.log(`  status branch 4/4 ${((Date.now() - since) / 1000).toFixed(1)} s after the log line that followed the push`);
        }
        const r = await sh(line, cwd, shellEnv);
        assert.is(r.code, 0, `${line}\n${r.stderr}`);
        if (line.startsWith('kubectl')) {
          assert.match(r.stdout, /deployment\.apps\/nginx +1\/1/, line);
          assert.match(r.stdout, /pod\/nginx-\S+ +1\/1 +Running .* member1-node-\d/, line);
        } else if (line.startsWith('sed')) {
          const twoPlusTwo = await waitFor('2+2 ready on member1 and member2', async () => {
            const [a, b] = [await replicasOn(kubes, 'member1'), await replicasOn(kubes, 'member2')];
            return a?.ready === 2 && a.spec === 2 && b?.ready === 2 && b.spec === 2 ? [a, b] : undefined;
          }, 30_000, 100);
          assert.equal(twoPlusTwo.map((x) => x.spec), [2, 2]);
          assert.is(await replicasOn(kubes, 'member3'), undefined, 'member3 is not in the placement');
        } else if (line.includes('log --stat -1 flotilla/rendered')) {
          assert.match(r.stdout, /nginx: 4 replicas/);
          assert.match(r.stdout, /member1: 1 changed/);
          assert.match(r.stdout, /clusters\/member2\/default\/deployment\.apps_nginx\.yaml/);
          assert.match(r.stdout, /Source-Commit: [0-9a-f]{40}/);
        } else if (line.includes('show flotilla/status:')) {
          const s = parse(r.stdout) as { aggregatedStatus: { clusterName: string; health: string }[] };
          assert.equal(s.aggregatedStatus.map((a) => `${a.clusterName} ${a.health}`), ['member1 Healthy', 'member2 Healthy']);
        } else if (line.startsWith('curl')) {
          metricsUrl = /curl -s (\S+)/.exec(line)![1]!;
          assert.match(r.stdout, /^cluster_ready_state\{member_cluster="member1"\} 1$/m);
          assert.match(r.stdout, /^flotilla_reconcile_passes_total\{result="success"\} \d+$/m);
        } else {
          assert.unreachable(`up printed a command this walkthrough does not check: ${line}`);
        }
      }
      ran.push(line.split(' ')[0]!);
    }
  } finally {
    await Promise.all([...kubes.values()].map((k) => k.close()));
  }
  assert.equal(ran, ['export', 'kubectl', 'cd', 'sed', 'git', 'git', 'curl']);

  const ports = (parse(readFileSync(kubeconfig, 'utf8')) as { clusters: { cluster: { server: string } }[] }).clusters.map((c) => new URL(c.cluster.server));
  ports.push(new URL(metricsUrl));
  child.kill('SIGINT');
  assert.is(await exited, 0, err);
  for (const u of ports) assert.ok(await refuses(u.hostname, Number(u.port)), `${u.host} closed`);
  assert.not.ok(existsSync(path.join(dir, 'repo.git', LOCK_FILE)), 'the reconciler released its lock');
  console.log(`  up: nginx 2/2 and the commands printed ${secondsToReady.toFixed(1)} s after start`);
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
  fleet = await makeFleet(['member1', 'member2'], { readyDelayMs: 100 });
  const f = fleet;
  const source = f.push({
    'clusters/member1.yaml': clusterRegistration('member1'),
    'clusters/member2.yaml': clusterRegistration('member2'),
    'policies/not-ready-evicts.yaml': NOT_READY_TAINT_POLICY,
    'templates/nginx.yaml': deployment('nginx', 2),
    'policies/nginx.yaml': weightedPolicy('nginx', ['member1', 'member2'], { notReadyTolerationSeconds: 2 }),
    'templates/settings.yaml': configMap('settings', 'blue'),
    'policies/settings.yaml': SETTINGS_POLICY,
  }, 'nginx 1:1, tolerating not-ready for 2 s; settings on both, tolerating it forever');
  const events = new LogEvents();
  const run = spawn(process.execPath, [BIN, 'run', '--repo', f.bare, '--credentials-dir', f.credentials, '--listen', 'off',
    '--cluster-status-update-frequency', '1s', '--cluster-failure-threshold', '1s', '--cluster-success-threshold', '1s'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(run);
  let buffered = '';
  let stderr = '';
  run.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line.startsWith('{')) events.log(JSON.parse(line) as Record<string, unknown>);
    }
  });
  run.stderr!.on('data', (c: Buffer) => { stderr += c.toString(); });
  const exited = new Promise<number | null>((resolve) => run.on('close', resolve));
  const show = (rev: string, file: string) => { try { return f.git(f.bare, 'show', `${rev}:${file}`); } catch { return undefined; } };
  const statusOf = (cluster: string) => parse(show('flotilla/status', `clusters/${cluster}.yaml`) ?? 'null') as { spec?: { taints?: { key: string; effect: string }[] }; status: { conditions: { status: string; reason: string }[] } } | null;
  const renderedMessages = () => f.git(f.bare, 'log', '--format=%B%x00', 'flotilla/rendered');
  const renderedFiles = () => f.git(f.bare, 'ls-tree', '-r', '--name-only', 'flotilla/rendered').split('\n');
  const NGINX_M2 = 'clusters/member2/default/deployment.apps_nginx.yaml';
  const [member1, member2] = f.members as [typeof f.members[0], typeof f.members[0]];
  const deployOn = (m: typeof member1) => m.store.get('apps/deployments', 'default', 'nginx') as { spec: { replicas: number }; status?: { readyReplicas?: number } } | undefined;
  const timeline: string[] = [];
  const mark = (what: string, since: number) => timeline.push(`${what} ${((Date.now() - since) / 1000).toFixed(1)}s`);
  try {
    await events.next('the first pass of the source commit', (e) => e.step === 'pass' && e.sourceCommit === source && !e.error, 30_000, true);
    const start = await events.next('start', (e) => e.step === 'start', 1_000, true);
    assert.equal(start.readyThresholds, { failureMs: 1000, successMs: 1000 }, 'the flags reach the daemon');
    assert.equal([start.resyncMs, start.statusUpdateFrequencyMs, start.gracefulEvictionTimeoutSeconds], [300_000, 1000, 600], 'resync and grace period as by default');
    await waitFor('nginx healthy on both members', () => {
      const s = parse(show('flotilla/status', 'templates/default/deployment.apps_nginx.yaml') ?? 'null') as { aggregatedStatus?: { health: string }[] } | null;
      return s?.aggregatedStatus?.length === 2 && s.aggregatedStatus.every((a) => a.health === 'Healthy');
    }, 20_000, 100);
    const settingsUid = member2.store.get('/configmaps', 'default', 'settings')!.metadata.uid;
    const { port, dataDir } = member2;

    const stopped = Date.now();
    await member2.stop();
    assert.ok(await refuses('127.0.0.1', port), 'member2 is really gone');
    const down = await waitFor('member2 NotReady with the NoExecute taint', () => {
      const s = statusOf('member2');
      return s?.status.conditions[0]?.status === 'False' ? s : undefined;
    }, 20_000, 100);
    mark('NotReady', stopped);
    assert.is(down.status.conditions[0]!.reason, 'ClusterNotReachable');
    assert.equal(down.spec?.taints?.map((t) => `${t.key}:${t.effect}`), ['cluster.karmada.io/not-ready:NoSchedule', 'cluster.karmada.io/not-ready:NoExecute']);
    const evicted = await waitFor('the eviction commit after the 2 s toleration', () => /^failover: member2 NotReady since \S+ \(ClusterNotReachable\), taint cluster\.karmada\.io\/not-ready:NoExecute tolerated for 2s from \S+, expired: Deployment default\/nginx 1 replica member2→member1$/m.exec(renderedMessages()), 20_000, 100);
    mark('evicted', stopped);
    assert.ok(evicted);
    await waitFor('member1 runs both replicas and member2\'s copy leaves the rendered branch', () => {
      const d = deployOn(member1);
      return d?.spec.replicas === 2 && d.status?.readyReplicas === 2 && !renderedFiles().includes(NGINX_M2);
    }, 20_000, 100);
    mark('replacements healthy, member2 copy removed', stopped);
    assert.match(renderedMessages(), /^failover: member2's copy of Deployment default\/nginx removed: replacements healthy on member1/m);
    assert.ok(renderedFiles().includes('clusters/member2/default/configmap_settings.yaml'), 'settings tolerates not-ready forever: it stays placed');

    // member2's process comes back on its data dir and port: it kept everything it had.
    const back = await startMember({ name: 'member2', dataDir, readyDelayMs: 100 });
    f.members[1] = back;
    const restarted = Date.now();
    assert.is(back.port, port);
    assert.ok(deployOn(back), 'the stale nginx copy survived the restart, as on a real cluster');
    await waitFor('member2 Ready and untainted again', () => {
      const s = statusOf('member2');
      return s?.status.conditions[0]?.status === 'True' && !s.spec?.taints?.length;
    }, 20_000, 100);
    mark('Ready again', restarted);
    await waitFor('Divided replicas stay on member1 (Karmada steady mode): member2\'s stale copy is pruned now that it is Ready', () => deployOn(back) === undefined, 20_000, 100);
    assert.is(back.store.get('/configmaps', 'default', 'settings')!.metadata.uid, settingsUid, 'settings was never deleted and re-created');
    assert.is(deployOn(member1)!.spec.replicas, 2);
    assert.match(f.git(f.bare, 'log', '-1', '--format=%B', 'flotilla/rendered'), /^Cluster state: every cluster Ready and untainted/m);
    assert.not.ok(events.entries.some((e) => e.step === 'pass' && e.error), `no pass failed: ${JSON.stringify(events.entries.filter((e) => e.error).slice(0, 3))}`);
    assert.not.ok(events.entries.some((e) => e.step === 'pass' && (e.reasons as string[]).includes('resync')), 'all of it happened before the first resync');
    console.log(`  failover through flotilla run: ${timeline.join(', ')}`);
  } finally {
    run.kill('SIGTERM');
    assert.is(await exited, 0, stderr);
  }
});

test.run();
