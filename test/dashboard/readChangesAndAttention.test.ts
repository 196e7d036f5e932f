// The Changes and Needs-attention readers on a repo with all three branches: a squash-merged pull request with a
// scale-up and a broken policy file is rendered; the timeline names the PR and the waiting clusters, the diff shows
// the replicas, and the attention list starts with the validation error at its line.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readAttention, validationItems, type FailedAppliesCache } from '../../src/dashboard/readAttention.ts';
import { CommitChangesCache, MAX_LISTED, readChanges, readClusterDiff } from '../../src/dashboard/readChanges.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { readExplanations } from '../../src/views/readExplanations.ts';
import { readFleet } from '../../src/views/readFleet.ts';
import { authorEnv, commitAs, DEPLOYMENT, writeWorkTree, type TempRepo } from '../plans/helpers/nginxRepo.ts';
import { makeFleetRepo, NGINX, RENDERED, reportApplied } from '../views/helpers/fleetRepo.ts';

let repo: TempRepo;

test.before(async () => {
  ({ repo } = await makeFleetRepo());
  writeWorkTree(repo, {
    'templates/deployment.yaml': DEPLOYMENT.replace('replicas: 2', 'replicas: 4'),
    'policies/broken.yaml':
      'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: broken\nspec:\n  resourceSelectors: 7\n',
  });
  commitAs(repo, 'Scale nginx to 4 (#42)', authorEnv('Cy', 'cy@example.com', 1_700_100_000));
  await syncRepo(await openRepo(repo.path), { sourceRef: 'refs/heads/main', outputRef: RENDERED });
});
test.after(() => repo?.cleanup());

const fleetNow = async () =>
  readFleet(await openRepo(repo.path), {
    rev: 'refs/heads/main',
    renderedRef: RENDERED,
    statusRef: 'refs/heads/flotilla/status',
  });

test('the timeline: newest first, the PR number and author of the source commit, per-cluster changes, who has applied it', async () => {
  const changes = await readChanges(await fleetNow(), 10);
  const [latest, first] = changes.commits;
  assert.is(latest!.subject, 'Scale nginx to 4 (#42)');
  assert.is(latest!.pullRequest, 42);
  assert.is(latest!.author, 'Cy');
  assert.equal(latest!.clusters.member1, {
    added: [],
    changed: ['default/deployment.apps_nginx.yaml'],
    removed: [],
    counts: { added: 0, changed: 1, removed: 0 },
  });
  // The status branch recorded the first render only: that one is applied, the new one waits.
  assert.equal(latest!.applied, { member1: false, member2: false });
  assert.equal(first!.applied, { member1: true, member2: true });
  // member3 has nothing rendered and applied nothing: nothing waits for it.
  assert.equal(
    changes.notUpToDate.map((n) => n.cluster),
    ['member1', 'member2'],
  );
  const diff = await readClusterDiff((await fleetNow()).repo, latest!.renderedCommit, 'member1');
  assert.match(diff, '--- a/clusters/member1/default/deployment.apps_nginx.yaml');
  assert.match(diff, /-\s+replicas: 1\n\+\s+replicas: 2/);
});

test('a commit adding many files to a cluster lists the first few and counts them all; a cached timeline still says who applied what since', async () => {
  const git = await openRepo(repo.path);
  const fleet = await fleetNow();
  const cache = new CommitChangesCache();
  const before = await readChanges(fleet, 10, cache);
  assert.equal(before.commits[0]!.applied, { member1: false, member2: false });
  // The newest commit applied on member1 since: the cached entry is reused, who has applied it is read afresh.
  await reportApplied(git, {
    member1: [
      {
        ref: NGINX,
        path: 'clusters/member1/default/deployment.apps_nginx.yaml',
        action: 'configured',
        message: 'configured',
      },
    ],
  });
  const after = await readChanges(await fleetNow(), 10, cache);
  assert.is(after.commits[0]!.renderedCommit, before.commits[0]!.renderedCommit);
  assert.is(after.commits[0]!.applied.member1, true);

  const many = MAX_LISTED + 5;
  const files: Record<string, string> = {
    'policies/configmaps.yaml':
      'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: configmaps\nspec:\n  resourceSelectors:\n    - apiVersion: v1\n      kind: ConfigMap\n  placement:\n    clusterAffinity:\n      clusterNames: [member3]\n',
  };
  for (let i = 0; i < many; i++)
    files[`templates/cm-${i}.yaml`] =
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\n  namespace: default\ndata:\n  i: "${i}"\n`;
  writeWorkTree(repo, files);
  commitAs(repo, 'Many ConfigMaps', authorEnv('Cy', 'cy@example.com', 1_700_200_000));
  await syncRepo(await openRepo(repo.path), { sourceRef: 'refs/heads/main', outputRef: RENDERED });
  const member3 = (await readChanges(await fleetNow(), 1, cache)).commits[0]!.clusters.member3!;
  assert.is(member3.counts.added, many);
  assert.is(member3.added.length, MAX_LISTED);
});

test("needs attention starts with the source head's validation errors, at their file and line", async () => {
  const fleet = await fleetNow();
  const explained = await readExplanations(fleet.repo, {
    rev: 'refs/heads/main',
    outputRef: RENDERED,
    now: new Date(),
  });
  const view = await readAttention(fleet, validationItems([...explained.model.problems, ...explained.output.problems]));
  const first = view.items[0]!;
  assert.is(first.type, 'validation-error');
  assert.is(first.source?.file, 'policies/broken.yaml');
  assert.is(first.source?.line, 6);
  assert.ok(
    view.items.every((i) => i.type === 'validation-error'),
    JSON.stringify(view.items),
  );
});

test('needs attention names a conflicting apply with its object, cluster and message, and a NotReady-free fleet has no cluster item', async () => {
  await reportApplied(await openRepo(repo.path), {
    member2: [
      {
        ref: NGINX,
        path: 'clusters/member2/default/deployment.apps_nginx.yaml',
        action: 'conflict',
        message: 'the object exists on member2 and is not managed by Flotilla (conflict-resolution: abort)',
      },
    ],
  });
  const failures: FailedAppliesCache = new Map();
  const view = await readAttention(await fleetNow(), [], failures);
  assert.equal(
    view.items.map((i) => [i.type, i.key, i.cluster]),
    [['conflict', 'apps/v1/Deployment/default/nginx', 'member2']],
  );
  assert.match(view.items[0]!.message, 'conflict: the object exists on member2');
  // Read again with what the last read kept: the unchanged file answers from it; a changed one is read afresh.
  assert.equal((await readAttention(await fleetNow(), [], failures)).items, view.items);
  await reportApplied(await openRepo(repo.path), {
    member1: [
      {
        ref: NGINX,
        path: 'clusters/member1/default/deployment.apps_nginx.yaml',
        action: 'failed',
        message: 'admission webhook denied the request',
      },
    ],
    member2: [
      {
        ref: NGINX,
        path: 'clusters/member2/default/deployment.apps_nginx.yaml',
        action: 'configured',
        message: 'configured',
      },
    ],
  });
  assert.equal(
    (await readAttention(await fleetNow(), [], failures)).items.map((i) => [i.type, i.cluster]),
    [['apply-failed', 'member1']],
  );
});

test.run();
