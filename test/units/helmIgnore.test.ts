import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { helmIgnoreRules } from '../../src/units/helmIgnore.ts';

test('.helmignore patterns match as helm packs a chart: names, anchored paths, folders only, in order', () => {
  const ignored = helmIgnoreRules('# comment\n*.bak\n/docs\nci/\ntemplates/tests/*.yaml\nfile[0-9].txt\n');
  const cases: [string, boolean, boolean][] = [
    ['a.bak', false, true],
    ['templates/deep/b.bak', false, true],
    ['docs', true, true],
    ['templates/docs', true, false],
    ['ci', true, true],
    ['ci', false, false],
    ['templates/tests/t.yaml', false, true],
    ['templates/tests/sub/t.yaml', false, false],
    ['file1.txt', false, true],
    ['filex.txt', false, false],
    ['templates/.hidden', false, true],
    ['templates/deployment.yaml', false, false],
    ['', true, false],
  ];
  assert.equal(
    cases.map(([p, dir]) => [p, dir, ignored(p, dir)]),
    cases,
  );
});

test("a '!' line keeps only what it names, as helm's own rules do (unlike git's)", () => {
  const ignored = helmIgnoreRules('!*.yaml\n');
  assert.ok(ignored('README.md', false));
  assert.ok(ignored('templates', true));
  assert.not.ok(ignored('Chart.yaml', false));
});

test.run();
