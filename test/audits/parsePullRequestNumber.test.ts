import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatGitDate } from '../../src/audits/formatGitDate.ts';
import { parsePullRequestNumber } from '../../src/audits/parsePullRequestNumber.ts';

test('GitHub merge commits, other merges naming #N, and squash subjects', () => {
  assert.is(parsePullRequestNumber('Merge pull request #123 from ada/x\n\nScale', true), 123);
  assert.is(parsePullRequestNumber("Merge branch 'x' (#45)", true), 45);
  assert.is(parsePullRequestNumber('Scale nginx (#9)\n\n* one', false), 9);
});

test('a plain commit mentioning an issue is not a PR', () => {
  assert.is(parsePullRequestNumber('Fix #12 by scaling', false), undefined);
  assert.is(parsePullRequestNumber("Merge branch 'x'", true), undefined);
});

test('dates keep the author zone', () => {
  assert.is(formatGitDate(1700000000, -330), '2023-11-15T03:43:20+05:30');
  assert.is(formatGitDate(1700000000, 480), '2023-11-14T14:13:20-08:00');
  assert.is(formatGitDate(1700000000, 0), '2023-11-14T22:13:20+00:00');
});

test.run();
