// Members end to end: real `git commit`/`git push` into a bare config repo seeded from repo-template/, the
// reconciler (render + apply) for member1 and member2 (Push), the Pull agent for member3, three emulated members on
// loopback, and kubectl 1.32 (private cache, the generated members.config) as the independent check. In order.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import type { GitRepo } from '../../src/commits/types.ts';
import { connectKubeconfig } from '../../src/deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../../src/deliveries/KubeTarget.ts';
import { startMember, type Member } from '../../src/members/startMember.ts';
import { writeKubeconfig } from '../../src/members/writeKubeconfig.ts';
import { startAgent, type RunningAgent } from '../../src/pullAgent.ts';
import { reconcileOnce, type ReconcileResult } from '../../src/reconcile.ts';
import { kubectl as runKubectl, Scratch, waitFor } from '../deliveries/helpers/e2e.ts';

const TEMPLATE = path.resolve(import.meta.dirname, '../../repo-template');
const GIT_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Ada',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV, stdio: ['ignore', 'pipe', 'pipe'] }).trim();

// What member3 (Pull) gets, and a ConfigMap every member keeps, so removing nginx leaves no folder empty.
const SETTINGS = `apiVersion: v1
kind: ConfigMap
metadata:
  name: fleet-settings
data:
  region: all
`;
const SETTINGS_POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: settings-propagation
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
      name: fleet-settings
    - apiVersion: v1
      kind: ConfigMap
      name: handmade
  placement:
    clusterAffinity:
      clusterNames: [member1, member2, member3]
`;
const TEAM = (names: string[]) =>
  [
    'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n',
    ...names.map(
      (n) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${n}\n  namespace: team-a\ndata:\n  owner: team-a\n`,
    ),
  ].join('---\n');
const TEAM_POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata:
  name: team-a
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: Namespace
      name: team-a
    - apiVersion: v1
      kind: ConfigMap
      namespace: team-a
  placement:
    clusterAffinity:
      clusterNames: [member1]
`;

const scratch = new Scratch();
const names = ['member1', 'member2', 'member3'] as const;
const members = new Map<string, Member>();
const dataDirs = new Map<string, string>();
let kubes: Map<string, KubeTarget>;
let kubeconfig: string;
let kubeCache: string;
let work: string;
let repo: GitRepo;
let agent: RunningAgent;
const agentLogs: Record<string, unknown>[] = [];

const kubectl = (context: string, ...args: string[]) =>
  runKubectl(kubeconfig, kubeCache, ['--context', context, ...args]);
const push = (files: Record<string, string | null>, message: string) => {
  for (const [rel, text] of Object.entries(files)) {
    if (text === null) rmSync(path.join(work, rel));
    else {
      mkdirSync(path.dirname(path.join(work, rel)), { recursive: true });
      writeFileSync(path.join(work, rel), text);
    }
  }
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', message);
  git(work, 'push', '-q', 'origin', 'main');
  return git(work, 'rev-parse', 'HEAD');
};
/** The reconciler's pass for the Push members (render first), then the agent's pass for member3. */
const reconcile = async (): Promise<ReconcileResult> => {
  const result = await reconcileOnce({
    repo,
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
    render: true,
    log: () => undefined,
    clusters: new Map([...kubes].filter(([n]) => n !== 'member3')),
  });
  await agent.pass();
  return result;
};
const status = (file: string) => parse(git(repo.gitdir, 'show', `flotilla/status:${file}`)) as Record<string, any>;
const start = async (name: string) => {
  // No port: a restart on the same data dir serves on the port it had, so members.config stays valid.
  const m = await startMember({ name, dataDir: dataDirs.get(name)!, readyDelayMs: 100 });
  members.set(name, m);
  return m;
};

test.before(async () => {
  const root = scratch.dir('flotilla-e2e-');
  for (const n of names) {
    dataDirs.set(n, path.join(root, 'members', n));
    await start(n);
  }
  kubeconfig = path.join(root, 'members.config');
  writeKubeconfig(kubeconfig, [...members.values()]);
  kubeCache = path.join(root, 'kubectl-cache');
  kubes = await connectKubeconfig(kubeconfig);
  git(root, 'init', '-q', '--bare', '-b', 'main', 'repo.git');
  git(root, 'clone', '-q', 'repo.git', 'work');
  work = path.join(root, 'work');
  for (const entry of readdirSync(TEMPLATE))
    cpSync(path.join(TEMPLATE, entry), path.join(work, entry), { recursive: true });
  repo = await openRepo(path.join(root, 'repo.git'));
  // member3 is Pull mode: its agent reads the same bare repo, woken by the rendered branch moving.
  agent = await startAgent({
    cluster: 'member3',
    kube: kubes.get('member3')!,
    source: { kind: 'local', repo },
    intervalMs: 3_600_000,
    log: (e) => agentLogs.push(e),
  });
});

test.after(async () => {
  await agent?.stop();
  await Promise.all([...(kubes?.values() ?? [])].map((k) => k.close()));
  await Promise.all([...members.values()].map((m) => m.stop()));
  await scratch.cleanup();
});

test('a git push of the seed: nginx pods on member1 and member2, none on member3, which gets its ConfigMap through the agent', async () => {
  const source = push(
    { 'templates/settings.yaml': SETTINGS, 'policies/settings-propagation.yaml': SETTINGS_POLICY },
    'seed: nginx 1:1 over member1 and member2, fleet settings everywhere',
  );
  const first = await reconcile();
  assert.is(first.rendered.at(-1)?.sourceCommit, source);
  for (const n of ['member1', 'member2']) {
    await waitFor(`nginx ready on ${n}`, async () =>
      /^nginx\s+1\/1\s/m.test((await kubectl(n, 'get', 'deploy')).stdout),
    );
    const pods = await kubectl(n, 'get', 'pods', '-o', 'wide', '-l', 'app=nginx');
    assert.is(pods.code, 0, pods.stderr);
    assert.match(
      pods.stdout,
      new RegExp(`^nginx-\\S+\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+10\\.\\d+\\.\\S+\\s+${n}-node-\\d`, 'm'),
    );
    assert.is(pods.stdout.trim().split('\n').length, 2, pods.stdout);
  }
  const none = await kubectl('member3', 'get', 'pods', '-A');
  assert.match(none.stderr, 'No resources found');
  const settings = await kubectl(
    'member3',
    'get',
    'configmap',
    'fleet-settings',
    '-o',
    'jsonpath={.data.region} {.metadata.labels.karmada\\.io/managed}',
  );
  assert.is(settings.stdout, 'all true', settings.stderr);
  assert.ok(
    agentLogs.some((l) => l.step === 'apply' && l.sourceCommit === source && l.created === 1),
    JSON.stringify(agentLogs),
  );

  await reconcile(); // records the pods' readiness
  const nginx = status('templates/default/deployment.apps_nginx.yaml');
  assert.is(nginx.status.replicas, 2);
  assert.is(nginx.status.readyReplicas, 2);
  assert.equal(
    nginx.aggregatedStatus.map(
      (i: any) => `${i.clusterName} ${i.status.readyReplicas}/${i.status.replicas} ${i.health}`,
    ),
    ['member1 1/1 Healthy', 'member2 1/1 Healthy'],
  );
  assert.equal(
    status('templates/default/configmap_fleet-settings.yaml').aggregatedStatus.map((i: any) => i.clusterName),
    ['member1', 'member2', 'member3'],
  );
  assert.is(
    status('clusters/member3.yaml').status.conditions.find((c: { type: string }) => c.type === 'Ready').status,
    'True',
  );
});

test('an object made by hand under a rendered name survives under Abort and is reported; removing nginx prunes it', async () => {
  const made = await runKubectl(
    kubeconfig,
    kubeCache,
    ['--context', 'member2', 'apply', '--server-side', '--field-manager', 'ops', '-f', '-'],
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: handmade\n  namespace: default\ndata:\n  owner: ops\n',
  );
  assert.is(made.code, 0, made.stderr);
  push(
    {
      'templates/handmade.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: handmade\ndata:\n  owner: git\n',
      'templates/nginx.yaml': null,
    },
    'handmade from git; nginx removed',
  );
  const result = await reconcile();
  const onMember2 = result.delivery!.clusters.get('member2')!.results.find((r) => r.ref.name === 'handmade')!;
  assert.is(onMember2.action, 'conflict');
  assert.is((await kubectl('member2', 'get', 'configmap', 'handmade', '-o', 'jsonpath={.data.owner}')).stdout, 'ops');
  assert.is((await kubectl('member1', 'get', 'configmap', 'handmade', '-o', 'jsonpath={.data.owner}')).stdout, 'git');
  assert.is((await kubectl('member3', 'get', 'configmap', 'handmade', '-o', 'jsonpath={.data.owner}')).stdout, 'git');
  const handmade = status('templates/default/configmap_handmade.yaml');
  assert.is(handmade.conditions[0].status, 'False');
  const member2 = handmade.aggregatedStatus.find((i: any) => i.clusterName === 'member2');
  assert.is(member2.applied, false);
  // Karmada's object watcher's own words, as its Work's Applied condition carries them.
  assert.match(
    member2.message,
    /^resource\(kind=ConfigMap, default\/handmade\) already exists in the cluster member2 and the .*conflict-resolution strategy value is empty, Karmada will not manage this resource$/,
  );

  for (const n of ['member1', 'member2']) {
    await waitFor(`nginx pruned from ${n}`, async () =>
      (await kubectl(n, 'get', 'deploy,pods', '-l', 'app=nginx')).stderr.includes('No resources found'),
    );
  }
  assert.throws(() => status('templates/default/deployment.apps_nginx.yaml'));
  assert.is(
    (await kubectl('member1', 'get', 'configmap', 'fleet-settings', '-o', 'name')).stdout.trim(),
    'configmap/fleet-settings',
  );
});

test('member1 stopped mid-apply and restarted on its data dir converges, nothing duplicated or lost', async () => {
  const team = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
  push(
    {
      'templates/team-a.yaml': TEAM(team),
      'policies/team-a.yaml': TEAM_POLICY,
      'templates/nginx.yaml': readFileSync(path.join(TEMPLATE, 'templates/nginx.yaml'), 'utf8').replace(
        'replicas: 2',
        'replicas: 4',
      ),
    },
    'team-a on member1; nginx back with 4 replicas',
  );
  // Slow every request, so the pass is still in flight when the Namespace (applied first) lands; then stop.
  const m1 = members.get('member1')!;
  await m1.faults.set({ latencyMs: 150 });
  const pass = reconcileOnce({
    repo,
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
    render: true,
    log: () => undefined,
    clusters: new Map([...kubes].filter(([n]) => n !== 'member3')),
  });
  await waitFor('team-a created on member1', () => m1.store.get('/namespaces', undefined, 'team-a'), 15_000, 5);
  await m1.stop();
  const interrupted = await pass;
  const cut = interrupted.delivery!.clusters.get('member1')!;
  assert.ok(
    cut.results.some((r) => r.action === 'failed'),
    JSON.stringify(cut.results.map((r) => `${r.ref.name} ${r.action}`)),
  );
  assert.ok(
    m1.store.list('/configmaps').filter((c) => c.metadata.namespace === 'team-a').length < team.length,
    'the stop came mid-apply',
  );

  await start('member1');
  await reconcile();
  const cms = await kubectl(
    'member1',
    'get',
    'configmaps',
    '-n',
    'team-a',
    '-l',
    'karmada.io/managed=true',
    '-o',
    'jsonpath={.items[*].metadata.name}',
  );
  assert.equal(cms.stdout.split(' ').sort(), [...team].sort());
  await waitFor('nginx 2/2 on member1', async () =>
    /^nginx\s+2\/2\s/m.test((await kubectl('member1', 'get', 'deploy')).stdout),
  );
  const deploys = await kubectl('member1', 'get', 'deploy', '-A', '-o', 'name');
  assert.equal(deploys.stdout.trim().split('\n'), ['deployment.apps/nginx']);
  const pods = await kubectl('member1', 'get', 'pods', '-l', 'app=nginx', '-o', 'name');
  assert.is(pods.stdout.trim().split('\n').length, 2, pods.stdout);
  await reconcile();
  const nginx = status('templates/default/deployment.apps_nginx.yaml');
  assert.is(`${nginx.status.readyReplicas}/${nginx.status.replicas}`, '4/4');
  assert.is(status('templates/team-a/configmap_alpha.yaml').conditions[0].status, 'True');
  // The inventory names exactly what member1's folder holds: nothing the interrupted pass made was forgotten.
  const inventory = (
    JSON.parse(git(repo.gitdir, 'show', 'flotilla/status:inventories/member1.json')) as {
      objects: { kind: string; namespace: string; name: string }[];
    }
  ).objects;
  const folder = git(repo.gitdir, 'ls-tree', '-r', '--name-only', 'flotilla/rendered', 'clusters/member1/').split('\n');
  assert.is(inventory.length, folder.length);
  assert.equal(
    inventory.map((o) => `${o.namespace || '_cluster'}/${o.name}`).sort(),
    folder.map((f) => `${f.split('/')[2]}/${path.basename(f, '.yaml').split('_').slice(1).join('_')}`).sort(),
  );
});

test.run();
