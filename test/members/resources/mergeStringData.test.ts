import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeStringData } from '../../../src/members/resources/mergeStringData.ts';
import { defaultObject } from '../../../src/members/resources/defaultObject.ts';
import type { KubeObject } from '../../../src/members/types.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');

test('stringData entries land in data as base64, win over data, and stringData is gone', () => {
  const secret: KubeObject = {
    metadata: { name: 's' },
    data: { keep: b64('kept'), both: b64('from data') },
    stringData: { both: 'from stringData', ü: 'ünïcode' },
  };
  mergeStringData(secret);
  assert.equal(secret, {
    metadata: { name: 's' },
    data: { keep: b64('kept'), both: b64('from stringData'), ü: b64('ünïcode') },
  });
});

test('an empty or null stringData is dropped and leaves data alone', () => {
  for (const stringData of [{}, null]) {
    const secret: KubeObject = { metadata: {}, stringData };
    mergeStringData(secret);
    assert.equal(secret, { metadata: {} });
  }
});

test('a Secret with no type, or an empty one, defaults to Opaque', () => {
  for (const type of [undefined, '']) {
    const secret: KubeObject = { metadata: {}, ...(type !== undefined ? { type } : {}) };
    defaultObject('Secret', secret, () => '');
    assert.is(secret.type, 'Opaque');
  }
});

test.run();
