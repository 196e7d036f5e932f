import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { resolveValueFile } from '../../src/units/helmValueFiles.ts';
import { expandValueFiles, matchValueFileGlob, valueFileGlobRefusal } from '../../src/units/valueFileGlobs.ts';
import { configureToolSearch } from '../../src/units/unitTools.ts';
import { makeConfigRepoWith, MEMBERS } from '../helpers/fleet.ts';
import { unitSuite } from '../helpers/unitSuite.ts';
import { GUESTBOOK_POLICY, helmGuestbook } from './unitFixtures.ts';

const SOURCE = 'refs/heads/main';
const OUT = 'refs/heads/flotilla/rendered';
const { repos, original } = unitSuite(test);

const TREE = [
  'c/values.yaml',
  'c/envs/z.yaml',
  'c/envs/a.yaml',
  'c/envs/nested/c.yaml',
  'c/envs/nested/deeper/d.yaml',
  'c/envs/a-b/e.yaml',
  'c/envs/values-prod.yaml',
  'c/envs/values-10.yaml',
  'c/envs/values-9.yaml',
  'c/envs/notes.txt',
];

test("a pattern matches as doublestar does: * and ? within a segment, classes, ** across folders, in its walk's order", () => {
  assert.equal(matchValueFileGlob('c/envs/*.yaml', TREE), [
    'c/envs/a.yaml',
    'c/envs/values-10.yaml',
    'c/envs/values-9.yaml',
    'c/envs/values-prod.yaml',
    'c/envs/z.yaml',
  ]);
  assert.equal(matchValueFileGlob('c/envs/values-?.yaml', TREE), ['c/envs/values-9.yaml']);
  assert.equal(matchValueFileGlob('c/envs/values-[0-9]*.yaml', TREE), [
    'c/envs/values-10.yaml',
    'c/envs/values-9.yaml',
  ]);
  assert.equal(matchValueFileGlob('c/envs/[!av]*.yaml', TREE), ['c/envs/z.yaml']);
  // Each folder's own files first, then its subfolders by name, depth first (Argo CD's documented order).
  assert.equal(matchValueFileGlob('c/envs/**/*.yaml', TREE), [
    'c/envs/a.yaml',
    'c/envs/values-10.yaml',
    'c/envs/values-9.yaml',
    'c/envs/values-prod.yaml',
    'c/envs/z.yaml',
    'c/envs/a-b/e.yaml',
    'c/envs/nested/c.yaml',
    'c/envs/nested/deeper/d.yaml',
  ]);
  assert.equal(matchValueFileGlob('c/*/nested/*.yaml', TREE), ['c/envs/nested/c.yaml']);
  assert.equal(matchValueFileGlob('c/none/*.yaml', TREE), []);
  assert.match(valueFileGlobRefusal('envs/{a,b}.yaml')!.message, /alternatives/);
  assert.match(valueFileGlobRefusal('envs/**')!.message, /matches folders too/);
  assert.is(valueFileGlobRefusal('envs/**/*.yaml'), undefined);
});

test('a pattern a pull request writes to take exponential time matches in linear time, with the same answers', () => {
  const long = 'a'.repeat(200);
  // As a backtracking regular expression each further `*a` multiplied the work by ~40: this one never finished.
  const pattern = `apps/c/${'*a'.repeat(12)}*c`;
  assert.equal(matchValueFileGlob(pattern, [`apps/c/${long}`, `apps/c/${long}c`, `apps/c/${long}cd`]), [
    `apps/c/${long}c`,
  ]);
  // Twenty `**` segments over a path twenty folders deep: each (segment, folder) pair is tried once.
  const deep = `apps/${Array.from({ length: 20 }, (_, i) => `d${i}`).join('/')}`;
  const doubleStars = `apps/${'**/'.repeat(20)}x.yaml`;
  assert.equal(matchValueFileGlob(doubleStars, [`${deep}/x.yaml`, `${deep}/y.yaml`]), [`${deep}/x.yaml`]);
  assert.equal(matchValueFileGlob(`apps/${'**/'.repeat(20)}z.yaml`, [`${deep}/x.yaml`]), []);
  // Runs, single characters, classes and escapes together.
  assert.equal(
    matchValueFileGlob('v/*-[0-9]?\\*.y*ml', ['v/prod-1a*.yaml', 'v/prod-1a.yaml', 'v/-9b*.yml', 'v/prod-x1*.yaml']),
    ['v/-9b*.yml', 'v/prod-1a*.yaml'],
  );
});

test('value files expand in place, each file once: an explicit entry keeps its own place, a file two patterns match the first one', () => {
  const resolve = (f: string) => resolveValueFile('c', f);
  assert.equal(expandValueFiles(['values.yaml', 'envs/*.yaml', 'envs/a.yaml'], resolve, TREE), {
    files: [
      'c/values.yaml',
      'c/envs/values-10.yaml',
      'c/envs/values-9.yaml',
      'c/envs/values-prod.yaml',
      'c/envs/z.yaml',
      'c/envs/a.yaml',
    ],
    missing: [],
  });
  assert.equal(
    expandValueFiles(['envs/a.yaml', 'envs/values-*.yaml', 'envs/**/values-9.yaml', 'envs/a.yaml'], resolve, TREE),
    {
      files: ['c/envs/a.yaml', 'c/envs/values-10.yaml', 'c/envs/values-9.yaml', 'c/envs/values-prod.yaml'],
      missing: [],
    },
  );
  assert.equal(expandValueFiles(['none/*.yaml', 'missing.yaml'], resolve, TREE), {
    files: ['c/missing.yaml'],
    missing: ['none/*.yaml'],
  });
});

test("a chart's value file patterns render as Argo CD expands them, in its folder and elsewhere; a file added that a pattern matches renders the chart again; one matching nothing holds it at its line", async () => {
  configureToolSearch(original);
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'helm-guestbook/flotilla-unit.yaml':
        'apiVersion: flotilla.io/v1alpha1\nkind: HelmUnit\nspec:\n  valueFiles:\n    - envs/*.yaml\n    - /fleet/values-*.yaml\n',
      'helm-guestbook/envs/a.yaml': 'replicaCount: 2\n',
      'helm-guestbook/envs/b.yaml': 'replicaCount: 3\n',
      'fleet/values-1.yaml': 'replicaCount: 4\n',
      'policies/guestbook.yaml': GUESTBOOK_POLICY,
    },
    'patterns',
  );
  const deployment = 'clusters/member1/default/deployment.apps_helm-guestbook.yaml';
  const first = await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(first.reports.at(-1)!.problems, []);
  assert.match(r.show('flotilla/rendered', deployment), /\n {2}replicas: 4\n/, 'the last file given wins');
  assert.not.ok(
    first.reports.at(-1)!.problems.some((p) => p.file === 'fleet/values-1.yaml'),
    'a matched file is no manifest',
  );

  // A file added outside the chart that the pattern matches: the chart renders again with it, last.
  r.commit({ 'fleet/values-2.yaml': 'replicaCount: 5\n' }, 'another');
  const second = await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(second.reports.at(-1)!.problems, []);
  assert.match(r.show('flotilla/rendered', deployment), /\n {2}replicas: 5\n/);
  assert.ok((await verifyOutput(await openRepo(r.dir), { outputRef: OUT })).ok);

  r.commit({ 'fleet/values-1.yaml': null, 'fleet/values-2.yaml': null }, 'none left');
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(
    snapshot.model.problems.map((p) => [p.file, p.line, p.code, p.message.split(' (')[0]]),
    [
      [
        'helm-guestbook/flotilla-unit.yaml',
        6,
        'INVALID_VALUE',
        'values file glob "/fleet/values-*.yaml" matched no files',
      ],
    ],
  );
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.match(r.show('flotilla/rendered', deployment), /\n {2}replicas: 5\n/, 'held: the last good output stays');
  assert.ok((await verifyOutput(await openRepo(r.dir), { outputRef: OUT })).ok);
});

test.run();
