// `flotilla up` left running, tried as a new user would: every command it prints pasted into a shell works, and
// Ctrl-C stops all it started. (Failover through `flotilla run`: test/passes/runFailover.test.ts.)
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { connectKubeconfig } from '../../src/deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../../src/deliveries/KubeTarget.ts';
import { LOCK_FILE } from '../../src/passes/acquireRepoLock.ts';
import { waitFor } from '../deliveries/helpers/e2e.ts';
import { refuses } from '../helpers/refuses.ts';
import { sh, userShellEnv } from '../helpers/userShell.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const children: ChildProcess[] = [];
const dirs: string[] = [];

test.after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

async function replicasOn(
  kubes: ReadonlyMap<string, KubeTarget>,
  cluster: string,
): Promise<{ spec: number; ready: number } | undefined> {
  const res = await kubes
    .get(cluster)!
    .request({ method: 'GET', path: '/apis/apps/v1/namespaces/default/deployments/nginx' })
    .catch(() => undefined);
  if (res?.status !== 200) return undefined;
  const d = res.body as { spec?: { replicas?: number }; status?: { readyReplicas?: number } };
  return { spec: d.spec?.replicas ?? 0, ready: d.status?.readyReplicas ?? 0 };
}

test('flotilla up (left running): every printed command works when pasted, replicas 4 gives 2+2 and 4/4 on the status branch, Ctrl-C stops it all', async () => {
  const home = tempDir('flotilla-user-');
  const dir = path.join(home, 'demo');
  const env = userShellEnv(home);
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, 'up', '--dir', dir], {
    cwd: home,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  await waitFor(
    'the "Try next" block and the running note',
    () => out.includes('Ctrl-C stops everything it started') || child.exitCode !== null,
    60_000,
  );
  assert.ok(child.exitCode === null, `up ended early:\n${out}\n${err}`);
  const secondsToReady = (Date.now() - started) / 1000;
  assert.match(out, /^deployment\/nginx {2}READY 2\/2 \(aggregated\) {2}member1 1\/1, member2 1\/1$/m);
  assert.match(out, /^member3 +v1\.32\.0 +Pull +True/m);

  const block = out.slice(out.indexOf('Try next:\n') + 'Try next:\n'.length, out.indexOf('Flotilla is running'));
  const lines = block
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
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
          await waitFor(
            '4/4 on the status branch',
            async () => {
              const r = await sh(line, cwd, shellEnv);
              const s =
                r.code === 0
                  ? (parse(r.stdout) as { status?: { readyReplicas?: number; replicas?: number } })
                  : undefined;
              return s?.status?.readyReplicas === 4 && s.status.replicas === 4;
            },
            30_000,
            200,
          );
          console.log(
            `  status branch 4/4 ${((Date.now() - since) / 1000).toFixed(1)} s after the log line that followed the push`,
          );
        }
        const r = await sh(line, cwd, shellEnv);
        assert.is(r.code, 0, `${line}\n${r.stderr}`);
        if (line.startsWith('kubectl')) {
          assert.match(r.stdout, /deployment\.apps\/nginx +1\/1/, line);
          assert.match(r.stdout, /pod\/nginx-\S+ +1\/1 +Running .* member1-node-\d/, line);
        } else if (line.startsWith('sed')) {
          const twoPlusTwo = await waitFor(
            '2+2 ready on member1 and member2',
            async () => {
              const [a, b] = [await replicasOn(kubes, 'member1'), await replicasOn(kubes, 'member2')];
              return a?.ready === 2 && a.spec === 2 && b?.ready === 2 && b.spec === 2 ? [a, b] : undefined;
            },
            30_000,
            100,
          );
          assert.equal(
            twoPlusTwo.map((x) => x.spec),
            [2, 2],
          );
          assert.is(await replicasOn(kubes, 'member3'), undefined, 'member3 is not in the placement');
        } else if (line.includes('log --stat -1 flotilla/rendered')) {
          assert.match(r.stdout, /nginx: 4 replicas/);
          assert.match(r.stdout, /member1: 1 changed/);
          assert.match(r.stdout, /clusters\/member2\/default\/deployment\.apps_nginx\.yaml/);
          assert.match(r.stdout, /Source-Commit: [0-9a-f]{40}/);
        } else if (line.includes('show flotilla/status:')) {
          const s = parse(r.stdout) as { aggregatedStatus: { clusterName: string; health: string }[] };
          assert.equal(
            s.aggregatedStatus.map((a) => `${a.clusterName} ${a.health}`),
            ['member1 Healthy', 'member2 Healthy'],
          );
        } else if (line.startsWith('curl')) {
          metricsUrl = /curl -s (\S+)/.exec(line)![1]!;
          assert.match(r.stdout, /^cluster_ready_state\{member_cluster="member1"\} 1$/m);
          assert.match(r.stdout, /^flotilla_reconcile_passes_total\{result="success"\} \d+$/m);
        } else if (line.startsWith('cat')) {
          // The scenarios themselves are pasted by test/e2e/upExamples.test.ts.
          assert.match(r.stdout, '## A Service exported from member1, imported on member2');
          assert.match(r.stdout, '## A FederatedHPA scales web from 2 to 6 replicas');
        } else {
          assert.unreachable(`up printed a command this walkthrough does not check: ${line}`);
        }
      }
      ran.push(line.split(' ')[0]!);
    }
  } finally {
    await Promise.all([...kubes.values()].map((k) => k.close()));
  }
  assert.equal(ran, ['export', 'kubectl', 'cd', 'sed', 'git', 'git', 'curl', 'cat']);

  const ports = (
    parse(readFileSync(kubeconfig, 'utf8')) as { clusters: { cluster: { server: string } }[] }
  ).clusters.map((c) => new URL(c.cluster.server));
  ports.push(new URL(metricsUrl));
  child.kill('SIGINT');
  assert.is(await exited, 0, err);
  for (const u of ports) assert.ok(await refuses(u.hostname, Number(u.port)), `${u.host} closed`);
  assert.not.ok(existsSync(path.join(dir, 'repo.git', LOCK_FILE)), 'the reconciler released its lock');
  console.log(`  up: nginx 2/2 and the commands printed ${secondsToReady.toFixed(1)} s after start`);
});

test.run();
