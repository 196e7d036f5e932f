import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import {
  configureToolSearch,
  describeToolReport,
  findToolReport,
  PINNED_TOOLS_DIR,
} from '../../src/units/unitTools.ts';
import { makeConfigRepoWith, MEMBERS } from '../helpers/fleet.ts';
import { unitSuite } from '../helpers/unitSuite.ts';
import { validateText } from '../helpers/validateText.ts';
import { helmGuestbook } from './unitFixtures.ts';

const { repos, original } = unitSuite(test);
const scratch = mkdtempSync(path.join(tmpdir(), 'flotilla-tool-search-'));
test.after(() => rmSync(scratch, { recursive: true, force: true }));

/** A folder on PATH holding a `helm` script. */
function pathWith(name: string, script: string): string {
  const dir = path.join(scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'helm'), `#!/bin/sh\n${script}\n`);
  chmodSync(path.join(dir, 'helm'), 0o755);
  return dir;
}

test('validate names the binary that renders units and where it was found', async () => {
  configureToolSearch({ ...original, searchPath: '' });
  const r = makeConfigRepoWith(repos, { ...MEMBERS, ...helmGuestbook(1) }, 'chart');
  assert.match((await validateText(r.dir)).text, /\nunits render with helm v3\.17\.2 \(\.tools\/helm, pinned\)\n/);
});

test('on a platform without pinned binaries, helm comes from PATH and validate says so; a PATH helm that is not Helm 3 is named in TOOL_MISSING', async () => {
  const onPath = pathWith('helm3', `exec '${path.join(PINNED_TOOLS_DIR, 'helm')}' "$@"`);
  configureToolSearch({ pinnedDir: PINNED_TOOLS_DIR, searchPath: onPath, platform: 'darwin-arm64' });
  const report = await findToolReport('helm');
  assert.equal(
    [report.binary?.file, report.binary?.from, report.notes],
    [path.join(onPath, 'helm'), 'PATH', ['no pinned binaries for darwin-arm64']],
  );
  const r = makeConfigRepoWith(repos, { ...MEMBERS, ...helmGuestbook(1) }, 'chart');
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(snapshot.model.problems, []);
  assert.ok(snapshot.model.templates.has('apps/v1/Deployment/default/helm-guestbook'));
  assert.ok(
    (await validateText(r.dir)).text.includes(
      `units render with helm v3.17.2 (${path.join(onPath, 'helm')} from PATH; no pinned binaries for darwin-arm64)`,
    ),
  );

  const old = pathWith('helm2', 'echo v2.17.0');
  configureToolSearch({ pinnedDir: PINNED_TOOLS_DIR, searchPath: old, platform: 'darwin-arm64' });
  const missing = await findToolReport('helm');
  assert.is(
    describeToolReport(missing),
    `helm missing (no pinned binaries for darwin-arm64; ${path.join(old, 'helm')} is helm v2.17.0, not Helm 3)`,
  );
  const held = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(
    held.model.problems.map((p) => p.code),
    ['TOOL_MISSING'],
  );
  assert.match(held.model.problems[0]!.message, /helm v2\.17\.0, not Helm 3/);
  configureToolSearch(original);
});

test.run();
