import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateCommand } from '../../src/commands/validateCommand.ts';
import { makeConfigRepo, sample } from '../helpers/fleet.ts';
import { commitTreeBomb } from '../helpers/treeBomb.ts';

test('validate names a commit whose tree is too large to walk at its root, with the fix, and fails', async () => {
  const r = makeConfigRepo();
  try {
    r.commit({ 'templates/nginx.yaml': sample('nginx/deployment.yaml') });
    const bomb = commitTreeBomb(r.dir);
    const run = async (output: 'text' | 'json') => {
      let out = '';
      const started = performance.now();
      const code = await validateCommand({
        repo: r.dir,
        rev: 'HEAD',
        sourceRef: 'refs/heads/main',
        outputRef: 'refs/heads/flotilla/rendered',
        clusterStatusFile: undefined,
        output,
        out: (s) => {
          out += s;
        },
        err: () => {},
        limits: { maxSourceFiles: 100 },
      });
      assert.ok(performance.now() - started < 1000, 'refused before the walk got far');
      return { code, out };
    };
    const text = await run('text');
    assert.is(text.code, 1);
    assert.match(text.out, /^\.:1:1  error  COMMIT_TOO_LARGE  /);
    assert.match(text.out, `source commit ${bomb.slice(0, 12)} names over 2000 files and folders`);
    assert.match(text.out, 'git revert');
    assert.match(text.out, `${bomb.slice(0, 12)} (main): a tree too large to read; 1 errors, 0 warnings`);
    const json = await run('json');
    assert.is(json.code, 1);
    const body = JSON.parse(json.out);
    assert.is(body.commit, bomb);
    assert.is(body.errors, 1);
    assert.is(body.problems[0].code, 'COMMIT_TOO_LARGE');
    assert.is(body.problems[0].file, '.');
    assert.match(body.problems[0].fix, '--max-source-files (now 100');
  } finally {
    r.cleanup();
  }
});

test.run();
