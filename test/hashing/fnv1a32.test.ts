import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fnv1a32 } from '../../src/hashing/fnv1a32.ts';

/** The definition: FNV-1a over the UTF-8 bytes. */
function byDefinition(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

test('FNV-1a 32 of ASCII text matches the published test vectors', () => {
  assert.is(fnv1a32(''), 0x811c9dc5);
  assert.is(fnv1a32('a'), 0xe40c292c);
  assert.is(fnv1a32('foobar'), 0xbf9cf968);
});

test('text with characters beyond ASCII hashes its UTF-8 bytes, wherever they start', () => {
  for (const text of ['é', 'apps/v1/Deployment/naïve/web', '名前', 'x😀y', '😀', 'ab\u0080', 'policy/ü/ß/€']) {
    assert.is(fnv1a32(text), byDefinition(text), text);
  }
});

test.run();
