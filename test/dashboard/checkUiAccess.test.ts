import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hasUiToken, isLoopbackHost } from '../../src/dashboard/checkUiAccess.ts';
import { contentSecurityPolicy } from '../../src/dashboard/contentSecurityPolicy.ts';

test('loopback addresses need no token; anything another machine can reach does', () => {
  for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost']) assert.ok(isLoopbackHost(h), h);
  for (const h of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'example.com', '128.0.0.1'])
    assert.not.ok(isLoopbackHost(h), h);
});

test('the token is accepted as a bearer header, the cookie or ?token=, and nothing else', () => {
  const token = 'a-long-random-token';
  assert.ok(hasUiToken(undefined, {}));
  assert.ok(hasUiToken(token, { authorization: `Bearer ${token}` }));
  assert.ok(hasUiToken(token, { cookie: `other=1; flotilla_ui=${token}` }));
  assert.ok(hasUiToken(token, { query: token }));
  assert.not.ok(hasUiToken(token, {}));
  assert.not.ok(hasUiToken(token, { authorization: 'Bearer wrong', cookie: 'flotilla_ui=', query: '' }));
  assert.not.ok(hasUiToken(token, { authorization: token }), 'a bare header is not a bearer token');
  assert.not.ok(hasUiToken(token, { cookie: `flotilla_uix=${token}` }));
});

test('the page policy allows scripts from Flotilla and the import map by its hash only', () => {
  const map = '{"imports":{"preact":"/ui/vendor/preact.mjs"}}';
  const csp = contentSecurityPolicy(
    `<head><script type="importmap">${map}</script><script type="module" src="/ui/app.js"></script>`,
  );
  const hash = createHash('sha256').update(map).digest('base64');
  assert.match(csp, `script-src 'self' 'sha256-${hash}'`);
  assert.match(csp, "default-src 'none'");
  assert.match(csp, "frame-ancestors 'none'");
  assert.not.match(csp, 'unsafe-inline');
  assert.not.match(csp, 'unsafe-eval');
});

test.run();
