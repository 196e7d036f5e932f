import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { findTreeEntries } from '../../src/commits/parseTree.ts';
import { compareTreeEntries, renderTree } from '../../src/commits/renderTree.ts';
import type { TreeEntry } from '../../src/commits/types.ts';

/** A tree body holding the entries in the order given (renderTree would sort them). */
function body(entries: readonly TreeEntry[]): Buffer {
  return Buffer.concat(
    entries.map((e) => Buffer.concat([Buffer.from(`${e.mode} ${e.name}\0`), Buffer.from(e.oid, 'hex')])),
  );
}

const oid = 'ab'.repeat(20);
const entry = (name: string, mode: string): TreeEntry => ({ name, mode, oid });
// Around git's corner cases: 'a.b' < 'a/' (folder a) < 'a0', a file a before 'a.b', UTF-8 past ASCII, old '040000'.
const POOL = [
  entry('a', '100644'),
  entry('a', '40000'),
  entry('a.b', '100644'),
  entry('a0', '40000'),
  entry('a-b', '040000'),
  entry('é', '100644'),
  entry('\u{1F680}', '40000'),
  entry('\uFF21', '100644'),
  entry('b', '120000'),
];

test("a tree body is in git's order exactly when each entry sorts after the one before it as compareTreeEntries sorts", () => {
  let seed = 11;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  let ordered = 0;
  for (let round = 0; round < 400; round++) {
    const picked: TreeEntry[] = [];
    for (let k = 1 + random(5); k > 0; k--) picked.push(POOL[random(POOL.length)]!);
    const sorted = picked.every((e, i) => i === 0 || compareTreeEntries(picked[i - 1]!, e) < 0);
    const found = findTreeEntries(body(picked), new Set(), true);
    assert.is(found.inOrder, sorted, JSON.stringify(picked.map((e) => `${e.mode} ${e.name}`)));
    if (sorted) ordered++;
  }
  assert.ok(ordered > 20, `${ordered} sorted samples`);
  const all = POOL.filter((e, i) => POOL.findIndex((o) => o.name === e.name) === i);
  assert.ok(findTreeEntries(renderTree(all), new Set(), true).inOrder, 'what renderTree writes');
});

test.run();
