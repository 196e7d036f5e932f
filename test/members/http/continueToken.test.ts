import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../../src/members/ApiError.ts';
import { decodeContinue, encodeContinue } from '../../../src/members/http/continueToken.ts';

test("a continue token carries the resourceVersion and start key in the API server's shape", () => {
  const token = encodeContinue({ resourceVersion: 1042, startKey: 'default/web-2' });
  assert.not.match(token, /[=+/]/);
  assert.equal(JSON.parse(Buffer.from(token, 'base64url').toString()), {
    v: 'meta.k8s.io/v1',
    rv: 1042,
    start: 'default/web-2',
  });
  assert.equal(decodeContinue(token), { resourceVersion: 1042, startKey: 'default/web-2' });
});

test('a token the server did not make is a 400 invalid continue token, never a 500', () => {
  const cases: [string, string][] = [
    ['not a token!', 'invalid continue token: continue key is not valid: illegal base64 data at input byte 3'],
    [
      Buffer.from('{"offset":2}').toString('base64url'),
      'invalid continue token: continue key is not valid: server does not recognize this encoded version ',
    ],
    [
      Buffer.from('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}').toString('base64url'),
      'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    ],
    [
      Buffer.from('{"v":"meta.k8s.io/v1","rv":3,"start":""}').toString('base64url'),
      'invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)',
    ],
  ];
  for (const [token, message] of cases) {
    try {
      decodeContinue(token);
      assert.unreachable(token);
    } catch (error) {
      assert.instance(error, ApiError);
      assert.is((error as ApiError).code, 400);
      assert.is((error as ApiError).message, message);
    }
  }
  assert.throws(
    () => decodeContinue(Buffer.from('{').toString('base64url')),
    (e: ApiError) => e.code === 400 && e.message.startsWith('invalid continue token: continue key is not valid: '),
  );
});

test.run();
