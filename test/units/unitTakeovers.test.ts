import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { readPlan } from '../../src/plans/readPlan.ts';
import { detectUnits } from '../../src/units/detectUnits.ts';
import { parseKustomization } from '../../src/units/parseKustomization.ts';
import { findUnitTakeovers } from '../../src/units/unitTakeovers.ts';
import { configureToolSearch } from '../../src/units/unitTools.ts';
import { makeConfigRepoWith, MEMBERS } from '../helpers/fleet.ts';
import { unitSuite } from '../helpers/unitSuite.ts';
import { validateText } from '../helpers/validateText.ts';

const { repos, original } = unitSuite(test);

const TEAM_A: Record<string, string> = {
  'team-a/app/kustomization.yaml': 'resources: [deployment.yaml]\n',
  'team-a/app/deployment.yaml': `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "nginx:1.27"}]
`,
};

/** A pull request's overlay over team A's folder, changing its image. */
const OVERLAY: Record<string, string> = {
  'other/kustomization.yaml': 'resources: [../team-a/app]\nimages:\n  - {name: nginx, newName: example.com/miner}\n',
};

const layoutOf = (files: Record<string, string>) =>
  detectUnits(Object.keys(files), (marker) => parseKustomization(marker, files[marker] ?? ''));

test('a folder that was a unit and is now read by another unit as its base is a takeover; a base from the start is none', () => {
  const before = layoutOf(TEAM_A);
  const after = layoutOf({ ...TEAM_A, ...OVERLAY });
  assert.equal(
    findUnitTakeovers(before, after).map((t) => [t.unit.dir, t.by.map((u) => u.dir)]),
    [['team-a/app', ['other']]],
  );
  assert.equal(findUnitTakeovers(after, after), []);
  // With its own flotilla-unit.yaml the folder stays a unit whatever names it.
  const explicit = { ...TEAM_A, 'team-a/app/flotilla-unit.yaml': '' };
  assert.equal(
    layoutOf({ ...explicit, ...OVERLAY }).units.map((u) => u.dir),
    ['other', 'team-a/app'],
  );
  assert.equal(findUnitTakeovers(layoutOf(explicit), layoutOf({ ...explicit, ...OVERLAY })), []);
});

test("a unit inside another unit's folder is a takeover only when a build names it, not when the change ignores it", () => {
  const files: Record<string, string> = {
    'shop/kustomization.yaml': 'resources: [base]\n',
    'shop/base/kustomization.yaml': 'resources: [deployment.yaml]\n',
    'shop/tests/all/kustomization.yaml': 'resources: [../../base]\n',
  };
  const layout = (f: Record<string, string>, included: (marker: string) => boolean = () => true) =>
    detectUnits(Object.keys(f).concat('shop/base/deployment.yaml'), (m) => parseKustomization(m, f[m] ?? ''), included);
  const before = layout(files);
  assert.equal(
    before.units.map((u) => u.dir),
    ['shop', 'shop/tests/all'],
  );
  // .flotillaignore takes the test overlay out: shop's own folder holds it, but shop's build does not read it.
  const ignored = layout(files, (m) => !m.startsWith('shop/tests/'));
  assert.equal(findUnitTakeovers(before, ignored), []);
  // Named by shop's kustomization, it is built by shop now: a takeover.
  const named = layout({ ...files, 'shop/kustomization.yaml': 'resources: [base, tests/all]\n' });
  assert.equal(
    findUnitTakeovers(before, named).map((t) => [t.unit.dir, t.by.map((u) => u.dir)]),
    [['shop/tests/all', ['shop']]],
  );
});

test('plan and validate say when an overlay turns another folder from a unit into its base, naming the templates whose source moves', async () => {
  configureToolSearch(original);
  const r = makeConfigRepoWith(repos, { ...MEMBERS, ...TEAM_A }, 'team A');
  const base = r.git('rev-parse', 'HEAD');
  const head = r.commit(OVERLAY, 'an overlay over team A');

  const plan = await readPlan(await openRepo(r.dir), { base, head });
  assert.equal(
    plan.warnings.map((p) => [p.file, p.code, p.message]),
    [
      [
        'team-a/app/kustomization.yaml',
        'UNIT_BECAME_BASE',
        'team-a/app is no longer rendered as a unit: other uses it as a base; the source of Deployment web moves to other',
      ],
    ],
  );
  assert.match(plan.warnings[0]!.fix, /add team-a\/app\/flotilla-unit\.yaml/);

  let { code, text } = await validateText(r.dir);
  assert.is(code, 0, text);
  assert.match(text, /team-a\/app is no longer rendered as a unit: other uses it as a base/);

  // The next commit changes nothing of the layout: nothing more to say.
  r.commit({ 'notes.txt': 'x\n' }, 'unrelated');
  ({ text } = await validateText(r.dir));
  assert.not.match(text, /no longer rendered as a unit/);
});

test('a folder with its own flotilla-unit.yaml stays a unit under an overlay, and the objects both output are a DUPLICATE_OBJECT naming both', async () => {
  configureToolSearch(original);
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...TEAM_A,
      'team-a/app/flotilla-unit.yaml': 'apiVersion: flotilla.io/v1alpha1\nkind: KustomizeUnit\n',
      ...OVERLAY,
    },
    'explicit unit',
  );
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal([...(snapshot.model.units?.keys() ?? [])].sort(), [
    'other/kustomization.yaml',
    'team-a/app/kustomization.yaml',
  ]);
  const duplicate = snapshot.model.problems.filter((p) => p.code === 'DUPLICATE_OBJECT');
  assert.is(duplicate.length, 1, JSON.stringify(snapshot.model.problems));
  assert.match(duplicate[0]!.message, /Deployment default\/web .* defined twice/);
  assert.equal([duplicate[0]!.file, (duplicate[0]!.data as { first: { file: string } }).first.file].sort(), [
    'other/kustomization.yaml',
    'team-a/app/kustomization.yaml',
  ]);
  assert.not.ok(snapshot.model.templates.has('apps/v1/Deployment/default/web'), 'held: neither replaces the output');
});

test.run();
