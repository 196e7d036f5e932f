import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseForgeOptions, readForgeToken } from '../../src/commands/parseForgeOptions.ts';

test('no --forge: no statuses; a stray --forge-* flag says what it needs', () => {
  assert.is(parseForgeOptions({}), undefined);
  assert.throws(() => parseForgeOptions({ 'forge-repo': 'a/b' }), /--forge-repo needs --forge github\|gitlab\|gitea/);
});

test('defaults per forge: API root and token variable', () => {
  assert.equal(parseForgeOptions({ forge: 'github', 'forge-repo': 'acme/fleet' }), {
    forge: 'github',
    apiUrl: 'https://api.github.com',
    repo: 'acme/fleet',
    tokenEnv: 'GITHUB_TOKEN',
  });
  assert.equal(
    parseForgeOptions({ forge: 'gitlab', 'forge-repo': 'group/sub/fleet', 'forge-token-env': 'CI_BOT_TOKEN' }),
    { forge: 'gitlab', apiUrl: 'https://gitlab.com/api/v4', repo: 'group/sub/fleet', tokenEnv: 'CI_BOT_TOKEN' },
  );
  assert.equal(
    parseForgeOptions({
      forge: 'gitea',
      'forge-url': 'https://git.example.com/api/v1/',
      'forge-repo': 'ops/fleet',
      'forge-target-url': 'https://x',
    }),
    {
      forge: 'gitea',
      apiUrl: 'https://git.example.com/api/v1',
      repo: 'ops/fleet',
      tokenEnv: 'GITEA_TOKEN',
      targetUrl: 'https://x',
    },
  );
  assert.is(parseForgeOptions({ forge: 'gitlab', 'forge-repo': '1234' })?.repo, '1234');
});

test('each mistake names the flag and the fix', () => {
  assert.throws(() => parseForgeOptions({ forge: 'bitbucket', 'forge-repo': 'a/b' }), /use github, gitlab or gitea/);
  assert.throws(() => parseForgeOptions({ forge: 'gitea', 'forge-repo': 'a/b' }), /needs --forge-url, the API root/);
  assert.throws(() => parseForgeOptions({ forge: 'github' }), /needs --forge-repo, e\.g\. owner\/name/);
  assert.throws(() => parseForgeOptions({ forge: 'github', 'forge-repo': 'just-a-name' }), /use owner\/name/);
  assert.throws(
    () =>
      parseForgeOptions({
        forge: 'github',
        'forge-repo': 'a/b',
        'forge-url': 'https://user:pw@ghe.example.com/api/v3',
      }),
    /must not carry credentials/,
  );
  assert.throws(
    () => parseForgeOptions({ forge: 'github', 'forge-repo': 'a/b', 'forge-token-env': 'ghp_abc-123.xyz' }),
    /name of an environment variable, not the token itself/,
  );
});

test('the token comes from the named variable; an empty one is a usage error naming it', () => {
  const config = parseForgeOptions({ forge: 'github', 'forge-repo': 'a/b', 'forge-token-env': 'BOT' })!;
  assert.is(readForgeToken(config, { BOT: ' t0k \n' }), 't0k');
  assert.throws(() => readForgeToken(config, {}), /environment variable BOT is empty; fix: export BOT=/);
});

test.run();
