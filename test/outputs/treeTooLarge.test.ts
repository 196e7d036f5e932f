import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { commitTrailers } from '../../src/branches/rendered/trailers.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { makeConfigRepo, MEMBERS, sample, type ConfigRepo } from '../helpers/fleet.ts';
import { commitDeepFolder, commitSameTree, commitTreeBomb } from '../helpers/treeBomb.ts';

const OUT = 'refs/heads/flotilla/rendered';
const NGINX_M1 = 'clusters/member1/default/deployment.apps_nginx.yaml';
const SOURCE = {
  ...MEMBERS,
  'templates/nginx.yaml': sample('nginx/deployment.yaml'),
  'policies/nginx.yaml': sample('nginx/propagationpolicy.yaml'),
};
// 100 files to read, so 2,000 tree entries to walk: the bomb below spells a billion paths.
const LIMITS = { maxSourceFiles: 100 };
const repos: ConfigRepo[] = [];

test.after(() => {
  for (const r of repos) r.cleanup();
});

async function render(r: ConfigRepo) {
  return renderRevision(await openRepo(r.dir), r.git('rev-parse', 'HEAD'), { outputRef: OUT, limits: LIMITS });
}

test('a source tree too large to walk is held whole, and the next commit renders from the last good one', async () => {
  const r = makeConfigRepo();
  repos.push(r);
  const good = r.commit(SOURCE, 'nginx');
  await render(r);
  const goodTree = r.git('rev-parse', 'flotilla/rendered^{tree}');
  assert.match(r.show('flotilla/rendered', NGINX_M1), /\n {2}replicas: 1\n/);

  const bomb = commitTreeBomb(r.dir);
  const started = performance.now();
  const held = await render(r);
  assert.ok(performance.now() - started < 1000, 'refused before the walk got far');
  assert.ok(held.outputCommit);
  assert.is(held.problems.length, 1);
  const [problem] = held.problems;
  assert.is(problem!.code, 'COMMIT_TOO_LARGE');
  assert.is(problem!.file, '.');
  assert.match(problem!.message, `source commit ${bomb.slice(0, 12)} names over 2000 files and folders`);
  assert.match(problem!.message, `every cluster keeps what ${good.slice(0, 12)} rendered`);
  assert.match(problem!.fix, 'git revert');
  assert.match(problem!.fix, '--max-source-files (now 100');
  assert.is(r.git('rev-parse', 'flotilla/rendered^{tree}'), goodTree, 'nothing rendered, nothing removed');
  const heldCommit = await readCommitInfo(await openRepo(r.dir), held.outputCommit);
  assert.is(commitTrailers(heldCommit)['Source-Commit'], bomb);
  assert.is(commitTrailers(heldCommit)['Last-Good-Source'], good);
  assert.match(heldCommit.message, 'COMMIT_TOO_LARGE');

  // Still there in the next commit: held again, against the same last good source.
  commitSameTree(r.dir);
  const again = await render(r);
  assert.is(again.problems[0]?.code, 'COMMIT_TOO_LARGE');
  assert.is(r.git('rev-parse', 'flotilla/rendered^{tree}'), goodTree);
  assert.is(commitTrailers(await readCommitInfo(await openRepo(r.dir), again.outputCommit!))['Last-Good-Source'], good);

  // The work tree never had it: this commit deletes the bomb, diffed from the last good source.
  r.commit({ 'templates/nginx.yaml': sample('nginx/deployment.yaml').replace('replicas: 2', 'replicas: 4') }, 'fixed');
  assert.is(r.git('ls-tree', 'HEAD', 'bomb'), '');
  const next = await render(r);
  assert.equal(next.problems, []);
  assert.is(next.full, false, 'diffed against the last good source, not the bomb');
  // Four replicas divided over the two members: two each, where the last good render gave one.
  assert.match(r.show('flotilla/rendered', NGINX_M1), /\n {2}replicas: 2\n/);
  assert.is(
    commitTrailers(await readCommitInfo(await openRepo(r.dir), next.outputCommit!))['Last-Good-Source'],
    undefined,
  );
});

test('a source commit naming a path longer than a checkout can write is held whole', async () => {
  const r = makeConfigRepo();
  repos.push(r);
  const good = r.commit(SOURCE, 'nginx');
  await render(r);
  const goodTree = r.git('rev-parse', 'flotilla/rendered^{tree}');
  // `deep/d/…/d`: 4,205 bytes in 2,100 folders, well within 20,000 entries (1,000 files): refused for its path alone.
  const deep = commitDeepFolder(r.dir, 2100);
  const held = await renderRevision(await openRepo(r.dir), deep, { outputRef: OUT, limits: { maxSourceFiles: 1000 } });
  assert.is(held.problems.length, 1);
  const [problem] = held.problems;
  assert.is(problem!.code, 'COMMIT_TOO_LARGE');
  assert.match(problem!.message, `source commit ${deep.slice(0, 12)} names a path of`);
  assert.match(problem!.message, 'over the 4096 a checkout can write');
  assert.match(problem!.message, `every cluster keeps what ${good.slice(0, 12)} rendered`);
  assert.match(problem!.fix, 'git revert');
  assert.is(r.git('rev-parse', 'flotilla/rendered^{tree}'), goodTree);
});

test.run();
