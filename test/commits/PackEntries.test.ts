import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PackEntries } from '../../src/commits/PackEntries.ts';

const oidOf = (text: string) => createHash('sha1').update(text).digest();

test('entries are found by id across growth, and a missing id is not', () => {
  const entries = new PackEntries();
  const ids = Array.from({ length: 5000 }, (_, i) => oidOf(`object ${i}`));
  ids.forEach((id, i) => assert.is(entries.add(id, 3), i));
  assert.is(entries.count, 5000);
  ids.forEach((id, i) => assert.is(entries.find(id), i));
  assert.is(entries.find(oidOf('never added')), -1);
  assert.is(entries.hexAt(1234), ids[1234]!.toString('hex'));
});

test('ids that share their first byte (one table of the 256) are found after it grows many times', () => {
  const entries = new PackEntries();
  const ids = Array.from({ length: 3000 }, (_, i) => {
    const id = oidOf(`same first byte ${i}`);
    id[0] = 0x42;
    return id;
  });
  ids.forEach((id) => entries.add(id, 3));
  ids.forEach((id, i) => assert.is(entries.find(id), i));
  const other = oidOf('same first byte 7');
  other[0] = 0x43;
  assert.is(entries.find(other), -1);
});

test('the written entries come in id order, also where ids share their first bytes; skipped ones are left out', async () => {
  const entries = new PackEntries();
  const ids: Buffer[] = [];
  for (let i = 0; i < 3000; i++) ids.push(oidOf(`object ${i}`));
  // Ids that agree on their first 3 bytes (the sort key) and differ after.
  for (let i = 0; i < 20; i++) {
    const id = Buffer.alloc(20, 0xab);
    id[19] = 20 - i;
    id[3] = i % 3;
    ids.push(id);
  }
  ids.forEach((id, i) => {
    entries.add(id, 3);
    if (i % 10 === 7) entries.setSkipped(i);
    else entries.setWritten(i, 12 + i, i, 100);
  });
  const order = [...(await entries.writtenInOidOrder())];
  const expected = ids
    .map((id, i) => ({ id, i }))
    .filter(({ i }) => i % 10 !== 7)
    .sort((a, b) => Buffer.compare(a.id, b.id))
    .map(({ i }) => i);
  assert.equal(order, expected);
  assert.is(entries.offsetAt(order[0]!), 12 + order[0]!);
});

test.run();
