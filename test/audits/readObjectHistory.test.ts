import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readObjectHistory } from '../../src/audits/readObjectHistory.ts';
import { historyCommand } from '../../src/commands/historyCommand.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import {
  DEPLOYMENT,
  authorEnv,
  commitAs,
  makeNginxRepo,
  scaledSample,
  writeWorkTree,
  type TempRepo,
} from '../plans/helpers/nginxRepo.ts';
import { commonOptions } from '../plans/helpers/runCommand.ts';

const OUTPUT = 'refs/heads/flotilla/rendered';
const ADA = authorEnv('Ada Author', 'ada@example.com', 1700000000);
const BOB = authorEnv('Bob Builder', 'bob@example.com', 1700003600);

/**
 * Ada's sample (rendered), Bob scales to 4 on main, Ada's PR #7 changes the weights to 2:1 and is merged
 * with a merge commit; one sync renders Bob's commit and the merge.
 */
async function historyRepo(): Promise<{ repo: TempRepo; ada: string; bob: string; merge: string }> {
  const { repo, base: ada } = makeNginxRepo();
  const git = await openRepo(repo.path);
  await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUTPUT });
  repo.git(['checkout', '-q', '-b', 'weights']);
  writeWorkTree(repo, { 'policies/propagationpolicy.yaml': scaledSample().policy });
  commitAs(repo, 'Weights 2:1', authorEnv('Ada Author', 'ada@example.com', 1700001800));
  repo.git(['checkout', '-q', 'main']);
  writeWorkTree(repo, { 'templates/deployment.yaml': DEPLOYMENT.replace('replicas: 2', 'replicas: 4') });
  const bob = commitAs(repo, 'Scale nginx to 4', BOB);
  repo.git(['merge', '-q', '--no-ff', 'weights', '-m', 'Merge pull request #7 from ada/weights'], {
    env: { ...ADA, GIT_COMMITTER_DATE: '1700007200 +0000', GIT_AUTHOR_DATE: '1700007200 +0000' },
  });
  const merge = repo.git(['rev-parse', 'HEAD']).trim();
  await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUTPUT });
  return { repo, ada, bob, merge };
}

test('history lists each source commit that changed the object, newest first, per cluster', async () => {
  const { repo, ada, bob, merge } = await historyRepo();
  try {
    const history = await readObjectHistory(await openRepo(repo.path), OUTPUT, { kind: 'deployment', name: 'nginx' });
    assert.equal(
      history.map((h) => h.sourceCommit),
      [merge, bob, ada],
    );
    const [m, b, a] = history;
    assert.is(m!.pullRequest, 7);
    assert.is(m!.author, 'Ada Author');
    // 4 replicas at 2:1 → 3 and 1: both members change.
    assert.equal(
      m!.changes.map((c) => [c.cluster, c.change]),
      [
        ['member1', 'modified'],
        ['member2', 'modified'],
        [null, 'modified'],
      ],
    );
    assert.is(b!.author, 'Bob Builder');
    assert.is(b!.email, 'bob@example.com');
    assert.is(b!.subject, 'Scale nginx to 4');
    assert.is(b!.date, '2023-11-14T23:13:20+00:00');
    assert.is(b!.pullRequest, undefined);
    assert.equal(
      a!.changes.map((c) => [c.cluster, c.change]),
      [
        ['member1', 'added'],
        ['member2', 'added'],
        [null, 'added'],
      ],
    );
    assert.is(a!.author, 'Ada Author');
  } finally {
    repo.cleanup();
  }
});

test('--cluster narrows to one member and leaves the binding out', async () => {
  const { repo } = await historyRepo();
  try {
    const history = await readObjectHistory(await openRepo(repo.path), OUTPUT, {
      kind: 'Deployments',
      name: 'nginx',
      namespace: 'default',
      cluster: 'member2',
    });
    assert.is(history.length, 3);
    assert.ok(history.every((h) => h.changes.length === 1 && h.changes[0]!.cluster === 'member2'));
    const none = await readObjectHistory(await openRepo(repo.path), OUTPUT, {
      kind: 'deployment',
      name: 'nginx',
      cluster: 'member3',
    });
    assert.equal(none, []);
  } finally {
    repo.cleanup();
  }
});

test('a hand commit on the output branch shows up as not written by Flotilla', async () => {
  const { repo } = await historyRepo();
  try {
    repo.git(['checkout', '-q', 'flotilla/rendered']);
    writeWorkTree(repo, { 'clusters/member1/default/deployment.apps_nginx.yaml': 'tampered\n' });
    commitAs(repo, 'hot fix', authorEnv('Mallory', 'mallory@example.com', 1700010000));
    repo.git(['checkout', '-q', 'main']);
    const [first] = await readObjectHistory(await openRepo(repo.path), OUTPUT, { kind: 'deployment', name: 'nginx' });
    assert.is(first!.foreign, true);
    assert.is(first!.sourceCommit, undefined);
    assert.is(first!.author, 'Mallory');
    assert.is(first!.subject, 'hot fix');
  } finally {
    repo.cleanup();
  }
});

test('a render of the same source commit again says why: its own subject (an autoscaler decision) beside the source', async () => {
  const { repo, merge } = await historyRepo();
  try {
    repo.git(['checkout', '-q', 'flotilla/rendered']);
    writeWorkTree(repo, { 'clusters/member1/default/deployment.apps_nginx.yaml': 'replicas: 6\n' });
    const why = 'Autoscaled FederatedHPA default/nginx: Deployment default/nginx 4 -> 6 replicas';
    commitAs(
      repo,
      `${why}\n\nmember1: 1 changed\n\nSource-Commit: ${merge}\nSource-Author: Ada Author <ada@example.com>\nFlotilla-Format: 1`,
      authorEnv('Flotilla', 'flotilla@localhost', 1700010000),
    );
    repo.git(['checkout', '-q', 'main']);
    const [again, rendered] = await readObjectHistory(await openRepo(repo.path), OUTPUT, {
      kind: 'deployment',
      name: 'nginx',
    });
    assert.is(again!.sourceCommit, merge);
    assert.is(again!.subject, 'Merge pull request #7 from ada/weights');
    assert.is(again!.renderedAgainFor, why);
    assert.is(rendered!.renderedAgainFor, undefined, 'a render of a new source commit needs no reason');
    const opts = commonOptions(repo.path);
    await historyCommand({ ...opts, target: 'deployment/nginx', namespace: undefined, cluster: 'member1' });
    assert.match(opts.stdout().split('\n')[1]!, `${why} (rendered again from: Merge pull request #7 from ada/weights)`);
  } finally {
    repo.cleanup();
  }
});

test('the command prints a kubectl-like table, and JSON with -o json', async () => {
  const { repo, bob } = await historyRepo();
  try {
    const opts = commonOptions(repo.path);
    assert.is(
      await historyCommand({ ...opts, target: 'deployment/nginx', namespace: undefined, cluster: 'member1' }),
      0,
    );
    const lines = opts.stdout().trimEnd().split('\n');
    assert.match(lines[0]!, /^SOURCE\s+PR\s+AUTHOR\s+DATE\s+CLUSTER\s+CHANGE\s+SUBJECT$/);
    assert.is(lines.length, 4);
    assert.match(
      lines[1]!,
      /#7 .*Ada Author <ada@example.com>.*member1\s+modified\s+Merge pull request #7 from ada\/weights/,
    );
    assert.match(lines[2]!, new RegExp(`^${bob.slice(0, 12)}\\s+-\\s+Bob Builder`));
    const json = commonOptions(repo.path, 'json');
    await historyCommand({ ...json, target: 'deployment/nginx', namespace: 'default', cluster: undefined });
    assert.is(JSON.parse(json.stdout()).length, 3);
    const missing = commonOptions(repo.path);
    assert.is(
      await historyCommand({ ...missing, target: 'deployment/nope', namespace: undefined, cluster: undefined }),
      1,
    );
    assert.match(missing.stderr(), 'never appears');
  } finally {
    repo.cleanup();
  }
});

test.run();
