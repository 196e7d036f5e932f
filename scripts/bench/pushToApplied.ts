// push → applied: members and the reconciler in this process on a bare repo, real `git push`es from a clone,
// each timed from the push until both members' Deployment has the new replicas (an event of their stores).
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { startMember, type Member } from '../../src/members/startMember.ts';
import { writeKubeconfig } from '../../src/members/writeKubeconfig.ts';
import { startReconciler } from '../../src/passes/startReconciler.ts';

const run = promisify(execFile);
const GIT_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
};

export interface PushFigures {
  pushes: number;
  push_to_applied_p50_ms: number;
  push_to_applied_p95_ms: number;
  push_to_applied_max_ms: number;
  /** The `git push` command alone (included in push_to_applied). */
  git_push_p50_ms: number;
  /** Objects created on members per second, from the push of a commit adding them until the last one landed. */
  apply_objects_per_s: number;
  apply_objects: number;
  /** Write requests (POST/PUT/PATCH/DELETE) the members received during one full pass with nothing changed. */
  noop_member_writes: number;
  /** Commits on flotilla/rendered and flotilla/status made by that pass. */
  noop_pass_commits: number;
}

const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

const registration = (name: string) =>
  `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\nspec:\n  syncMode: Push\n  kubeconfigRef: {path: members.config, context: ${name}}\n`;
const nginx = (replicas: number) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nginx\n  labels: {app: nginx}\nspec:\n  replicas: ${replicas}\n  selector: {matchLabels: {app: nginx}}\n  template:\n    metadata: {labels: {app: nginx}}\n    spec:\n      containers: [{name: nginx, image: nginx}]\n`;
const policy = `apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: nginx\nspec:\n  resourceSelectors:\n    - {apiVersion: apps/v1, kind: Deployment, name: nginx}\n    - {apiVersion: v1, kind: ConfigMap}\n  placement:\n    clusterAffinity: {clusterNames: [member1, member2]}\n    replicaScheduling:\n      replicaDivisionPreference: Weighted\n      replicaSchedulingType: Divided\n      weightPreference:\n        staticWeightList:\n          - {targetCluster: {clusterNames: [member1]}, weight: 1}\n          - {targetCluster: {clusterNames: [member2]}, weight: 1}\n`;

export async function measurePushToApplied(opts: {
  pushes: number;
  applyObjects: number;
  progress: (line: string) => void;
}): Promise<PushFigures> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'flotilla-bench-push-'));
  const members: Member[] = [];
  let stop: (() => Promise<void>) | undefined;
  try {
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
    const bare = path.join(root, 'repo.git');
    const work = path.join(root, 'work');
    git(root, 'init', '-q', '--bare', '-b', 'main', bare);
    git(bare, 'config', 'gc.auto', '0');
    git(root, 'clone', '-q', bare, work);
    for (const name of ['member1', 'member2'])
      members.push(await startMember({ name, port: 0, dataDir: path.join(root, name), readyDelayMs: 100 }));
    writeKubeconfig(path.join(root, 'members.config'), members);
    const write = (rel: string, text: string) => {
      mkdirSync(path.dirname(path.join(work, rel)), { recursive: true });
      writeFileSync(path.join(work, rel), text);
    };
    write('clusters/member1.yaml', registration('member1'));
    write('clusters/member2.yaml', registration('member2'));
    write('policies/nginx.yaml', policy);
    write('templates/nginx.yaml', nginx(2));
    git(work, 'add', '-A');
    git(work, 'commit', '-q', '-m', 'nginx');

    let passes = 0;
    // Pass ends by source commit, so each push can start on an idle reconciler (not queued behind the last status write).
    const passed = new Set<string>();
    let onPass: (() => void) | undefined;
    const passDone = async (sha: string) => {
      while (!passed.has(sha))
        await new Promise<void>((resolve) => {
          onPass = resolve;
        });
    };
    const reconciler = await startReconciler({
      source: { kind: 'local', path: bare },
      clusters: { kind: 'registered', credentialsDir: root, fallbackKubeconfig: undefined },
      resyncMs: 0,
      log: (e) => {
        if (e.step === 'pass') {
          passes++;
          passed.add(String(e.sourceCommit));
          onPass?.();
        }
      },
    });
    stop = () => reconciler.stop();

    /** Resolves when every member's object satisfies `done`, checked on each store event (and once now). */
    const landed = (
      resource: string,
      name: string,
      done: (spec: Record<string, unknown> | undefined, member: Member) => boolean,
    ) =>
      Promise.all(
        members.map(
          (m) =>
            new Promise<void>((resolve) => {
              const check = () =>
                done(m.store.get(resource, 'default', name)?.spec as Record<string, unknown> | undefined, m);
              if (check()) return resolve();
              const off = m.store.subscribe(() => {
                if (check()) {
                  off();
                  resolve();
                }
              });
            }),
        ),
      );
    const push = () => run('git', ['push', '-q', 'origin', 'main'], { cwd: work, env: GIT_ENV });

    await push();
    await landed('apps/deployments', 'nginx', (s) => s?.replicas === 1);
    const samples: number[] = [];
    const pushMs: number[] = [];
    for (let i = 0; i < opts.pushes; i++) {
      const total = 2 * (2 + (i % 5) + 1); // 6, 8, … 14: each push changes the count
      write('templates/nginx.yaml', nginx(total));
      git(work, 'commit', '-q', '-am', `nginx: ${total} replicas`);
      const started = performance.now();
      const arrived = landed('apps/deployments', 'nginx', (s) => s?.replicas === total / 2);
      await push();
      const pushed = performance.now();
      await arrived;
      samples.push(performance.now() - started);
      pushMs.push(pushed - started);
      await passDone(git(work, 'rev-parse', 'HEAD'));
    }
    samples.sort((a, b) => a - b);
    const pct = (p: number) => samples[Math.min(samples.length - 1, Math.ceil((p / 100) * samples.length) - 1)]!;
    pushMs.sort((a, b) => a - b);
    opts.progress(
      `push → applied over ${samples.length} pushes: p50 ${pct(50).toFixed(0)} ms, p95 ${pct(95).toFixed(0)} ms, max ${samples.at(-1)!.toFixed(0)} ms (${passes} passes); ` +
        `of which the git push itself: p50 ${pushMs[Math.floor(pushMs.length / 2)]!.toFixed(0)} ms`,
    );

    // Apply throughput: one commit adding N ConfigMaps, duplicated to both members.
    for (let i = 0; i < opts.applyObjects; i++)
      write(
        `templates/cm/cm-${i}.yaml`,
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\ndata:\n  i: "${i}"\n`,
      );
    git(work, 'add', '-A');
    git(work, 'commit', '-q', '-m', `${opts.applyObjects} ConfigMaps`);
    const last = `cm-${opts.applyObjects - 1}`;
    const count = (m: Member) =>
      m.store.list('/configmaps', 'default').filter((c) => c.metadata.name?.startsWith('cm-')).length;
    const started = performance.now();
    const all = landed('/configmaps', last, (_s, m) => count(m) === opts.applyObjects);
    await push();
    await all;
    const seconds = (performance.now() - started) / 1000;
    const objects = 2 * opts.applyObjects;
    opts.progress(
      `apply: ${objects} objects on 2 members in ${seconds.toFixed(2)} s (push → last object), ${(objects / seconds).toFixed(0)} objects/s`,
    );

    // No-op resync: once everything has landed and one pass has caught up with it, a full pass over the same
    // commit must neither write to a member nor commit. The writes are counted by the members' HTTP servers.
    await Promise.all(members.map((m) => m.settled()));
    await reconciler.kick('settle');
    const writes = () =>
      members.reduce(
        (sum, m) => sum + WRITE_METHODS.reduce((n, method) => n + (m.requestsByMethod.get(method) ?? 0), 0),
        0,
      );
    const commits = () =>
      ['flotilla/rendered', 'flotilla/status'].reduce((sum, branch) => {
        const ref = `refs/heads/${branch}`;
        return (
          sum +
          (git(bare, 'for-each-ref', '--format=%(refname)', ref) ? Number(git(bare, 'rev-list', '--count', ref)) : 0)
        );
      }, 0);
    const writesBefore = writes();
    const commitsBefore = commits();
    await reconciler.kick('resync');
    const noopWrites = writes() - writesBefore;
    const noopCommits = commits() - commitsBefore;
    opts.progress(
      `no-op resync (full pass, nothing changed): ${noopWrites} write requests at the members, ${noopCommits} commits on flotilla/rendered + flotilla/status (the members took ${writesBefore} write requests before it)`,
    );
    return {
      pushes: samples.length,
      push_to_applied_p50_ms: pct(50),
      push_to_applied_p95_ms: pct(95),
      push_to_applied_max_ms: samples.at(-1)!,
      git_push_p50_ms: pushMs[Math.floor(pushMs.length / 2)]!,
      apply_objects_per_s: objects / seconds,
      apply_objects: objects,
      noop_member_writes: noopWrites,
      noop_pass_commits: noopCommits,
    };
  } finally {
    await stop?.();
    await Promise.all(members.map((m) => m.stop()));
    rmSync(root, { recursive: true, force: true });
  }
}

// Alone: node --import tsx scripts/bench/pushToApplied.ts [pushes] [objects]
if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measurePushToApplied({
    pushes: Number(process.argv[2] ?? 50),
    applyObjects: Number(process.argv[3] ?? 200),
    progress: (l) => process.stderr.write(`${l}\n`),
  });
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
}
