// The cluster verbs against real repositories made by native git: the commit, the work tree, and what a render does next.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { clusterCommand } from '../../src/commands/clusterCommand.ts';
import type { ClusterOperation } from '../../src/commands/clusterOperations.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { commitAll, makeNginxRepo, writeWorkTree, type TempRepo } from '../plans/helpers/nginxRepo.ts';

const cleanups: (() => void)[] = [];
test.after.each(() => {
  while (cleanups.length) cleanups.pop()!();
});

function nginx(): TempRepo {
  const { repo } = makeNginxRepo();
  cleanups.push(() => repo.cleanup());
  return repo;
}

async function run(op: ClusterOperation, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await clusterCommand(op, args, {
    out: (s) => {
      out += s;
    },
    err: (s) => {
      err += s;
    },
    env: { GIT_AUTHOR_NAME: 'Olga Ops', GIT_AUTHOR_EMAIL: 'olga@example.com' },
    now: () => new Date('2026-05-06T07:08:09Z'),
  });
  return { code, out, err };
}

const NEW_APP = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 3
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers: [{name: api, image: api:1}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: api
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: api}
  placement:
    replicaScheduling:
      replicaSchedulingType: Duplicated
`;

test('cordon member2 commits the taint, keeps the work tree clean, and the next render places nothing new on member2', async () => {
  const repo = nginx();
  const before = repo.git(['rev-parse', 'main']).trim();
  const r = await run('cordon', ['member2', '--repo', repo.path, '--reason', 'kernel upgrade']);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /^cluster\/member2 cordoned\n\[main [0-9a-f]{12}\] cordon member2: kernel upgrade\n/);
  assert.is(repo.git(['rev-parse', 'main^']).trim(), before, 'one commit on top of main');
  assert.is(
    repo.git(['log', '-1', '--format=%an <%ae>|%s|%(trailers:key=Flotilla-Operation,valueonly)', 'main']).trim(),
    'Olga Ops <olga@example.com>|cordon member2: kernel upgrade|cordon member2',
  );
  assert.is(repo.git(['status', '--porcelain']), '', 'work tree and index follow the commit');
  assert.equal(parse(repo.git(['show', 'main:clusters/member2.yaml'])).spec.taints, [
    { key: 'cluster.karmada.io/unschedulable', effect: 'NoSchedule' },
  ]);
  repo.git(['fsck', '--strict', '--no-dangling']);

  const again = await run('cordon', ['member2', '--repo', repo.path]);
  assert.is(again.out, 'cluster/member2 already cordoned; nothing to commit\n');

  writeWorkTree(repo, { 'templates/api.yaml': NEW_APP });
  commitAll(repo, 'Add api everywhere');
  const git = await openRepo(repo.path);
  await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
  const files = repo.git(['ls-tree', '-r', '--name-only', 'flotilla/rendered']).split('\n');
  assert.ok(files.includes('clusters/member1/default/deployment.apps_api.yaml'));
  assert.ok(files.includes('clusters/member3/default/deployment.apps_api.yaml'));
  assert.not.ok(
    files.includes('clusters/member2/default/deployment.apps_api.yaml'),
    'the cordoned cluster gets no new placement',
  );

  const un = await run('uncordon', ['member2', '--repo', repo.path]);
  assert.is(un.code, 0);
  assert.is(parse(repo.git(['show', 'main:clusters/member2.yaml'])).spec.taints, undefined);
  writeWorkTree(repo, { 'templates/api.yaml': NEW_APP.replace('api:1', 'api:2') });
  commitAll(repo, 'api 2');
  await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
  assert.ok(
    repo
      .git(['ls-tree', '-r', '--name-only', 'flotilla/rendered'])
      .split('\n')
      .includes('clusters/member2/default/deployment.apps_api.yaml'),
    'uncordoned: placed again',
  );
});

test('a bare repository: objects and a compare-and-swap ref update only', async () => {
  const work = nginx();
  const bare = path.join(path.dirname(work.path), 'bare.git');
  work.git(['clone', '-q', '--bare', work.path, bare]);
  const r = await run('taint', [
    'member1',
    'dedicated=gpu:NoSchedule',
    'spot:NoExecute',
    '--repo',
    bare,
    '--author',
    'Ann <ann@example.com>',
  ]);
  assert.is(r.code, 0, r.err);
  const show = (args: string[]) => work.git(['--git-dir', bare, ...args]);
  assert.is(show(['log', '-1', '--format=%an %ae %s', 'main']).trim(), 'Ann ann@example.com taint member1');
  assert.equal(parse(show(['show', 'main:clusters/member1.yaml'])).spec.taints, [
    { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
    { key: 'spot', effect: 'NoExecute', timeAdded: '2026-05-06T07:08:09Z' },
  ]);
  const removed = await run('taint', ['member1', 'spot-', 'dedicated:NoSchedule-', '--repo', bare]);
  assert.match(removed.out, /^cluster\/member1 untainted\n/);
  assert.is(
    show(['diff', 'main~2', 'main', '--stat']).trim(),
    '',
    'taint then untaint restores the file byte for byte',
  );
  show(['fsck', '--strict', '--no-dangling']);
});

test('--branch creates a branch off main to open a pull request from, and leaves main and the work tree untouched', async () => {
  const repo = nginx();
  const main = repo.git(['rev-parse', 'main']).trim();
  const r = await run('cordon', [
    'member3',
    '--repo',
    repo.path,
    '--branch',
    'ops/cordon-member3',
    '--reason',
    'rack move',
  ]);
  assert.is(r.code, 0, r.err);
  assert.is(repo.git(['rev-parse', 'main']).trim(), main);
  assert.is(repo.git(['rev-parse', 'ops/cordon-member3^']).trim(), main);
  assert.match(r.out, /\[ops\/cordon-member3 \(new branch\) [0-9a-f]{12}\] cordon member3: rack move/);
  assert.match(
    r.out,
    /main is untouched\. To propose this change: git push origin ops\/cordon-member3, then open a pull request/,
  );
  assert.is(repo.git(['status', '--porcelain']), '');
  // A second operation stacks on the same branch.
  const second = await run('taint', [
    'member3',
    'ssd=true:NoSchedule',
    '--repo',
    repo.path,
    '--branch',
    'ops/cordon-member3',
  ]);
  assert.is(second.code, 0, second.err);
  assert.is(repo.git(['rev-list', '--count', 'main..ops/cordon-member3']).trim(), '2');
  assert.is(parse(repo.git(['show', 'ops/cordon-member3:clusters/member3.yaml'])).spec.taints.length, 2);
});

test('a modified cluster file in the work tree is never clobbered', async () => {
  const repo = nginx();
  const file = path.join(repo.path, 'clusters/member2.yaml');
  fs.appendFileSync(file, '# my unsaved note\n');
  const main = repo.git(['rev-parse', 'main']).trim();
  const r = await run('cordon', ['member2', '--repo', repo.path]);
  assert.is(r.code, 1);
  assert.match(
    r.err,
    /clusters\/member2\.yaml has uncommitted changes in .* nothing was committed; fix: commit or stash them/,
  );
  assert.is(repo.git(['rev-parse', 'main']).trim(), main);
  assert.ok(fs.readFileSync(file, 'utf8').endsWith('# my unsaved note\n'));
});

test('join writes a kubeconfigRef after checking the context, and refuses a name already registered', async () => {
  const repo = nginx();
  const kubeconfig = path.join(path.dirname(repo.path), 'members.config');
  fs.writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\ncurrent-context: member4\nclusters:\n- name: member4\n  cluster: {server: 'https://127.0.0.1:7443', certificate-authority-data: AAAA}\nusers:\n- name: u\n  user: {token: secret-token}\ncontexts:\n- name: member4\n  context: {cluster: member4, user: u}\n`,
  );
  const bad = await run('join', ['member4', '--repo', repo.path, '--kubeconfig', kubeconfig, '--context', 'nope']);
  assert.is(bad.code, 1);
  assert.match(bad.err, /no context "nope"; fix: pass --context, one of: member4/);

  const outside = await run('join', [
    'member4',
    '--repo',
    repo.path,
    '--kubeconfig',
    kubeconfig,
    '--credentials-dir',
    repo.path,
  ]);
  assert.is(outside.code, 1);
  assert.match(outside.err, `is not inside --credentials-dir ${repo.path}`);

  const r = await run('join', [
    'member4',
    '--repo',
    repo.path,
    '--kubeconfig',
    kubeconfig,
    '--credentials-dir',
    path.dirname(repo.path),
    '--provider',
    'aws',
    '--region',
    'eu-west-1',
    '--zones',
    'a,b',
    '--labels',
    'env=prod,tier=1',
    '--reason',
    'new region',
  ]);
  assert.is(r.code, 0, r.err);
  const text = repo.git(['show', 'main:clusters/member4.yaml']);
  assert.not.ok(/secret-token|AAAA/.test(text), 'no credential reaches Git');
  assert.equal(parse(text), {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'member4', labels: { env: 'prod', tier: '1' } },
    spec: {
      syncMode: 'Push',
      provider: 'aws',
      region: 'eu-west-1',
      zones: ['a', 'b'],
      kubeconfigRef: { path: 'members.config', context: 'member4' },
    },
  });
  assert.is(repo.git(['log', '-1', '--format=%s', 'main']).trim(), 'join member4: new region');
  assert.is(repo.git(['status', '--porcelain']), '');

  const dup = await run('join', ['member1', '--repo', repo.path, '--kubeconfig', kubeconfig]);
  assert.is(dup.code, 1);
  assert.match(dup.err, /cluster member1 is already registered in clusters\/member1\.yaml/);
});

test('unjoin refuses an unknown name, and says what the next render drops and how prune safety applies', async () => {
  const repo = nginx();
  const unknown = await run('unjoin', ['member9', '--repo', repo.path]);
  assert.is(unknown.code, 1);
  assert.match(unknown.err, /no Cluster named member9 is registered on main/);

  await syncRepo(await openRepo(repo.path), {
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
  });
  const r = await run('unjoin', ['member2', '--repo', repo.path, '--reason', 'decommissioned', '--allow-prune']);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /The next render drops 1 object\(s\) rendered for member2/);
  assert.match(r.out, /default\/deployment\.apps_nginx/);
  assert.match(r.out, /never prunes a cluster whose folder is gone/);
  assert.match(r.out, /carries Flotilla-Allow-Prune/);
  assert.not.ok(repo.git(['ls-tree', '--name-only', 'main', 'clusters/']).includes('member2'));
  assert.is(
    repo.git(['log', '-1', '--format=%(trailers:key=Flotilla-Allow-Prune,valueonly)', 'main']).trim(),
    'decommissioned',
  );
  assert.not.ok(fs.existsSync(path.join(repo.path, 'clusters/member2.yaml')));
  assert.is(repo.git(['status', '--porcelain']), '');
});

test.run();
