import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRenderLimits } from '../../src/commands/renderLimitFlags.ts';
import { UsageError } from '../../src/errors/UsageError.ts';
import { makeConfigRepoWith, nginxSample, type ConfigRepo } from '../helpers/fleet.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const flotilla = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const refusal = (values: Parameters<typeof parseRenderLimits>[0]): string => {
  try {
    parseRenderLimits(values);
  } catch (err) {
    assert.instance(err, UsageError);
    return (err as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(values)}`);
};

test('without the flags the limits stay unset, so the defaults apply', () => {
  assert.equal(parseRenderLimits({}), {});
});

test('--max-source-files takes a whole number of files', () => {
  assert.equal(parseRenderLimits({ 'max-source-files': '200000' }), { maxSourceFiles: 200_000 });
});

test('--max-output-bytes takes bytes as a Kubernetes quantity: binary and decimal suffixes, or a plain count', () => {
  assert.equal(parseRenderLimits({ 'max-output-bytes': '8Gi' }), { maxOutputBytes: 8 * 1024 ** 3 });
  assert.equal(parseRenderLimits({ 'max-output-bytes': '500M' }), { maxOutputBytes: 500_000_000 });
  assert.equal(parseRenderLimits({ 'max-output-bytes': '1073741824' }), { maxOutputBytes: 1024 ** 3 });
});

test('a value that is no count, zero, negative or a fraction is a usage error naming the flag and an example', () => {
  for (const files of ['0', '-5', '1.5', '10k', 'many', ''])
    assert.match(
      refusal({ 'max-source-files': files }),
      /^--max-source-files .*: use a whole number of at least 1, e\.g\. 200000$/,
    );
  for (const bytes of ['0', '-1Gi', '0.5', '100m', 'lots', '1e400'])
    assert.match(
      refusal({ 'max-output-bytes': bytes }),
      /^--max-output-bytes .*: use a whole number of bytes .* e\.g\. 8Gi/,
    );
});

test('flotilla render takes both flags: a commit past them exits 1 naming the flag, a bad value exits 2', () => {
  const r = makeConfigRepoWith(repos, nginxSample(), 'nginx');
  const refused = flotilla('render', '--repo', r.dir, '--max-source-files', '2');
  assert.is(refused.status, 1, refused.stderr);
  assert.match(refused.stderr, /COMMIT_TOO_LARGE[\s\S]*raise --max-source-files \(now 2\)/);
  const usage = flotilla('sync', '--repo', r.dir, '--max-output-bytes', '1.5');
  assert.is(usage.status, 2);
  assert.match(usage.stderr, /^flotilla: --max-output-bytes 1\.5: use a whole number of bytes/);
  const fresh = makeConfigRepoWith(repos, nginxSample(), 'nginx');
  const raised = flotilla('sync', '--repo', fresh.dir, '--max-source-files', '100', '--max-output-bytes', '1Gi');
  assert.is(raised.status, 0, raised.stderr);
  assert.match(raised.stdout, /rendered 1 commit\(s\)/);
  assert.match(flotilla('run', '--help').stdout, '--max-output-bytes 512Mi');
});

test.run();
