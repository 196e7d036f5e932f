import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRemoteUrl, redactUrl, redactUrlsIn } from '../../src/commits/remoteUrl.ts';

test('a URL with credentials splits into the address and an auth callback holding them', async () => {
  const r = parseRemoteUrl('https://bot:s3cr%40t@git.example.com/fleet.git');
  assert.is(r.url, 'https://git.example.com/fleet.git');
  assert.is(r.shown, 'https://***@git.example.com/fleet.git');
  assert.equal(await r.onAuth!('https://git.example.com/fleet.git', {}), { username: 'bot', password: 's3cr@t' });
  const token = parseRemoteUrl('https://ghp_abc@git.example.com/fleet.git');
  assert.equal(await token.onAuth!('', {}), { username: 'ghp_abc', password: '' });
});

test('a URL without credentials is left as it is, with no auth callback', () => {
  const r = parseRemoteUrl('http://127.0.0.1:8080/repo.git');
  assert.equal(
    { url: r.url, shown: r.shown, onAuth: r.onAuth },
    { url: 'http://127.0.0.1:8080/repo.git', shown: 'http://127.0.0.1:8080/repo.git', onAuth: undefined },
  );
  assert.is(redactUrl('not a url'), 'not a url');
});

test('every URL in a message loses its userinfo, whatever the scheme, and text without one is unchanged', () => {
  assert.is(
    redactUrlsIn('fetching main from https://u:tok@h/x.git failed; retry http://t0k3n@h2:80/y (see ssh://git:pw@h3/z)'),
    'fetching main from https://***@h/x.git failed; retry http://***@h2:80/y (see ssh://***@h3/z)',
  );
  assert.is(redactUrlsIn('mail ada@example.com about https://h/x.git'), 'mail ada@example.com about https://h/x.git');
  assert.is(redactUrl('https://u:p@h/x'), 'https://***@h/x');
});

test.run();
