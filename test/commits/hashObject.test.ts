import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { crc32 } from '../../src/commits/crc32.ts';
import { hashObject } from '../../src/commits/hashObject.ts';
import { bytes, makeTempRepo } from './helpers/tempRepo.ts';

test('hashObject gives the same blob ids as git hash-object, including empty and binary content', () => {
  const temp = makeTempRepo();
  try {
    for (const content of [bytes(''), bytes('hello\n'), bytes('ünïcödé'), randomBytes(3000)]) {
      assert.is(hashObject('blob', content), temp.git(['hash-object', '--stdin'], { input: content }).trim());
    }
  } finally {
    temp.cleanup();
  }
});

test('crc32 matches the standard check value and zlib.crc32 on random data', () => {
  assert.is(crc32(bytes('123456789')), 0xcbf43926);
  assert.is(crc32(new Uint8Array(0)), 0);
  for (const size of [1, 17, 4096, 65537]) {
    const data = randomBytes(size);
    assert.is(crc32(data), zlib.crc32(data));
    // Chained over two halves, as buildPack does for header + body.
    assert.is(crc32(data.subarray(size >> 1), crc32(data.subarray(0, size >> 1))), zlib.crc32(data));
  }
});

test.run();
