// A chart's or a kustomization's files come from a pull request: a blob of gigabytes compresses to kilobytes, and a
// render that inflated it (to write it out for the tool, or to read a kustomization) took the reconciler's memory,
// or threw past the longest string the runtime makes and stopped every later commit.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { configureToolSearch } from '../../src/units/unitTools.ts';
import { configMap, makeConfigRepoWith, MEMBERS } from '../helpers/fleet.ts';
import { unitSuite } from '../helpers/unitSuite.ts';
import { helmGuestbook, KUSTOMIZE_GUESTBOOK } from './unitFixtures.ts';

const { repos, original } = unitSuite(test);

test("a unit's file over 16 MiB holds that unit at the file, read from its object header; the rest of the commit renders", async () => {
  configureToolSearch(original);
  const r = makeConfigRepoWith(
    repos,
    { ...MEMBERS, ...KUSTOMIZE_GUESTBOOK, ...helmGuestbook(1), 'templates/plain.yaml': configMap('plain') },
    'units',
  );
  const zeros = Buffer.alloc(40 * 1024 * 1024);
  r.commit({ 'helm-guestbook/files/zeros.bin': zeros, 'kustomize-guestbook/kustomization.yaml': zeros }, 'zeros');
  const before = process.memoryUsage();
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  const after = process.memoryUsage();
  assert.equal(
    snapshot.model.problems.map((p) => [p.file, p.code, p.message.split(':')[0]]),
    [
      [
        'helm-guestbook/files/zeros.bin',
        'FILE_TOO_LARGE',
        'file is 40 MiB, over the 16 MiB a file of a Helm or Kustomize unit may hold',
      ],
      [
        'kustomize-guestbook/kustomization.yaml',
        'FILE_TOO_LARGE',
        'file is 40 MiB, over the 16 MiB a file of a Helm or Kustomize unit may hold',
      ],
    ],
  );
  assert.equal([...snapshot.model.templates.keys()], ['v1/ConfigMap/default/plain']);
  // Neither 40 MiB blob was inflated.
  assert.ok(after.arrayBuffers - before.arrayBuffers < 20 * 1024 * 1024, `${after.arrayBuffers - before.arrayBuffers}`);
});

test.run();
