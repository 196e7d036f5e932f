// A config repo made from repo-template/ and worked only through the CLI, as a new user would: real git and
// `node bin/flotilla.js …` spawned. A PR's plan, history after five commits by two authors, verify against a hand
// edit, cordon, and a commit deleting every template held by prune safety at apply until it carries the trailer.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startMember, type Member } from '../../src/members/startMember.ts';
import { writeKubeconfig } from '../../src/members/writeKubeconfig.ts';
import { waitFor } from '../deliveries/helpers/e2e.ts';
import { spawnFlotilla, type Child } from '../helpers/spawnFlotilla.ts';
import { runProgram, type ProgramResult } from '../helpers/runProgram.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADA = { name: 'Ada Lovelace', email: 'ada@example.com' };
const BOB = { name: 'Bob Builder', email: 'bob@example.com' };
const NGINX = 'apps/v1/Deployment/default/nginx';

const root = mkdtempSync(path.join(tmpdir(), 'flotilla-template-repo-'));
const repo = path.join(root, 'config');
const ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: root,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
};
const members: Member[] = [];
const children: Child[] = [];
let clock = 1_760_000_000;

test.after(async () => {
  await Promise.all(children.map((c) => c.kill9()));
  await Promise.all(members.map((m) => m.stop()));
  rmSync(root, { recursive: true, force: true });
});

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, env: ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** `git commit` as `who`, one minute after the previous commit (history sorts and shows these dates). */
function commit(who: { name: string; email: string }, ...args: string[]): string {
  clock += 60;
  const date = `${clock} +0000`;
  execFileSync('git', ['commit', '-q', ...args], {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...ENV,
      GIT_AUTHOR_NAME: who.name,
      GIT_AUTHOR_EMAIL: who.email,
      GIT_COMMITTER_NAME: who.name,
      GIT_COMMITTER_EMAIL: who.email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    },
  });
  return git('rev-parse', 'HEAD');
}

function edit(rel: string, change: (text: string) => string): void {
  const file = path.join(repo, rel);
  const before = readFileSync(file, 'utf8');
  const after = change(before);
  assert.is.not(after, before, `the edit of ${rel} changed nothing`);
  writeFileSync(file, after);
}

function flotilla(...args: string[]): Promise<ProgramResult> {
  return runProgram(process.execPath, [BIN, ...args], { cwd: repo, env: ENV, timeout: 60_000, maxBuffer: 16 << 20 });
}

const POLICY = 'policies/nginx-propagation.yaml';
const TEMPLATE = 'templates/nginx.yaml';
const weights = (m1: number, m2: number) => (text: string) =>
  text
    .replace(/(clusterNames:\n\s+- member1\n\s+weight: )\d+/, `$1${m1}`)
    .replace(/(clusterNames:\n\s+- member2\n\s+weight: )\d+/, `$1${m2}`);
const replicas = (n: number) => (text: string) => text.replace(/replicas: \d+/, `replicas: ${n}`);

test.before(() => {
  // As repo-template/README.md says: copy the template into a new repo.
  mkdirSync(repo);
  git('init', '-q', '-b', 'main');
  for (const entry of readdirSync(path.join(ROOT, 'repo-template')))
    cpSync(path.join(ROOT, 'repo-template', entry), path.join(repo, entry), { recursive: true });
  git('add', '-A');
});

test('plan: a feature branch setting the nginx weights to 2:1 and replicas to 3 lists exactly the replica moves, exits 1, reads as a PR comment', async () => {
  commit(ADA, '-m', 'nginx 1:1 over member1 and member2, from repo-template');
  assert.is((await flotilla('sync', '--repo', '.')).code, 0);
  git('checkout', '-q', '-b', 'ada/weights');
  edit(POLICY, weights(2, 1));
  edit(TEMPLATE, replicas(3));
  git('add', '-A');
  commit(ADA, '-m', 'nginx: 3 replicas, weighted 2:1');

  const json = await flotilla('plan', '--repo', '.', '--base', 'main', '--head', 'ada/weights', '-o', 'json');
  assert.is(json.code, 1, `exit 1 = changes\n${json.stderr}`);
  const plan = JSON.parse(json.stdout) as {
    base: string;
    head: string;
    errors: unknown[];
    clusters: Record<string, { added: string[]; changed: string[]; removed: string[]; released: string[] }>;
    replicas: unknown[];
    held: unknown[];
  };
  assert.is(plan.base, git('rev-parse', 'main'));
  assert.is(plan.head, git('rev-parse', 'ada/weights'));
  assert.equal(plan.errors, []);
  // 3 by 2:1 is 2 + 1: only member1's count moves; member2 keeps 1 and its manifest does not change.
  assert.equal(plan.replicas, [{ ref: NGINX, cluster: 'member1', from: 1, to: 2 }]);
  assert.equal(plan.clusters, {
    member1: {
      added: [],
      changed: [NGINX],
      removed: [],
      released: [],
      summary: { add: 0, change: 1, remove: 0, release: 0 },
    },
  });
  assert.equal(plan.held, []);

  const md = await flotilla('plan', '--repo', '.', '--base', 'main', '--head', 'ada/weights', '-o', 'markdown');
  assert.is(md.code, 1);
  const text = md.stdout;
  assert.match(text, /^### Flotilla plan `[0-9a-f]{12}` → `[0-9a-f]{12}`$/m);
  assert.match(text, '| Cluster | Added | Changed | Removed |\n|---|--:|--:|--:|\n| member1 | 0 | 1 | 0 |\n');
  assert.match(text, /^\*\*Replica moves\*\*\n\n- Deployment default\/nginx: member1 1→2$/m);
  assert.match(
    text,
    /<details><summary>member1: 1 changed<\/summary>\n\n[\s\S]*```diff\n[\s\S]*^-  replicas: 1$\n^\+  replicas: 2$[\s\S]*```\n\n<\/details>/m,
  );
  assert.not.match(text, /<details><summary>member2/);
  assert.not.match(text, '✂️', 'a small plan is not cut');

  // A PR too large for one comment: the Markdown says what was cut and how to see everything.
  git('checkout', '-q', '-b', 'bob/many-configmaps', 'main');
  const policy =
    'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: settings\nspec:\n  resourceSelectors:\n    - {apiVersion: v1, kind: ConfigMap}\n  placement:\n    clusterAffinity: {clusterNames: [member1, member2]}\n';
  writeFileSync(path.join(repo, 'policies/settings.yaml'), policy);
  for (let i = 0; i < 120; i++)
    writeFileSync(
      path.join(repo, `templates/settings-${i}.yaml`),
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings-${i}\ndata:\n  blob: "${'x'.repeat(400)}"\n`,
    );
  git('add', '-A');
  commit(BOB, '-m', '120 ConfigMaps');
  const big = await flotilla(
    'plan',
    '--repo',
    '.',
    '--base',
    'main',
    '--head',
    'bob/many-configmaps',
    '-o',
    'markdown',
  );
  assert.is(big.code, 1);
  assert.ok(big.stdout.length <= 60_000, `${big.stdout.length} characters fit a GitHub comment`);
  assert.match(big.stdout, '| member1 | 120 | 0 | 0 |');
  assert.match(
    big.stdout,
    /^> ✂️ \d+ object diff\(s\) on member\d(, member\d)? were left out to keep this comment under 60000 characters\. Run `flotilla plan --base [0-9a-f]{12} --head [0-9a-f]{12}` for the full plan\.$/m,
  );
  git('checkout', '-q', 'main');
  git('branch', '-q', '-D', 'bob/many-configmaps');
});

interface HistoryEntry {
  sourceCommit?: string;
  pullRequest?: number;
  author: string;
  email: string;
  subject: string;
  changes: { cluster?: string; change: string }[];
}

test('history: five commits by two authors (one a merged PR) are listed per cluster, newest first; a docs-only commit is not', async () => {
  const c1 = git('rev-parse', 'main');
  edit(TEMPLATE, (t) => t.replace('image: nginx\n', 'image: nginx:1.25\n'));
  const c2 = commit(BOB, '-am', 'nginx: pin 1.25');
  clock += 60;
  execFileSync('git', ['merge', '-q', '--no-ff', '-m', 'Merge pull request #7 from ada/weights', 'ada/weights'], {
    cwd: repo,
    stdio: 'ignore',
    env: {
      ...ENV,
      GIT_AUTHOR_NAME: ADA.name,
      GIT_AUTHOR_EMAIL: ADA.email,
      GIT_COMMITTER_NAME: ADA.name,
      GIT_COMMITTER_EMAIL: ADA.email,
      GIT_AUTHOR_DATE: `${clock} +0000`,
      GIT_COMMITTER_DATE: `${clock} +0000`,
    },
  });
  const c3 = git('rev-parse', 'HEAD');
  writeFileSync(path.join(repo, 'NOTES.md'), 'how we run nginx\n');
  git('add', 'NOTES.md');
  const c4 = commit(BOB, '-m', 'docs: notes');
  edit(TEMPLATE, replicas(6));
  const c5 = commit(BOB, '-am', 'nginx: 6 replicas');
  const sync = await flotilla('sync', '--repo', '.');
  assert.is(sync.code, 0, sync.stderr);

  const json = await flotilla('history', 'deployment/nginx', '--repo', '.', '-o', 'json');
  assert.is(json.code, 0, json.stderr);
  const history = JSON.parse(json.stdout) as HistoryEntry[];
  const perCluster = (cluster: string) =>
    history.filter((h) => h.changes.some((c) => c.cluster === cluster)).map((h) => h.sourceCommit);
  // c2 and c5 change both copies; the merged PR (3 at 2:1) only member1's count; NOTES.md nothing.
  assert.equal(perCluster('member1'), [c5, c3, c2, c1]);
  assert.equal(perCluster('member2'), [c5, c2, c1]);
  assert.not.ok(
    history.some((h) => h.sourceCommit === c4),
    'a commit that does not change nginx is not in its history',
  );
  assert.equal(
    history.map((h) => h.author),
    [BOB.name, ADA.name, BOB.name, ADA.name],
  );
  assert.is(history.find((h) => h.sourceCommit === c3)!.pullRequest, 7);

  const table = await flotilla('history', 'deployment/nginx', '--repo', '.', '--cluster', 'member2');
  assert.is(table.code, 0);
  const rows = table.stdout.trimEnd().split('\n');
  assert.match(rows[0]!, /^SOURCE +PR +AUTHOR +DATE +CLUSTER +CHANGE +SUBJECT$/);
  assert.equal(
    rows.slice(1).map((r) => r.split(/\s{3,}/)[0]),
    [c5, c2, c1].map((c) => c.slice(0, 12)),
  );
  assert.match(rows[1]!, /Bob Builder <bob@example\.com> .* member2 .* nginx: 6 replicas$/);
});

test('verify: the rendered branch as sync left it verifies; a hand edit to it is caught, naming the file', async () => {
  const clean = await flotilla('verify', '--repo', '.');
  assert.is(clean.code, 0, clean.stdout + clean.stderr);
  const good = git('rev-parse', 'flotilla/rendered');
  git('checkout', '-q', 'flotilla/rendered');
  edit('clusters/member2/default/deployment.apps_nginx.yaml', (t) =>
    t.replace('image: nginx:1.25', 'image: evil/miner:latest'),
  );
  commit(BOB, '-am', 'quick fix on the rendered branch');
  git('checkout', '-q', 'main');
  const caught = await flotilla('verify', '--repo', '.');
  assert.is(caught.code, 1);
  assert.match(caught.stdout, 'clusters/member2/default/deployment.apps_nginx.yaml');
  assert.not.match(caught.stdout, 'clusters/member1/');
  git('branch', '-q', '-f', 'flotilla/rendered', good);
  assert.is((await flotilla('verify', '--repo', '.')).code, 0);
});

test('cordon member2: one commit saying what and why; new placements avoid member2, existing ones stay', async () => {
  const before = git('rev-parse', 'main');
  const cordon = await flotilla(
    'cordon',
    'member2',
    '--repo',
    '.',
    '--reason',
    'kernel upgrade',
    '--author',
    `${ADA.name} <${ADA.email}>`,
  );
  assert.is(cordon.code, 0, cordon.stderr);
  assert.match(cordon.stdout, /^cluster\/member2 cordoned$/m);
  assert.is(git('rev-parse', 'main^'), before, 'exactly one commit on main');
  assert.match(
    git('log', '-1', '--format=%an <%ae>%n%B'),
    /^Ada Lovelace <ada@example\.com>\n[\s\S]*kernel upgrade[\s\S]*^Flotilla-Operation: cordon member2$/m,
  );
  assert.match(
    readFileSync(path.join(repo, 'clusters/member2.yaml'), 'utf8'),
    /key: cluster\.karmada\.io\/unschedulable\n\s+effect: NoSchedule/,
  );
  assert.is(git('status', '--porcelain'), '', 'the work tree follows the commit');

  writeFileSync(
    path.join(repo, 'templates/web.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  color: blue\n',
  );
  writeFileSync(
    path.join(repo, 'policies/web.yaml'),
    'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: web\nspec:\n  resourceSelectors:\n    - {apiVersion: v1, kind: ConfigMap, name: web}\n  placement:\n    clusterAffinity: {clusterNames: [member1, member2]}\n',
  );
  git('add', '-A');
  commit(BOB, '-m', 'web settings on member1 and member2');
  assert.is((await flotilla('sync', '--repo', '.')).code, 0);
  const files = git('ls-tree', '-r', '--name-only', 'flotilla/rendered').split('\n');
  assert.ok(files.includes('clusters/member1/default/configmap_web.yaml'));
  assert.not.ok(
    files.includes('clusters/member2/default/configmap_web.yaml'),
    'the new placement avoids cordoned member2',
  );
  assert.ok(
    files.includes('clusters/member2/default/deployment.apps_nginx.yaml'),
    'nginx keeps its replicas on member2',
  );
  const explain = await flotilla('explain', 'configmap/web', '-n', 'default', '--repo', '.');
  assert.match(explain.stdout, /member2 +filtered .*cluster\.karmada\.io\/unschedulable/);

  const uncordon = await flotilla('uncordon', 'member2', '--repo', '.', '--reason', 'upgrade done');
  assert.is(uncordon.code, 0, uncordon.stderr);
});

test('prune safety: a commit deleting every template is held by the applier (and said so by sync and plan); the trailer lets it through', async () => {
  const credentials = path.join(root, 'credentials');
  for (const name of ['member1', 'member2'])
    members.push(await startMember({ name, port: 0, dataDir: path.join(root, 'members', name), readyDelayMs: 0 }));
  writeKubeconfig(path.join(credentials, 'members.config'), members);
  const managed = (m: Member) =>
    [...m.store.list('apps/deployments', 'default'), ...m.store.list('/configmaps', 'default')]
      .filter((o) => o.metadata.labels?.['karmada.io/managed'] === 'true')
      .map((o) => `${o.kind}/${o.metadata.name}`)
      .sort();
  // `flotilla run` on the config repo, Push to member1 and member2 (repo-template registers them with kubeconfigRef members.config).
  const run = spawnFlotilla(
    ['run', '--repo', repo, '--credentials-dir', credentials, '--listen', 'off', '--resync', '0'],
    ENV,
  );
  children.push(run);
  const { events } = run;
  try {
    const head = git('rev-parse', 'main');
    await events.next(
      'the first converged pass',
      (e) => e.step === 'pass' && e.sourceCommit === head && !e.error,
      30_000,
      true,
    );
    assert.equal(managed(members[0]!), ['ConfigMap/web', 'Deployment/nginx']);
    assert.equal(
      managed(members[1]!),
      ['ConfigMap/web', 'Deployment/nginx'],
      'uncordoned, member2 gets the Duplicated ConfigMap too',
    );

    git('rm', '-q', '-r', 'templates');
    const deleting = commit(BOB, '-m', 'remove every template');
    const held = await events.next(
      'the pass of the deleting commit',
      (e) => e.step === 'pass' && e.sourceCommit === deleting,
      30_000,
      true,
    );
    assert.is(held.error, undefined);
    assert.ok(
      events.entries.some((e) => e.step === 'apply' && e.cluster === 'member1' && Array.isArray(e.pruneHeld)),
      'the apply log says what is held',
    );
    assert.equal(managed(members[0]!), ['ConfigMap/web', 'Deployment/nginx'], 'held: nothing deleted on member1');
    assert.equal(managed(members[1]!), ['ConfigMap/web', 'Deployment/nginx'], 'held: nothing deleted on member2');
    const inventory = JSON.parse(git('show', 'flotilla/status:inventories/member1.json')) as { held?: unknown[] };
    assert.ok(inventory.held?.length, 'the status branch records the held deletions');
    const plan = await flotilla('plan', '--repo', '.', '--base', `${deleting}~1`, '--head', deleting, '-o', 'json');
    assert.is(plan.code, 1, plan.stderr);
    assert.equal((JSON.parse(plan.stdout) as { held: { cluster: string }[] }).held.map((h) => h.cluster).sort(), [
      'member1',
      'member2',
    ]);
    const planText = await flotilla('plan', '--repo', '.', '--base', `${deleting}~1`, '--head', deleting);
    assert.match(planText.stdout, 'Flotilla-Allow-Prune');

    const allowing = commit(
      ADA,
      '--allow-empty',
      '-m',
      'allow prune',
      '--trailer',
      'Flotilla-Allow-Prune: retiring nginx and web',
    );
    await events.next(
      'the pass of the allowing commit',
      (e) => e.step === 'pass' && e.sourceCommit === allowing && !e.error,
      30_000,
      true,
    );
    await waitFor(
      'both members emptied of what Flotilla manages',
      () => managed(members[0]!).length === 0 && managed(members[1]!).length === 0,
      10_000,
    );
    const after = JSON.parse(git('show', 'flotilla/status:inventories/member1.json')) as {
      held?: unknown[];
      objects: unknown[];
    };
    assert.equal(after.objects, []);
    assert.not.ok(after.held?.length);
  } finally {
    assert.is(await run.stop(), 0, run.stderr());
  }
});

test.run();
