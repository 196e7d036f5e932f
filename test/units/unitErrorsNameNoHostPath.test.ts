// A unit's error goes to the rendered branch, commit statuses and the dashboard: it names files by their path in the
// repository, never the host's temporary folder, also where that folder is reached through a symlink (macOS's
// /var/folders is /private/var/folders), which kustomize resolves before it prints a path.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { resolveRev } from '../../src/commits/resolveRev.ts';
import { readUnitLayout } from '../../src/units/readUnitLayout.ts';
import { renderUnit } from '../../src/units/renderUnit.ts';
import { makeConfigRepoWith, type ConfigRepo } from '../helpers/fleet.ts';

const repos: ConfigRepo[] = [];
const scratch = mkdtempSync(path.join(tmpdir(), 'flotilla-linked-tmp-'));
const real = path.join(scratch, 'real-temporary-folder');
const linked = path.join(scratch, 'linked');
mkdirSync(real);
symlinkSync(real, linked);
const savedTmp = process.env.TMPDIR;
test.after(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  for (const r of repos) r.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

test('a kustomize error names the unit’s files by their repository path when the temporary folder is a symlink', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      // A folder of the commit that holds no kustomization: kustomize fails naming it by its full path.
      'apps/web/kustomization.yaml': 'resources: [sub]\n',
      'apps/web/sub/notes.txt': 'not a kustomization\n',
    },
    'a base without a kustomization',
  );
  const repo = await openRepo(r.dir);
  const tree = (await readCommitInfo(repo, await resolveRev(repo, 'HEAD'))).tree;
  const unit = (await readUnitLayout(repo, tree, undefined, {})).units.find((u) => u.dir === 'apps/web')!;
  process.env.TMPDIR = linked;
  let out: Awaited<ReturnType<typeof renderUnit>>;
  try {
    out = await renderUnit(repo, tree, unit);
  } finally {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
  }
  assert.ok(out.unreadable);
  const text = JSON.stringify(out.problems);
  assert.ok(text.includes('apps/web/sub'), text);
  assert.not.ok(text.includes(scratch), text);
  assert.not.ok(text.includes('flotilla-unit-'), text);
});

test.run();
