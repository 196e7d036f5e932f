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

test("a chart's Chart.yaml or a kustomization that is a symbolic link refuses its unit, naming the link and its target", async () => {
  configureToolSearch(original);
  const r = makeConfigRepoWith(
    repos,
    { ...MEMBERS, 'real/Chart.yaml': 'apiVersion: v2\nname: real\nversion: 0.1.0\n' },
    'a chart',
  );
  // A chart folder holding nothing but the link, and a kustomization that is a link out of the repository.
  mkdirSync(path.join(r.dir, 'linked-chart'));
  symlinkSync('../real/Chart.yaml', path.join(r.dir, 'linked-chart/Chart.yaml'));
  mkdirSync(path.join(r.dir, 'linked-kustomization'));
  symlinkSync('/etc/passwd', path.join(r.dir, 'linked-kustomization/kustomization.yaml'));
  r.commit({}, 'links');
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(
    snapshot.model.problems.map((p) => [p.file, p.line, p.code, p.severity, p.message]),
    [
      [
        'linked-chart/Chart.yaml',
        1,
        'SYMLINK_NOT_FOLLOWED',
        'error',
        "linked-chart/Chart.yaml is a symbolic link (to ../real/Chart.yaml), which a render does not follow: the chart is read from the files the commit holds, and a link's content is the path it points to",
      ],
      [
        'linked-kustomization/kustomization.yaml',
        1,
        'SYMLINK_NOT_FOLLOWED',
        'error',
        "linked-kustomization/kustomization.yaml is a symbolic link (to /etc/passwd), which a render does not follow: the kustomization is read from the files the commit holds, and a link's content is the path it points to",
      ],
    ],
  );
  assert.match(
    snapshot.model.problems[0]!.fix,
    'commit the file itself in place of the link (`cp --remove-destination "$(readlink -f linked-chart/Chart.yaml)" linked-chart/Chart.yaml`)',
  );
});

test.run();
