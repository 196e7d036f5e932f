import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
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

test.run();
