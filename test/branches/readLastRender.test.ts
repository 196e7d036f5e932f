import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readLastRender } from '../../src/branches/rendered/readLastRender.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { commitAll, makeTempRepo, writeWorkTree } from '../commits/helpers/tempRepo.ts';

const SOURCE = 'a'.repeat(40);

test('the last render is read from commits in format 1, with or without the Flotilla-Format trailer', async () => {
  const repo = makeTempRepo();
  try {
    writeWorkTree(repo, { 'clusters/m1/default/configmap_a.yaml': 'kind: ConfigMap\n' });
    const old = commitAll(repo, `Render aaaaaaaaaaaa: before the trailer\n\nSource-Commit: ${SOURCE}`);
    const git = await openRepo(repo.path);
    assert.is((await readLastRender(git, 'refs/heads/main')).rendered?.oid, old);
    const current = commitAll(repo, `Render aaaaaaaaaaaa: now\n\nSource-Commit: ${SOURCE}\nFlotilla-Format: 1`);
    assert.is((await readLastRender(await openRepo(repo.path), 'refs/heads/main')).rendered?.oid, current);
  } finally {
    repo.cleanup();
  }
});

test('a rendered commit in a newer format stops the reader with the fix', async () => {
  const repo = makeTempRepo();
  try {
    writeWorkTree(repo, { 'clusters/m1/default/configmap_a.yaml': 'kind: ConfigMap\n' });
    const newer = commitAll(
      repo,
      `Render aaaaaaaaaaaa: from the future\n\nSource-Commit: ${SOURCE}\nFlotilla-Format: 2`,
    );
    const err = await readLastRender(await openRepo(repo.path), 'refs/heads/main').then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(err, 'a newer format is refused');
    assert.match(
      err.message,
      `rendered commit ${newer.slice(0, 12)} has Flotilla-Format 2; this Flotilla writes and reads format 1`,
    );
    assert.match(err.message, 'fix: run the Flotilla that wrote it, or a newer one');
  } finally {
    repo.cleanup();
  }
});

test.run();
