// The Pull agent against a real emulated member: on a local bare repo (in place, triggered by the rendered ref
// moving) and through a real smart-HTTP Git server (mirror, fetch, push, rebuild after a lost push race).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import type { GitRepo } from '../../src/commits/types.ts';
import { connectKubeconfig } from '../../src/deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../../src/deliveries/KubeTarget.ts';
import type { Member } from '../../src/members/startMember.ts';
import { openAgentSource, runAgentPass, startAgent } from '../../src/pullAgent.ts';
import { commitRendered, rendered, Scratch, waitFor } from '../deliveries/helpers/e2e.ts';
import { startGitHttpServer, type GitHttpServer } from '../helpers/gitHttpServer.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const GIT_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Other',
  GIT_AUTHOR_EMAIL: 'o@example.com',
  GIT_COMMITTER_NAME: 'Other',
  GIT_COMMITTER_EMAIL: 'o@example.com',
};
const gitAsync = (cwd: string, ...args: string[]) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: GIT_ENV, stdio: 'ignore' });
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git ${args.join(' ')} exited ${code}`))));
  });
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV }).trim();

const scratch = new Scratch();
let member: Member;
let kube: KubeTarget;
let kubeconfig: string;
let repo: GitRepo;
let server: GitHttpServer;

const configMap = (name: string, cluster = 'member3') =>
  rendered('v1', 'ConfigMap', name, 'default', { data: { cluster } });

test.before(async () => {
  member = await scratch.member('member3');
  kubeconfig = scratch.kubeconfig([member]);
  kube = (await connectKubeconfig(kubeconfig)).get('member3')!;
  repo = await scratch.repo();
  // The server's HEAD names main, as any hosted repo's does.
  await commitRendered(repo, { member1: [configMap('only-member1', 'member1')], member3: [configMap('settings')] });
  git(repo.gitdir, 'update-ref', 'refs/heads/main', 'refs/heads/flotilla/rendered');
  git(repo.gitdir, 'symbolic-ref', 'HEAD', 'refs/heads/main');
  server = await startGitHttpServer(path.dirname(repo.gitdir));
});

test.after(async () => {
  await kube.close();
  await server.close();
  await scratch.cleanup();
});

const getConfigMap = async (name: string) =>
  await kube.request({ method: 'GET', path: `/api/v1/namespaces/default/configmaps/${name}` });

test('one pass on a local bare repo applies only clusters/member3/ and commits member3 status and inventory', async () => {
  const logs: Record<string, unknown>[] = [];
  const result = await runAgentPass({
    cluster: 'member3',
    kube,
    source: { kind: 'local', repo },
    log: (e) => logs.push(e),
  });
  assert.ok(result.ok, result.problems.join('\n'));
  assert.equal(result.actions, { created: 1 });
  assert.is((await getConfigMap('settings')).status, 200);
  assert.is((await getConfigMap('only-member1')).status, 404);
  const files = git(repo.gitdir, 'ls-tree', '-r', '--name-only', 'flotilla/status').split('\n');
  assert.ok(files.includes('clusters/member3.yaml'), files.join(' '));
  assert.ok(files.includes('inventories/member3.json'));
  assert.not.ok(files.includes('inventories/member1.json'), 'the agent writes only its own cluster');
  const apply = logs.find((l) => l.step === 'apply')!;
  assert.is(apply.renderedCommit, result.renderedCommit);
  assert.is(apply.sourceCommit, 'a'.repeat(40));
  assert.is(logs.find((l) => l.step === 'status')?.statusCommit, result.statusCommit);
});

test('before the first render the agent waits without an error: the pass is ok and still reports the member', async () => {
  const fresh = await scratch.repo();
  const logs: Record<string, unknown>[] = [];
  const result = await runAgentPass({
    cluster: 'member3',
    kube,
    source: { kind: 'local', repo: fresh },
    log: (e) => logs.push(e),
  });
  assert.ok(result.ok, result.problems.join('\n'));
  assert.equal(result.problems, []);
  assert.not.ok(
    logs.some((l) => 'error' in l),
    JSON.stringify(logs),
  );
  const apply = logs.find((l) => l.step === 'apply')!;
  assert.match(String(apply.waiting), 'nothing rendered yet (flotilla/rendered does not exist)');
  assert.ok(result.statusCommit, 'the heartbeat is written all the same');
  assert.ok(
    git(fresh.gitdir, 'ls-tree', '-r', '--name-only', 'flotilla/status').split('\n').includes('clusters/member3.yaml'),
  );
});

test('the running agent applies a new rendered commit as soon as the branch moves, not on its interval', async () => {
  const logs: Record<string, unknown>[] = [];
  const agent = await startAgent({
    cluster: 'member3',
    kube,
    source: { kind: 'local', repo },
    intervalMs: 3_600_000,
    log: (e) => logs.push(e),
  });
  try {
    await waitFor('the first pass', () => logs.some((l) => l.step === 'apply'));
    const commit = await commitRendered(repo, {
      member1: [configMap('only-member1', 'member1')],
      member3: [configMap('settings'), configMap('added')],
    });
    await waitFor('added on member3', async () => (await getConfigMap('added')).status === 200);
    assert.ok(logs.some((l) => l.step === 'apply' && l.renderedCommit === commit));
  } finally {
    await agent.stop();
  }
});

// Karmada's agent runs the execution controller against its own cluster: a Work is not synced while the Cluster is not
// Ready, and is synced once it is Ready again, without waiting for the next resync.
test('an agent whose cluster the status branch holds not Ready applies nothing, and applies as soon as its own status says Ready again', async () => {
  const own = await scratch.repo();
  await commitRendered(own, { member3: [configMap('before-not-ready')] });
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const now = () => new Date(clock);
  // Each pass logs its apply, then its status commit: a waiter per step gets the next entry of it.
  const waiters = new Map<string, (e: Record<string, unknown>) => void>();
  const log = (e: Record<string, unknown>) => {
    const waiter = waiters.get(String(e.step));
    waiters.delete(String(e.step));
    waiter?.(e);
  };
  const next = (step: 'apply' | 'status') =>
    new Promise<Record<string, unknown>>((resolve) => waiters.set(step, resolve));
  await member.faults.set({ readyzFalse: true });
  // No Ready condition recorded yet: applied, and its first probe is recorded as it is (Ready=False).
  const first = await runAgentPass({ cluster: 'member3', kube, source: { kind: 'local', repo: own }, now, log });
  assert.equal(first.actions, { created: 1 });
  await member.faults.set({ readyzFalse: false });
  await commitRendered(own, { member3: [configMap('before-not-ready'), configMap('after-ready')] });

  const firstApply = next('apply');
  const firstStatus = next('status');
  const agent = await startAgent({
    cluster: 'member3',
    kube,
    source: { kind: 'local', repo: own },
    intervalMs: 3_600_000,
    now,
    log,
  });
  try {
    const held = await firstApply;
    assert.is(held.writes, 0, 'nothing sent while Ready=False');
    assert.match(String((held.notes as string[])[0]), /^member3 is Ready=False/);
    assert.is((await getConfigMap('after-ready')).status, 404);
    await firstStatus;
    // The member answered well for longer than the success threshold: the next pass records it Ready, and that pass,
    // which began with it not Ready, starts the one that applies.
    clock += 31_000;
    const flipping = next('apply');
    const flipped = next('status');
    void agent.pass();
    assert.is((await flipping).writes, 0, 'it began with member3 not Ready');
    const applying = next('apply');
    await flipped;
    // A guard, not a wait: without the pass the flip starts, the next apply would come an hour later.
    let guard: NodeJS.Timeout | undefined;
    const applied = await Promise.race([
      applying,
      new Promise<never>((_, reject) => {
        guard = setTimeout(() => reject(new Error('no pass followed the one that recorded member3 Ready')), 15_000);
      }),
    ]).finally(() => clearTimeout(guard));
    assert.is(applied.created, 1);
    assert.is((await getConfigMap('after-ready')).status, 200);
  } finally {
    await agent.stop();
    await member.faults.set({ readyzFalse: false });
  }
});

test('over smart HTTP: the agent mirrors the repo, applies, and pushes status; a push race is rebuilt on the new tip', async () => {
  const url = `${server.url}/${path.basename(repo.gitdir)}`;
  await commitRendered(repo, { member3: [configMap('settings'), configMap('added'), configMap('over-http')] });
  // Another writer (the reconciler) pushes its status right after the agent fetched: the agent's first push loses.
  const other = path.join(scratch.dir('flotilla-other-'), 'work');
  await gitAsync(path.dirname(other), 'clone', '-q', url, other);
  git(other, 'checkout', '-q', 'flotilla/status');
  writeFileSync(path.join(other, 'clusters-member1-note.txt'), 'written by the reconciler\n');
  git(other, 'add', '-A');
  git(other, 'commit', '-q', '-m', 'Status of member1');
  const logs: Record<string, unknown>[] = [];
  const cache = scratch.dir('flotilla-agent-cache-');
  const source = await openAgentSource(url, 'member3', cache);
  // The git server runs in this process, so the push must not block it: the member's first answer waits for it.
  // It starts once the agent has pushed its planned inventory (before its apply), so it lands on top of that.
  let pushed: Promise<unknown> | undefined;
  const gated: KubeTarget = {
    ...kube,
    name: kube.name,
    server: kube.server,
    discovery: kube.discovery,
    stats: kube.stats,
    request: async (req) => {
      await pushed;
      return kube.request(req);
    },
    close: () => kube.close(),
  };
  const result = await runAgentPass({
    cluster: 'member3',
    kube: gated,
    source,
    log: (e) => {
      logs.push(e);
      if (e.step === 'push' && e.what === 'planned inventory' && e.outcome === 'pushed') {
        pushed = gitAsync(
          other,
          '-c',
          'user.name=R',
          '-c',
          'user.email=r@example.com',
          'pull',
          '-q',
          '--rebase',
          'origin',
          'flotilla/status',
        ).then(() => gitAsync(other, 'push', '-q', 'origin', 'flotilla/status'));
      }
    },
  });
  assert.ok(result.ok, result.problems.join('\n'));
  assert.is((await getConfigMap('over-http')).status, 200);
  const planned = logs.filter((l) => l.step === 'push' && l.what === 'planned inventory').map((l) => l.outcome);
  assert.equal(planned, ['pushed'], 'what the apply may create reached the remote before the apply');
  const pushes = logs.filter((l) => l.step === 'push' && !l.what).map((l) => l.outcome);
  assert.equal(pushes, ['rejected', 'pushed']);

  const bare = await openRepo(repo.gitdir);
  assert.is(git(bare.gitdir, 'rev-parse', 'flotilla/status'), result.statusCommit);
  // Nothing lost: the other writer's commit is an ancestor, and both writers' files are there.
  git(bare.gitdir, 'merge-base', '--is-ancestor', 'flotilla/status^', 'flotilla/status');
  assert.is(git(bare.gitdir, 'log', '-1', '--format=%s', 'flotilla/status^'), 'Status of member1');
  assert.is(git(bare.gitdir, 'log', '-1', '--format=%s', 'flotilla/status^^'), 'Inventory planned for member3');
  const files = git(bare.gitdir, 'ls-tree', '-r', '--name-only', 'flotilla/status').split('\n');
  assert.ok(files.includes('clusters-member1-note.txt') && files.includes('clusters/member3.yaml'), files.join(' '));
  assert.match(git(bare.gitdir, 'show', 'flotilla/status:inventories/member3.json'), 'over-http');
  assert.ok(server.requests.some((r) => r.startsWith('POST') && r.endsWith('/git-receive-pack')));
});

test('flotilla agent --once over HTTP exits 0 with JSON log lines, and 1 when an object conflicts under Abort', async () => {
  const url = `${server.url}/${path.basename(repo.gitdir)}`;
  const cache = scratch.dir('flotilla-agent-cli-');
  const run = () =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          BIN,
          'agent',
          '--cluster',
          'member3',
          '--repo',
          url,
          '--kubeconfig',
          kubeconfig,
          '--once',
          '--cache-dir',
          cache,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => {
        out += c;
      });
      child.stderr.on('data', (c) => {
        err += c;
      });
      child.on('close', (code) => resolve({ code, out, err }));
    });
  const ok = await run();
  assert.is(ok.code, 0, ok.err + ok.out);
  const lines = ok.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.ok(
    lines.some((l) => l.step === 'apply' && /^[0-9a-f]{40}$/.test(String(l.renderedCommit)) && l.agent === 'member3'),
  );

  // A ConfigMap made by hand under a name the rendered branch also uses: Abort leaves it alone, the pass fails.
  const handmade = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'handmade', namespace: 'default' },
    data: { by: 'hand' },
  };
  const created = await kube.request({
    method: 'POST',
    path: '/api/v1/namespaces/default/configmaps',
    body: JSON.stringify(handmade),
    contentType: 'application/json',
  });
  assert.is(created.status, 201);
  await commitRendered(repo, { member3: [configMap('settings'), configMap('handmade')] });
  const conflict = await run();
  assert.is(conflict.code, 1, conflict.out);
  assert.match(conflict.out, '"conflict":1');
  assert.equal(((await getConfigMap('handmade')).body as { data: unknown }).data, { by: 'hand' });
});

test('flotilla agent without --repo says what is missing and exits 2', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'flotilla-agent-usage-'));
  try {
    const child = spawn(process.execPath, [BIN, 'agent', '--cluster', 'member3'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: dir,
    });
    let err = '';
    child.stderr.on('data', (c) => {
      err += c;
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.is(code, 2);
    assert.match(err, 'agent needs --repo, --kubeconfig');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
