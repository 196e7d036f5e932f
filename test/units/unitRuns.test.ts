import { createHash } from 'node:crypto';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  utimesSync,
  readFileSync,
  rmSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { resolveRev } from '../../src/commits/resolveRev.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { renderUnit } from '../../src/units/renderUnit.ts';
import { MAX_CACHED_OUTPUTS, UNIT_CACHE_DIR } from '../../src/units/unitOutputCache.ts';
import { configureToolSearch, PINNED_TOOLS_DIR } from '../../src/units/unitTools.ts';
import { makeConfigRepoWith, MEMBERS } from '../helpers/fleet.ts';
import { unitSuite } from '../helpers/unitSuite.ts';
import { GUESTBOOK_POLICY, helmGuestbook, KUSTOMIZE_GUESTBOOK } from './unitFixtures.ts';

const SOURCE = 'refs/heads/main';
const OUT = 'refs/heads/flotilla/rendered';
const { repos, original } = unitSuite(test);
const scratch = mkdtempSync(path.join(tmpdir(), 'flotilla-unit-tools-'));
test.after(() => rmSync(scratch, { recursive: true, force: true }));

/** A tools folder whose helm and kubectl log each run, then run the pinned ones; versions.json says what it holds. */
function countingTools(
  name: string,
  versions = { helm: 'v3.17.2', kustomize: 'v5.5.0' },
): { dir: string; runs: () => string[] } {
  const dir = path.join(scratch, name);
  const log = path.join(dir, 'runs.log');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const tool of ['helm', 'kubectl']) {
    const file = path.join(dir, tool);
    writeFileSync(file, `#!/bin/sh\necho ${tool} >> '${log}'\nexec '${path.join(PINNED_TOOLS_DIR, tool)}' "$@"\n`, {
      flag: 'w',
    });
    chmodSync(file, 0o755);
  }
  writeFileSync(path.join(dir, 'versions.json'), JSON.stringify(versions));
  return { dir, runs: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []) };
}

test('a unit runs again only when one of its inputs changed, and a later process reuses the outputs kept beside the object store', async () => {
  const tools = countingTools('counting');
  configureToolSearch({ pinnedDir: tools.dir, searchPath: '' });
  const r = makeConfigRepoWith(
    repos,
    { ...MEMBERS, ...KUSTOMIZE_GUESTBOOK, ...helmGuestbook(1), 'policies/guestbook.yaml': GUESTBOOK_POLICY },
    'guestbook',
  );
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(tools.runs().sort(), ['helm', 'kubectl']);

  r.commit({ 'templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n' }, 'unrelated');
  r.commit({ 'policies/guestbook.yaml': GUESTBOOK_POLICY.replace('[member1]', '[member1, member2]') }, 'both clusters');
  const moved = await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.ok(moved.reports[1]!.changes.member2?.added.length === 4, JSON.stringify(moved.reports[1]!.changes));
  assert.equal(tools.runs().sort(), ['helm', 'kubectl'], 'a policy change reads the units from their cache');

  r.commit({ 'helm-guestbook/values.yaml': helmGuestbook(2)['helm-guestbook/values.yaml']! }, 'values');
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(tools.runs().sort(), ['helm', 'helm', 'kubectl'], 'only the chart ran again');
  assert.ok((await verifyOutput(await openRepo(r.dir), { outputRef: OUT })).ok);
});

test('the kept outputs are trimmed to the most recently used once they pass the limit', async () => {
  configureToolSearch(original);
  const r = makeConfigRepoWith(repos, { ...helmGuestbook(1) }, 'chart');
  const dir = path.join(r.dir, '.git', UNIT_CACHE_DIR);
  mkdirSync(dir, { recursive: true });
  const old = new Date('2020-01-01T00:00:00Z');
  for (let i = 0; i < MAX_CACHED_OUTPUTS; i++) {
    const file = path.join(dir, `${createHash('sha256').update(String(i)).digest('hex')}.yaml`);
    writeFileSync(file, '');
    utimesSync(file, old, old);
  }
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  const kept = readdirSync(dir).filter((n) => /^[0-9a-f]{64}\.yaml$/.test(n));
  assert.is(kept.length, Math.floor(MAX_CACHED_OUTPUTS * 0.75));
  assert.ok(
    kept.some((n) => readFileSync(path.join(dir, n), 'utf8').includes('helm-guestbook')),
    'the output just written stays',
  );
});

test('verify replays a unit render only with the tools its Render-Tools trailer names', async () => {
  configureToolSearch({ pinnedDir: countingTools('pinned').dir, searchPath: '' });
  const r = makeConfigRepoWith(
    repos,
    { ...MEMBERS, ...helmGuestbook(1), 'policies/guestbook.yaml': GUESTBOOK_POLICY },
    'guestbook',
  );
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  configureToolSearch({ pinnedDir: countingTools('newer', { helm: 'v3.18.0', kustomize: 'v5.5.0' }).dir });
  const report = await verifyOutput(await openRepo(r.dir), { outputRef: OUT });
  assert.is(report.ok, false);
  assert.match(report.notReproducible ?? '', /rendered with helm v3\.17\.2, and this machine has helm v3\.18\.0/);
});

test('after the tools change, the next render runs every unit with the new ones, so verify replays it', async () => {
  configureToolSearch({ pinnedDir: countingTools('before-upgrade').dir, searchPath: '' });
  const r = makeConfigRepoWith(
    repos,
    { ...MEMBERS, ...helmGuestbook(1), 'policies/guestbook.yaml': GUESTBOOK_POLICY },
    'guestbook',
  );
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  const deployment = 'clusters/member1/default/deployment.apps_helm-guestbook.yaml';
  assert.match(r.show('flotilla/rendered', deployment), /\n {2}replicas: 1\n/);
  // A newer helm whose output differs (here: it renders three replicas), and a commit that touches no unit.
  const upgraded = path.join(scratch, 'upgraded');
  mkdirSync(upgraded, { recursive: true });
  writeFileSync(
    path.join(upgraded, 'helm'),
    `#!/bin/sh\nexec '${path.join(PINNED_TOOLS_DIR, 'helm')}' "$@" --set replicaCount=3\n`,
  );
  chmodSync(path.join(upgraded, 'helm'), 0o755);
  writeFileSync(path.join(upgraded, 'versions.json'), JSON.stringify({ helm: 'v3.17.3', kustomize: 'v5.5.0' }));
  configureToolSearch({ pinnedDir: upgraded });
  r.commit({ 'templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n' }, 'unrelated');
  const [upgrade] = (await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT })).reports;
  assert.is(upgrade!.full, false, 'the units run again, not every template');
  assert.match(r.git('log', '-1', '--format=%B', 'flotilla/rendered'), /\nRender-Tools: helm v3\.17\.3\n/);
  assert.match(r.show('flotilla/rendered', deployment), /\n {2}replicas: 3\n/);
  const report = await verifyOutput(await openRepo(r.dir), { outputRef: OUT });
  assert.ok(report.ok, JSON.stringify(report));
});

test('a tool that cannot start holds its units with TOOL_MISSING, and the rest of the commit renders', async () => {
  const dir = path.join(scratch, 'broken');
  mkdirSync(dir, { recursive: true });
  // A folder where the binary should be: found (it is "executable"), but the system refuses to run it.
  mkdirSync(path.join(dir, 'helm'), { recursive: true });
  writeFileSync(path.join(dir, 'versions.json'), JSON.stringify({ helm: 'v3.17.2' }));
  configureToolSearch({ pinnedDir: dir, searchPath: '' });
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\n',
    },
    'chart',
  );
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  configureToolSearch(original);
  assert.equal(
    snapshot.model.problems.map((p) => [p.code, p.file]),
    [['TOOL_MISSING', 'helm-guestbook/Chart.yaml']],
  );
  assert.equal([...snapshot.model.templates.keys()], ['v1/ConfigMap/default/plain']);
});

test('a chart that loops is stopped at the timeout, one that outputs too much at the output cap, one that recurses fails at its line', async () => {
  configureToolSearch(original);
  const chart = (template: string) => ({
    'loop/Chart.yaml': 'apiVersion: v2\nname: loop\nversion: 0.1.0\n',
    'loop/templates/cm.yaml': template,
  });
  const unit = { dir: 'loop', tool: 'helm' as const, marker: 'loop/Chart.yaml', inputs: ['loop/'], problems: [] };
  const render = async (template: string, limits: { timeoutMs: number; maxOutputBytes: number }) => {
    const r = makeConfigRepoWith(repos, chart(template), 'loop');
    const repo = await openRepo(r.dir);
    const tree = (await readCommitInfo(repo, await resolveRev(repo, 'HEAD'))).tree;
    return renderUnit(repo, tree, unit, limits);
  };
  const slow = await render('{{- range until 2000000000 }}{{- end }}\n', { timeoutMs: 500, maxOutputBytes: 1 << 20 });
  assert.ok(slow.unreadable);
  assert.equal(
    slow.problems.map((p) => [p.code, p.file]),
    [['UNIT_FAILED', 'loop/Chart.yaml']],
  );
  assert.match(slow.problems[0]!.message, /did not finish within 0\.5 s/);

  const endless = await render(
    '{{- range until 5000 }}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-{{ . }}\n{{- end }}\n',
    { timeoutMs: 60_000, maxOutputBytes: 64 * 1024 },
  );
  assert.ok(endless.unreadable);
  assert.match(endless.problems[0]!.message, /output more than/);

  const recursive = await render('{{- define "again" }}{{ include "again" . }}{{ end }}{{ include "again" . }}\n', {
    timeoutMs: 60_000,
    maxOutputBytes: 1 << 20,
  });
  assert.equal(
    recursive.problems.map((p) => [p.code, p.file, p.line]),
    [['UNIT_FAILED', 'loop/templates/cm.yaml', 1]],
  );
});

test('a chart stopped at the timeout fails at once on the next load with the same inputs and tools, and runs again when they or the timeout change', async () => {
  const tools = countingTools('timeouts');
  configureToolSearch({ pinnedDir: tools.dir, searchPath: '' });
  const r = makeConfigRepoWith(
    repos,
    {
      'loop/Chart.yaml': 'apiVersion: v2\nname: loop\nversion: 0.1.0\n',
      'loop/templates/cm.yaml': '{{- range until 2000000000 }}{{- end }}\n',
    },
    'loop',
  );
  const unit = { dir: 'loop', tool: 'helm' as const, marker: 'loop/Chart.yaml', inputs: ['loop/'], problems: [] };
  // Each load as a new process would do it: a fresh repository handle, the cache beside the object store.
  const load = async (timeoutMs = 500) => {
    const repo = await openRepo(r.dir);
    const tree = (await readCommitInfo(repo, await resolveRev(repo, 'HEAD'))).tree;
    return renderUnit(repo, tree, unit, { timeoutMs, maxOutputBytes: 1 << 20 });
  };
  const first = await load();
  assert.ok(first.unreadable);
  assert.match(first.problems[0]!.message, /did not finish within 0\.5 s/);
  assert.is(tools.runs().length, 1);

  const again = await load();
  assert.ok(again.unreadable);
  assert.equal(again.problems, first.problems);
  assert.equal(again.unit, first.unit);
  assert.is(tools.runs().length, 1, 'the same inputs and tools give the same failure without a run');

  await load(600);
  assert.is(tools.runs().length, 2, 'a longer timeout runs it again');

  r.commit({ 'loop/values.yaml': 'x: 1\n' }, 'values');
  const changed = await load();
  assert.match(changed.problems[0]!.message, /did not finish within 0\.5 s/);
  assert.is(tools.runs().length, 3, 'changed inputs run it again');
  configureToolSearch(original);
});

test.run();
