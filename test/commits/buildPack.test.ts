import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { objectHeader, objectHeaderLength } from '../../src/commits/buildPack.ts';

test('a pack entry header is read back to its length, whatever the size it encodes', () => {
  for (const size of [0, 15, 16, 2047, 2048, 1_500_000, 2 ** 32 + 5]) {
    const head = objectHeader(2, size);
    // Followed by a zlib stream, whose first byte (0x78) has bit 7 clear, and more.
    const entry = Buffer.concat([head, Buffer.from([0x78, 0x01, 0xff, 0xff])]);
    assert.is(objectHeaderLength(entry), head.length, `size ${size}`);
  }
  assert.equal([...objectHeader(3, 0)], [0x30]);
  assert.equal([...objectHeader(2, 16)], [0xa0, 0x01]);
});

test.run();
