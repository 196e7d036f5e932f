import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { acceptsGzip } from '../../src/dashboard/acceptsGzip.ts';

test('gzip is taken when named or covered by * with a weight above zero, as RFC 9110 reads Accept-Encoding', () => {
  assert.ok(acceptsGzip('gzip, deflate, br, zstd'));
  assert.ok(acceptsGzip('br;q=1.0, GZIP;q=0.5'));
  assert.ok(acceptsGzip('*'));
  assert.ok(acceptsGzip('x-gzip'));
  assert.not.ok(acceptsGzip(undefined));
  assert.not.ok(acceptsGzip(''));
  assert.not.ok(acceptsGzip('identity'));
  assert.not.ok(acceptsGzip('gzip;q=0'));
  assert.not.ok(acceptsGzip('*, gzip;q=0'));
  assert.not.ok(acceptsGzip('deflate, br'));
});

test.run();
