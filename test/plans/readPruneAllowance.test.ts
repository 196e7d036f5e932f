import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readPruneAllowance } from '../../src/plans/readPruneAllowance.ts';
import { makeConfigRepo, type ConfigRepo } from '../helpers/configRepo.ts';

let config: ConfigRepo;
const shas: Record<string, string> = {};

test.before(() => {
  config = makeConfigRepo();
  shas.s1 = config.commit({ 'a.txt': '1' }, 'first');
  shas.s2 = config.commit({ 'a.txt': '2' }, 'retire x\n\nFlotilla-Allow-Prune: retiring x');
  shas.s3 = config.commit({ 'a.txt': '3' }, 'later');
});
test.after(() => config.cleanup());

test('a trailer on any commit after the last applied one counts, the newest first', async () => {
  const repo = await openRepo(config.dir);
  assert.equal(await readPruneAllowance(repo, shas.s3, shas.s1), { reason: 'retiring x', commit: shas.s2 });
  assert.equal(await readPruneAllowance(repo, shas.s2, shas.s1), { reason: 'retiring x', commit: shas.s2 });
});

test('a trailer on the commit already applied is used up: the next deletion needs its own', async () => {
  const repo = await openRepo(config.dir);
  assert.is(await readPruneAllowance(repo, shas.s3, shas.s2), undefined);
  assert.is(await readPruneAllowance(repo, shas.s3, shas.s3), undefined);
});

test('with no known start, or a start not in the history, only the head commit counts (fail closed)', async () => {
  const repo = await openRepo(config.dir);
  assert.is(await readPruneAllowance(repo, shas.s3, undefined), undefined);
  assert.equal(await readPruneAllowance(repo, shas.s2, undefined), { reason: 'retiring x', commit: shas.s2 });
  assert.is(await readPruneAllowance(repo, shas.s3, 'e'.repeat(40)), undefined, 'a rewritten history does not reach back to old trailers');
});

test('an unknown head allows nothing', async () => {
  const repo = await openRepo(config.dir);
  assert.is(await readPruneAllowance(repo, 'd'.repeat(40), shas.s1), undefined);
  assert.is(await readPruneAllowance(repo, undefined, shas.s1), undefined);
});

test.run();
