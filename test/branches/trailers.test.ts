import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  commitTrailers,
  lastParagraph,
  parseTrailers,
  recordedLimits,
  renderLimitsTrailer,
} from '../../src/branches/rendered/trailers.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { commitAll, makeTempRepo } from '../commits/helpers/tempRepo.ts';

test('the last paragraph is found from the end as splitting at every blank line finds it', () => {
  // Every short string of newlines, whitespace (Unicode's too) and text, as generated from a fixed seed.
  const chars = ['a', ' ', '\n', '\t', '\r', '\u00a0', 'K', ':', '\u2028'];
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < 50_000; i++) {
    let text = '';
    for (let n = next() % 12; n > 0; n--) text += chars[next() % chars.length];
    text = text.trimEnd();
    const paragraphs = text.split(/\n\s*\n/);
    assert.is(lastParagraph(text), paragraphs[paragraphs.length - 1], JSON.stringify(text));
  }
});

test('render limits are written as the flags name them and read back; a part that is not one of them is left out', () => {
  assert.is(renderLimitsTrailer(undefined), undefined);
  assert.is(renderLimitsTrailer({}), undefined, 'the defaults: no trailer');
  const both = renderLimitsTrailer({ maxSourceFiles: 200_000, maxOutputBytes: 64 * 1024 ** 3 });
  assert.is(both, 'max-source-files=200000, max-output-bytes=68719476736');
  assert.equal(recordedLimits({ 'Render-Limits': both }), { maxSourceFiles: 200_000, maxOutputBytes: 68719476736 });
  assert.equal(recordedLimits({ 'Render-Limits': 'max-output-bytes=2000' }), { maxOutputBytes: 2000 });
  assert.is(recordedLimits({}), undefined);
  assert.equal(
    recordedLimits({
      'Render-Limits': 'max-source-files=-1, max-output-bytes=8Gi, max-objects=5, max-source-files, max-output-bytes=0',
    }),
    {},
  );
  assert.equal(recordedLimits({ 'Render-Limits': 'max-source-files=99999999999999999999' }), {});
});

test("a cold render's message listing thousands of files keeps its trailers", () => {
  const files = Array.from({ length: 20_000 }, (_, i) => `  + team-${i}/deployment.apps_app-${i}.yaml`).join('\n');
  const message = `Render c7007cccfe8b: fleet\n\nmember-001: 20000 added\n${files}\n\nSource-Commit: c7007cccfe8bad53214cbc201b6f0a3631ff32a5\nFlotilla-Format: 1\n`;
  assert.equal(parseTrailers(message), {
    'Source-Commit': 'c7007cccfe8bad53214cbc201b6f0a3631ff32a5',
    'Flotilla-Format': '1',
  });
  assert.equal(parseTrailers('subject only'), {});
  assert.equal(parseTrailers('subject\n\nKey: value\n  \n\t\nOther: one\n'), { Other: 'one' });
});

test("a commit's trailers are those of its whole message, whether its last paragraph is short or longer than the tail read", async () => {
  const temp = makeTempRepo();
  try {
    // A cold render's message: a long list with non-ASCII ellipses, then the trailers.
    const list = Array.from(
      { length: 2_000 },
      (_, i) => `  + team-${i}/deployment.apps_app-${i}.yaml\n  + … and ${i} more`,
    ).join('\n');
    const messages = [
      `Render abc: fleet\n\n${list}\n\nSource-Commit: ${'a'.repeat(40)}\nFlotilla-Format: 1\n`,
      // One paragraph of 40 KiB: its first line's trailer lies before any tail.
      `Render abc: fleet\n\nSource-Commit: ${'b'.repeat(40)}\n${list}\nFlotilla-Format: 1\n`,
      // The break right before the tail would begin.
      `Render abc\n\n${'x'.repeat(8_000)}\n\nKey: v\n`,
      'Render abc\n\nKey: short\n',
    ];
    const repo = await openRepo(temp.path);
    for (const message of messages) {
      const oid = commitAll(temp, message);
      const info = await readCommitInfo(repo, oid);
      assert.equal(commitTrailers(info), parseTrailers(message));
      assert.equal(commitTrailers(info), parseTrailers(info.message));
    }
  } finally {
    temp.cleanup();
  }
});

test.run();
