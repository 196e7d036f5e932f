import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { diffLines } from '../../src/plans/diffLines.ts';

const chars = (s: string) => (s === '' ? [] : s.split(''));
const script = (a: string, b: string) =>
  diffLines(chars(a), chars(b))
    .map((e) => `${e.op}${e.line}`)
    .join(' ');

test('the classic Myers example gives an edit script of length 5', () => {
  const edits = diffLines(chars('abcabba'), chars('cbabac'));
  assert.is(edits.filter((e) => e.op !== ' ').length, 5);
});

test('equal inputs keep every line', () => {
  assert.is(script('abc', 'abc'), ' a  b  c');
});

test('an empty side is all inserts or all deletes', () => {
  assert.is(script('', 'ab'), '+a +b');
  assert.is(script('ab', ''), '-a -b');
});

test('a change in the middle keeps the common head and tail', () => {
  assert.is(script('axc', 'ayc'), ' a -x +y  c');
});

test('every script rebuilds both sides, and is no longer than the LCS allows (random inputs)', () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 300; round++) {
    const a = Array.from({ length: Math.floor(rand() * 12) }, () => 'abc'[Math.floor(rand() * 3)]!);
    const b = Array.from({ length: Math.floor(rand() * 12) }, () => 'abc'[Math.floor(rand() * 3)]!);
    const edits = diffLines(a, b);
    assert.equal(
      edits.filter((e) => e.op !== '+').map((e) => e.line),
      a,
    );
    assert.equal(
      edits.filter((e) => e.op !== '-').map((e) => e.line),
      b,
    );
    // LCS by dynamic programming: the oracle for minimality.
    const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
    for (let i = a.length - 1; i >= 0; i--)
      for (let j = b.length - 1; j >= 0; j--)
        dp[i]![j] = a[i] === b[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
    assert.is(edits.filter((e) => e.op === ' ').length, dp[0]![0]);
  }
});

test('past maxEdits it replaces everything instead of tracing a huge path', () => {
  const a = Array.from({ length: 50 }, (_, i) => `a${i}`);
  const b = Array.from({ length: 50 }, (_, i) => `b${i}`);
  const edits = diffLines(a, b, 10);
  assert.is(edits.length, 100);
  assert.ok(edits.slice(0, 50).every((e) => e.op === '-'));
});

test.run();
