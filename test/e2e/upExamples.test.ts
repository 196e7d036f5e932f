// The scenarios of the config repo's examples/README.md, tried as a user of `flotilla up` tries them: `up` left
// running as a process, each ```sh line of the clone's README pasted into a shell (real git pushes, real kubectl),
// in order. Every line is checked; a line this test does not know fails it, so the README cannot drift.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { waitFor } from '../deliveries/helpers/e2e.ts';
import type { ProgramResult } from '../helpers/runProgram.ts';
import { sh, userShellEnv } from '../helpers/userShell.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const USER = 'Ada Lovelace';

let home: string;
let up: ChildProcess | undefined;
let upExited: Promise<number | null>;
let upErr = '';
let work: string;
let env: NodeJS.ProcessEnv;
const pushed: string[] = [];

test.before(async () => {
  home = mkdtempSync(path.join(tmpdir(), 'flotilla-examples-'));
  const dir = path.join(home, 'demo');
  // A user with an identity of their own, so main's log tells their commits from the demo's seed commit.
  env = {
    ...userShellEnv(home),
    GIT_AUTHOR_NAME: USER,
    GIT_AUTHOR_EMAIL: 'ada@example.com',
    GIT_COMMITTER_NAME: USER,
    GIT_COMMITTER_EMAIL: 'ada@example.com',
  };
  const child = spawn(process.execPath, [BIN, 'up', '--dir', dir], {
    cwd: home,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  up = child;
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    upErr += c.toString();
  });
  upExited = new Promise((resolve) => child.on('close', resolve));
  await waitFor(
    'flotilla up running',
    () => out.includes('Ctrl-C stops everything it started') || child.exitCode !== null,
    60_000,
  );
  assert.ok(child.exitCode === null, `up ended early:\n${out}\n${upErr}`);
  const printed = /^ {2}cat (\S+examples\/README\.md)/m.exec(out);
  assert.ok(printed, `up's "Try next" points at the examples:\n${out}`);
  work = path.dirname(path.dirname(printed[1]!));
  env.KUBECONFIG = path.join(dir, 'members.config');
});

test.after(async () => {
  if (up && up.exitCode === null && up.signalCode === null) {
    up.kill('SIGINT');
    assert.is(await upExited, 0, upErr);
  }
  rmSync(home, { recursive: true, force: true });
});

/** The lines of the first ```sh block under `## heading` in the clone's examples/README.md. */
function scenario(heading: string): string[] {
  const readme = readFileSync(path.join(work, 'examples', 'README.md'), 'utf8');
  const at = readme.indexOf(`## ${heading}\n`);
  assert.ok(at >= 0, `examples/README.md has "## ${heading}"`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at))!;
  return block[1]!.split('\n').filter((l) => l.trim() !== '');
}

async function run(line: string): Promise<ProgramResult> {
  const r = await sh(line, work, env);
  assert.is(r.code, 0, `${line}\n${r.stderr}`);
  if (/git push/.test(line)) pushed.push(/-qa?m "([^"]+)"/.exec(line)![1]!);
  return r;
}

/** Runs the line until what it prints satisfies `check` (the user looking again after a while). */
async function runUntil<T>(what: string, line: string, check: (stdout: string) => T | undefined): Promise<T> {
  return waitFor(what, async () => check((await run(line)).stdout), 90_000, 250);
}

/** kubectl's table rows (header dropped), split on runs of spaces. */
const rows = (stdout: string) =>
  stdout
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => l.split(/\s+/));

const kubectl = (...args: string[]) => run(`kubectl ${args.join(' ')}`);

const runningPodIps = (stdout: string, count: number) => {
  const running = rows(stdout).filter((r) => r[2] === 'Running' && /^\d+\.\d+\.\d+\.\d+$/.test(r[5] ?? ''));
  return running.length === count ? running.map((r) => r[5]!).sort() : undefined;
};

/** member2's derived-serve slices, every IP in their ENDPOINTS column. */
const slicedIps = (stdout: string) =>
  rows(stdout)
    .flatMap((r) => (r[3] ?? '').split(','))
    .filter((ip) => /^\d+\.\d+\.\d+\.\d+$/.test(ip))
    .sort();

test("examples/README.md, exported service: member1's pod IPs appear in member2's derived-serve slices and follow a scale-up, never in Git's desired state", async () => {
  let ips: string[] = [];
  const seen: string[] = [];
  for (const line of scenario('A Service exported from member1, imported on member2')) {
    if (line.startsWith('cp -r examples/exported-service') || line.startsWith("sed -i 's/replicas: 2/replicas: 3/'")) {
      await run(line);
      if (line.startsWith('sed')) {
        ips = await runUntil(
          '3 serve pods running on member1',
          'kubectl --context member1 get pods -l app=serve -o wide',
          (o) => runningPodIps(o, 3),
        );
        await runUntil(
          "member1's 3 pod IPs in member2's derived-serve slices",
          'kubectl --context member2 get endpointslices -l kubernetes.io/service-name=derived-serve',
          (o) => (slicedIps(o).join() === ips.join() ? true : undefined),
        );
      }
    } else if (line === 'kubectl --context member1 get pods -l app=serve -o wide') {
      ips = await runUntil('2 serve pods running on member1', line, (o) => runningPodIps(o, 2));
    } else if (line === 'kubectl --context member2 get endpointslices -l kubernetes.io/service-name=derived-serve') {
      const names = await runUntil("member1's pod IPs in member2's derived-serve slices", line, (o) =>
        slicedIps(o).join() === ips.join() ? rows(o).map((r) => r[0]!) : undefined,
      );
      for (const n of names) assert.match(n, /^imported-member1-serve-/);
    } else if (line === 'kubectl --context member2 get service derived-serve') {
      assert.match((await run(line)).stdout, /^derived-serve +ClusterIP +\S+ +<none> +80\/TCP/m);
    } else if (line === 'git --git-dir ../repo.git show flotilla/status:endpoints/member1.yaml') {
      const out = (await run(line)).stdout;
      for (const ip of ips) assert.ok(out.includes(ip), `${ip} recorded on the status branch:\n${out}`);
    } else {
      assert.unreachable(`examples/README.md has a line this test does not check: ${line}`);
    }
    seen.push(line.split(' ')[0]!);
  }
  assert.equal(seen, ['cp', 'kubectl', 'kubectl', 'kubectl', 'git', 'sed']);
  // Pod IPs live on the status branch only.
  for (const ref of ['main', 'flotilla/rendered']) {
    const grep = await sh(`git --git-dir ../repo.git grep -F -e ${ips.join(' -e ')} ${ref}`, work, env);
    assert.is(grep.code, 1, `${ref} holds no pod IP:\n${grep.stdout}`);
  }
});

test('examples/README.md, FederatedHPA: raising the pods CPU usage scales divided web from 2 to 6 (3 + 3), each decision a status commit, main only the user commits', async () => {
  let decisions: { from: number; to: number; line: string }[] = [];
  const seen: string[] = [];
  for (const line of scenario('A FederatedHPA scales web from 2 to 6 replicas')) {
    if (line.startsWith('cp -r examples/federated-hpa')) {
      await run(line);
    } else if (line === 'for m in member1 member2; do kubectl --context $m get pods -l app=web; done') {
      // One pod on each member (2 divided 1:1) before the usage is raised on them.
      await runUntil('a web pod running on member1 and on member2', line, (o) =>
        o.split('\n').filter((l) => /^web-\S+ +1\/1 +Running/.test(l)).length === 2 ? true : undefined,
      );
    } else if (line.includes('annotate pods -l app=web emulator.flotilla.io/cpu-usage=200m')) {
      assert.is((await run(line)).stdout.match(/annotated/g)?.length, 2);
    } else if (line === 'kubectl --context member1 get deployment web') {
      await runUntil('web 3/3 on member1', line, (o) => (/^web +3\/3 /m.test(o) ? true : undefined));
      await waitFor(
        'web 3/3 on member2',
        async () => /^web +3\/3 /m.test((await kubectl('--context', 'member2', 'get', 'deployment', 'web')).stdout),
        30_000,
        250,
      );
    } else if (line.includes('flotilla/status -- autoscalers')) {
      decisions = (await run(line)).stdout
        .trim()
        .split('\n')
        .reverse()
        // A change of the HPA's conditions alone (no metrics before the pods are ready) is a status commit too, as
        // Kubernetes' HPA updates its status then; it keeps the count.
        .filter((l) => {
          if (/^FederatedHPA default\/web: Deployment web keeps \d+ replicas \(/.test(l)) return false;
          return true;
        })
        .map((l) => {
          const m = /^FederatedHPA default\/web: Deployment web (\d+) -> (\d+) replicas/.exec(l);
          assert.ok(m, l);
          return { from: Number(m[1]), to: Number(m[2]), line: l };
        });
    } else if (line === 'git --git-dir ../repo.git show flotilla/status:autoscalers/default/web.yaml') {
      const d = parse((await run(line)).stdout) as { desiredReplicas: number; metrics: { resource: string }[] };
      assert.is(d.desiredReplicas, 6);
      assert.is(d.metrics[0]!.resource, 'cpu');
    } else if (line === "git --git-dir ../repo.git log --format='%an: %s' main") {
      // `up`'s seed commit (made as the user who ran it), then the user's pushes: no decision, no status, no
      // render ever lands on main.
      const log = (await run(line)).stdout.trim().split('\n').reverse();
      assert.equal(log, [
        `${USER}: nginx: weighted 1:1 over member1 and member2`,
        ...pushed.map((subject) => `${USER}: ${subject}`),
      ]);
    } else {
      assert.unreachable(`examples/README.md has a line this test does not check: ${line}`);
    }
    seen.push(line.split(' ')[0]!);
  }
  assert.equal(seen, ['cp', 'for', 'for', 'kubectl', 'git', 'git', 'git']);
  // Each change of the count is its own status commit, up from minReplicas to maxReplicas.
  const changes = decisions.filter((d) => d.to !== d.from);
  assert.ok(changes.length >= 1, decisions.map((d) => d.line).join('\n'));
  assert.is(changes[0]!.from, 2);
  assert.is(changes[changes.length - 1]!.to, 6);
  for (let i = 0; i < changes.length; i++) {
    assert.ok(changes[i]!.to > changes[i]!.from, changes[i]!.line);
    if (i > 0) assert.is(changes[i]!.from, changes[i - 1]!.to);
    assert.match(
      changes[i]!.line,
      /cpu \d+% of request \(target 50%\) over \d+ pod\(s\) in member1, \d+ pod\(s\) in member2/,
    );
  }
});

test('examples/README.md, Helm chart and Kustomize folder: their Deployments and Services run on member1 and member2, and a replicaCount change in values.yaml reaches both', async () => {
  const seen: string[] = [];
  const ready = (name: string, count: number) => (o: string) =>
    new RegExp(`^(deployment\\.apps/)?${name} +${count}/${count} `, 'm').test(o) ? true : undefined;
  for (const line of scenario('A Helm chart and a Kustomize folder')) {
    if (line.startsWith('cp -r examples/guestbook') || line.startsWith("sed -i 's/replicaCount: 1/replicaCount: 3/'")) {
      await run(line);
    } else if (line === 'kubectl --context member1 get deployments,services -l app.kubernetes.io/part-of=guestbook') {
      const out = await runUntil('both guestbook Deployments ready on member1', line, (o) =>
        ready('helm-guestbook', 1)(o) && ready('kustomize-guestbook-ui', 1)(o) ? o : undefined,
      );
      assert.match(out, /^service\/helm-guestbook +ClusterIP /m);
      assert.match(out, /^service\/kustomize-guestbook-ui +ClusterIP /m);
    } else if (line === 'kubectl --context member2 get deployment helm-guestbook') {
      await runUntil('helm-guestbook 3/3 on member2', line, ready('helm-guestbook', 3));
      await waitFor(
        'helm-guestbook 3/3 on member1',
        async () =>
          ready(
            'helm-guestbook',
            3,
          )((await kubectl('--context', 'member1', 'get', 'deployment', 'helm-guestbook')).stdout),
        30_000,
        250,
      );
    } else if (line.startsWith('git --git-dir ../repo.git show --format=%b flotilla/rendered --')) {
      const out = (await run(line)).stdout;
      assert.match(out, /^member1: 1 changed$/m);
      assert.match(out, /^member2: 1 changed$/m);
      assert.match(out, /^-  replicas: 1$/m);
      assert.match(out, /^\+  replicas: 3$/m);
    } else {
      assert.unreachable(`examples/README.md has a line this test does not check: ${line}`);
    }
    seen.push(line.split(' ')[0]!);
  }
  assert.equal(seen, ['cp', 'kubectl', 'sed', 'kubectl', 'git']);
});

test.run();
