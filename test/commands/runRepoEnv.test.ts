import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runRefusal } from '../helpers/runOptions.ts';

test('--repo-env takes the repo from a variable, so a URL with a token is not in the arguments', async () => {
  const message = await runRefusal({
    repo: undefined,
    repoEnv: { name: 'FLEET_URL', value: 'ssh://bot:s3cret@example.com/fleet.git' },
  });
  // The variable's value is what run goes on to use: here a URL it refuses, named as a --repo is, credential hidden.
  assert.match(message, 'example.com/fleet.git: only local paths and http(s) URLs are supported');
  assert.not.match(message, 's3cret');
});

test('--repo-env refuses an unset variable and a --repo beside it, each with the fix', async () => {
  assert.match(
    await runRefusal({ repo: undefined, repoEnv: { name: 'FLEET_URL', value: undefined } }),
    '--repo-env FLEET_URL: that variable is unset or empty; fix: export FLEET_URL=https://USER:TOKEN@host/org/fleet.git',
  );
  assert.match(
    await runRefusal({ repo: '/srv/fleet', repoEnv: { name: 'FLEET_URL', value: '/srv/fleet' } }),
    '--repo and --repo-env FLEET_URL both name the repo; fix: keep one',
  );
});

test.run();
