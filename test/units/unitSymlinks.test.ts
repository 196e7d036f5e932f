import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { configureToolSearch } from '../../src/units/unitTools.ts';
import { makeConfigRepoWith, MEMBERS } from '../helpers/fleet.ts';
import { unitSuite } from '../helpers/unitSuite.ts';
import { helmGuestbook } from './unitFixtures.ts';

const { repos, original } = unitSuite(test);

test("a symbolic link in a chart's folder is left out of the render with a warning at it, on the run and from the cache", async () => {
  configureToolSearch(original);
  const r = makeConfigRepoWith(repos, { ...MEMBERS, ...helmGuestbook(1) }, 'chart');
  // A template committed as a link to a file elsewhere (here: outside the repository).
  mkdirSync(path.join(r.dir, 'helm-guestbook/templates'), { recursive: true });
  symlinkSync('/etc/hostname', path.join(r.dir, 'helm-guestbook/templates/host.yaml'));
  r.commit({}, 'link');
  for (const pass of ['run', 'cached']) {
    const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
    assert.equal(
      snapshot.model.problems.map((p) => [p.file, p.code, p.severity, p.message.split(':')[0]]),
      [
        [
          'helm-guestbook/templates/host.yaml',
          'SYMLINK_NOT_FOLLOWED',
          'warning',
          'helm-guestbook/templates/host.yaml is a symbolic link (to /etc/hostname) and is left out of the render',
        ],
      ],
      pass,
    );
    assert.equal(
      [...snapshot.model.templates.keys()].sort(),
      ['apps/v1/Deployment/default/helm-guestbook', 'v1/Service/default/helm-guestbook'],
      pass,
    );
  }
});

test.run();
