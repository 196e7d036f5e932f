import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import type { RenderLimits } from '../../src/outputs/sourceLimits.ts';
import { makeConfigRepoWith, nginxSample, type ConfigRepo } from '../helpers/fleet.ts';

const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];

test.after(() => {
  for (const r of repos) r.cleanup();
});

async function renderWith(limits?: RenderLimits) {
  const r = makeConfigRepoWith(repos, nginxSample(), 'nginx');
  const repo = await openRepo(r.dir);
  const report = await renderRevision(repo, r.git('rev-parse', 'HEAD'), {
    outputRef: OUT,
    ...(limits ? { limits } : {}),
  });
  return { r, report, tooLarge: report.problems.filter((p) => p.code === 'COMMIT_TOO_LARGE') };
}

test('the operator lowers or raises the source files one render reads; the refusal names the setting', async () => {
  const files = (await renderWith()).r.ls('main').length;
  assert.ok(files > 3, `the sample has ${files} files`);
  const { tooLarge } = await renderWith({ maxSourceFiles: 2 });
  assert.is(tooLarge.length, 1, JSON.stringify(tooLarge));
  assert.match(tooLarge[0]!.message, `over the 2 one read takes`);
  assert.match(tooLarge[0]!.fix, 'raise --max-source-files (now 2)');
  assert.equal((await renderWith({ maxSourceFiles: files })).tooLarge, []);
});

test('the operator sets the bytes one render may write; a template past them is held and the refusal names the setting', async () => {
  const { tooLarge, report } = await renderWith({ maxOutputBytes: 500 });
  assert.is(tooLarge.length, 1, JSON.stringify(report.problems));
  assert.match(tooLarge[0]!.message, 'past the 500 bytes a commit may render');
  // What was left of them, in bytes where mebibytes would print 0.0.
  assert.match(tooLarge[0]!.message, / renders to more than the \d+ bytes left for \d+ cluster\(s\)/);
  assert.match(tooLarge[0]!.fix, 'raise --max-output-bytes (now 500)');
  const whole = await renderWith({ maxOutputBytes: 64 * 1024 });
  assert.equal(whole.tooLarge, []);
  assert.ok(whole.report.filesWritten > 0);
});

test('a sync renders each commit within the limits it is given', async () => {
  const r = makeConfigRepoWith(repos, nginxSample(), 'nginx');
  const result = await syncRepo(await openRepo(r.dir), {
    sourceRef: 'refs/heads/main',
    outputRef: OUT,
    limits: { maxOutputBytes: 500 },
  });
  assert.ok(result.reports[0]!.problems.some((p) => p.code === 'COMMIT_TOO_LARGE'));
});

test.run();
