// One template's placement for the object view, scheduled from the rendered branch's index: the same answer as
// `flotilla explain`'s whole-commit render, for every template, rendered or not yet rendered, and no answer (the
// caller renders the commit) when there is no earlier result to start from.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readOutputIndex } from '../../src/branches/rendered/readOutputIndex.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { resolveRev } from '../../src/commits/resolveRev.ts';
import { explainTemplate } from '../../src/dashboard/explainTemplate.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { readExplanations } from '../../src/views/readExplanations.ts';
import { authorEnv, commitAs, DEPLOYMENT, POLICY, writeWorkTree, type TempRepo } from '../plans/helpers/nginxRepo.ts';
import { makeFleetRepo, RENDERED } from '../views/helpers/fleetRepo.ts';

let repo: TempRepo;
const refs = { source: 'refs/heads/main', rendered: RENDERED, status: 'refs/heads/flotilla/status' };
const now = new Date('2026-02-01T00:05:00Z');

test.before(async () => {
  ({ repo } = await makeFleetRepo());
});
test.after(() => repo?.cleanup());

async function sameAsWholeCommit(): Promise<string[]> {
  const git = await openRepo(repo.path);
  const whole = await readExplanations(git, { rev: refs.source, outputRef: RENDERED, now });
  const index = await readOutputIndex(git, (await readCommitInfo(git, await resolveRev(git, RENDERED))).tree);
  const keys = [...new Set([...Object.keys(index!.templates), ...whole.model.templates.keys()])];
  for (const key of keys) {
    const one = await explainTemplate(git, key, refs, now);
    assert.ok(one, key);
    assert.equal(
      one,
      {
        source: whole.model.templates.get(key)?.source ?? null,
        explanation: whole.output.explanations.get(key) ?? null,
      },
      key,
    );
  }
  return keys;
}

test('the first render has no result before it to start from: no answer, the caller renders the commit', async () => {
  const git = await openRepo(repo.path);
  assert.is(await explainTemplate(git, 'apps/v1/Deployment/default/nginx', refs, now), null);
});

test("every template's placement equals the whole-commit explain's, read from the rendered head", async () => {
  writeWorkTree(repo, { 'templates/deployment.yaml': DEPLOYMENT.replace('replicas: 2', 'replicas: 3') });
  commitAs(repo, 'Scale nginx to 3', authorEnv('Cy', 'cy@example.com', 1_700_000_000));
  await syncRepo(await openRepo(repo.path), { sourceRef: refs.source, outputRef: RENDERED });
  const keys = await sameAsWholeCommit();
  assert.ok(keys.includes('apps/v1/Deployment/default/nginx'), keys.join(' '));
  const git = await openRepo(repo.path);
  const one = await explainTemplate(git, 'apps/v1/Deployment/default/nginx', refs, now);
  assert.ok(one?.explanation?.policy, 'the winning policy is named');
  assert.match(one!.source!.file, 'templates/deployment.yaml');
});

test('a source commit the rendered branch has not caught up with is explained as the next sync will place it', async () => {
  writeWorkTree(repo, {
    'templates/deployment.yaml': DEPLOYMENT.replace('replicas: 2', 'replicas: 5'),
    // A policy the rendered branch has never seen, matching nginx too: the earlier claim sticks, as in Karmada.
    'policies/second.yaml': POLICY.replace('name: nginx-propagation', 'name: second').replace(
      'spec:\n',
      'spec:\n  priority: 5\n',
    ),
  });
  commitAs(repo, 'Scale nginx to 5 under a second policy', authorEnv('Cy', 'cy@example.com', 1_700_100_000));
  await sameAsWholeCommit();
  const one = await explainTemplate(await openRepo(repo.path), 'apps/v1/Deployment/default/nginx', refs, now);
  assert.match(one!.explanation!.policyReason, 'claimed earlier');
  assert.equal(
    one!.explanation!.clusters.reduce((n, c) => n + (c.replicas ?? 0), 0),
    5,
  );
});

test('without a rendered branch there is nothing to continue from: no answer, the caller renders the commit', async () => {
  const git = await openRepo(repo.path);
  assert.is(
    await explainTemplate(git, 'apps/v1/Deployment/default/nginx', { ...refs, rendered: 'refs/heads/none' }, now),
    null,
  );
});

test.run();
