// A Karmada object whose file stops validating keeps its last good definition, as Karmada's API server keeps the
// object it refuses to replace: on every render path (incremental sync, full re-render, verify's cold replay), and
// across later commits while the file stays broken. A definition never valid is never used.
import { rmSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { classifyDocuments } from '../../src/documents/classifyDocuments.ts';
import { parseDocuments } from '../../src/documents/parseDocuments.ts';
import {
  duplicateAt,
  lastGoodSearch,
  renderHistoryAt,
  searchEarlier,
  withLastGood,
} from '../../src/outputs/lastGoodKarmada.ts';
import { openOutputIndex } from '../../src/branches/rendered/readOutputIndex.ts';
import { readClusterConfig } from '../../src/outputs/readClusterConfig.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { CLUSTERS_PATH } from '../../src/branches/rendered/outputPaths.ts';
import {
  clusterYaml,
  configMap,
  configMapPolicy,
  makeConfigRepoWith,
  manifestOf,
  RENDERED_REF,
  SOURCE_REF,
  type ConfigRepo,
} from '../helpers/fleet.ts';
import { flaggedFleetRepo, flaggedMember1 } from '../helpers/flaggedFleet.ts';
import { dependencyCustomization, shopPolicy, WORKLOAD_CRD } from '../helpers/customWorkload.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const CM_M1 = manifestOf('member1', 'ConfigMap', 'app');
const OTHER_M1 = manifestOf('member1', 'ConfigMap', 'other');

const member1 = flaggedMember1;
const fleetRepo = () => flaggedFleetRepo(repos);

async function sync(r: ConfigRepo) {
  const git = await openRepo(r.dir);
  const { reports } = await syncRepo(git, { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
  return reports.at(-1)!;
}

/** Renders the last rendered source commit again from scratch, as a change of cluster state does ('all'). */
async function rescheduleAll(r: ConfigRepo) {
  const git = await openRepo(r.dir);
  return renderRevision(git, r.git('rev-parse', 'HEAD'), { outputRef: RENDERED_REF, clusterStatus: new Map() }, 'all');
}

async function verified(r: ConfigRepo, what: string) {
  const report = await verifyOutput(await openRepo(r.dir), { outputRef: RENDERED_REF });
  assert.equal([report.differs, report.missing, report.extra], [[], [], []], what);
  assert.ok(report.ok, what);
}

/**
 * The render paths that read the commit whole, after the last sync: a reschedule ('all'), then a commit read whole
 * (an ignore file comes). `check` after each, then verify.
 */
async function onWholeRenders(r: ConfigRepo, check: (what: string) => void): Promise<void> {
  assert.ok((await rescheduleAll(r)).full, 'a reschedule renders in full');
  check('full re-render');
  await verified(r, 'full re-render');
  r.commit({ '.flotillaignore': 'docs/\n' }, 'an ignore file: the commit is read whole');
  assert.ok((await sync(r)).full, 'an ignore file: the commit is read whole');
  check('ignore-file change');
  await verified(r, 'ignore-file change');
}

test('a Cluster whose file turns invalid keeps its last good definition on every render path, and verify agrees', async () => {
  const r = fleetRepo();
  await sync(r);
  await verified(r, 'first render');
  assert.ok(r.ls('flotilla/rendered').includes(CM_M1));

  r.commit({ 'clusters/member1.yaml': member1('yes') }, 'unquote the label: a boolean');
  const broken = await sync(r);
  assert.ok(
    broken.problems.some((p) => p.file === 'clusters/member1.yaml' && p.code === 'INVALID_VALUE'),
    JSON.stringify(broken.problems),
  );
  assert.ok(r.ls('flotilla/rendered').includes(CM_M1), 'incremental: member1 keeps its ConfigMap');
  assert.ok(r.show('flotilla/rendered', CLUSTERS_PATH).includes('"member1"'), 'incremental: member1 registered');
  await verified(r, 'incremental sync that held member1');
  // The status writer decides member1's taints from the same definition.
  const config = await readClusterConfig(await openRepo(r.dir), RENDERED_REF);
  assert.equal(config.clusters.get('member1')?.metadata.labels, { flag: 'yes' }, 'the status writer sees member1');

  r.commit({ 'clusters/member1.yaml': member1('yes', '# still broken\n') }, 'another edit, still broken');
  await sync(r);
  assert.ok(r.ls('flotilla/rendered').includes(CM_M1), 'second edit of the broken file: member1 kept');
  await verified(r, 'second edit of the broken file');

  r.commit({ 'templates/other.yaml': configMap('other') }, 'an edit elsewhere');
  await sync(r);
  assert.ok(r.ls('flotilla/rendered').includes(OTHER_M1), 'an edit elsewhere still places on member1');
  assert.ok(r.show('flotilla/rendered', CLUSTERS_PATH).includes('"member1"'));
  await verified(r, 'an edit elsewhere');

  await onWholeRenders(r, (what) => assert.ok(r.ls('flotilla/rendered').includes(CM_M1), `${what}: member1 kept`));

  r.commit({ 'clusters/member1.yaml': member1('"no"') }, 'fixed, with another value');
  const fixed = await sync(r);
  assert.not.ok(fixed.problems.some((p) => p.file === 'clusters/member1.yaml'));
  assert.not.ok(
    r.ls('flotilla/rendered').includes(CM_M1),
    'the fixed definition renders: member1 is no longer flagged',
  );
  assert.ok(r.show('flotilla/rendered', CLUSTERS_PATH).includes('"member1"'));
  await verified(r, 'fixed');
});

/** A file as a render reads it (pure: parse and classify). */
const fileOf = (yaml: string | null) =>
  yaml === null
    ? null
    : (() => {
        const { documents, problems } = parseDocuments('clusters/m.yaml', new TextEncoder().encode(yaml));
        return classifyDocuments('clusters/m.yaml', documents, problems);
      })();

/** Feeds the versions, newest first, until the search ends; the cluster names found, and whether it ended. */
function lastGoodClusters(now: string, ...earlier: (string | null)[]) {
  const search = lastGoodSearch(fileOf(now)!);
  if (!search) return undefined;
  let ended = false;
  for (const v of earlier) if (!ended) ended = searchEarlier(search, fileOf(v));
  const held = withLastGood(fileOf(now)!, search, !ended);
  return {
    clusters: held.clusters.map((c) => c.object.metadata.name),
    ended,
    warned: held.problems.some((p) => p.severity === 'warning'),
  };
}

test('the last good definition is the newest earlier version where the object is valid, none past a deletion', () => {
  const good = (flag = '"yes"') => member1(flag);
  const bad = member1('yes');
  assert.is(lastGoodClusters(good()), undefined, 'a valid file looks for nothing');
  assert.equal(lastGoodClusters(bad, good('"a"'), good('"b"'))?.clusters, ['member1']);
  assert.is(lastGoodClusters(bad, bad, good('"a"'))?.ended, true, 'an earlier broken version is walked past');
  assert.equal(lastGoodClusters(bad, bad, null, good())?.clusters, [], 'the file was deleted in between');
  assert.equal(
    lastGoodClusters(bad, clusterYaml('member2'), good())?.clusters,
    [],
    'member1 was not in the file in between',
  );
  // A file that does not parse keeps its last readable version's objects, and what that version held.
  assert.equal(lastGoodClusters('a: [', 'b: [', `${bad}---\n${clusterYaml('member2')}`, good())?.clusters, [
    'member2',
    'member1',
  ]);
  const open = lastGoodClusters(bad, bad);
  assert.equal([open?.clusters, open?.ended, open?.warned], [[], false, true], 'past the bound: dropped, and said');
});

test('an object defined twice keeps the definition of the newest render that had exactly one', () => {
  const key = 'cluster.karmada.io/v1alpha1/Cluster//member1';
  const at = (...versions: (string | null)[]) => duplicateAt(key, versions.map(fileOf));
  assert.is(at(member1('"a"'), member1('"b"')), undefined, 'two valid definitions: further back');
  // One valid beside a broken copy: that render used the valid one (a held copy never competes with it).
  assert.ok(at(member1('"a"'), member1('yes'))?.found);
  assert.is(at(member1('yes'), null), undefined, 'only broken: further back');
  const one = at(member1('"a"'), null)?.found;
  assert.ok(one);
  assert.equal([one.list, (one.located.object.metadata as { labels?: unknown }).labels], ['clusters', { flag: 'a' }]);
  assert.equal(at(clusterYaml('member2'), null), { found: undefined }, 'none: it did not exist then');
});

const PLACED_M2 = manifestOf('member2', 'ConfigMap', 'app');

function policyRepo(): ConfigRepo {
  return makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'policies/configmaps.yaml': configMapPolicy(['member1', 'member2'], 'default'),
      'templates/app.yaml': configMap('app'),
    },
    'one ConfigMap on both members',
  );
}

test('a PropagationPolicy whose file turns invalid keeps its templates placed on every render path, and verify agrees', async () => {
  const r = policyRepo();
  await sync(r);
  const placed = () => r.ls('flotilla/rendered').includes(CM_M1) && r.ls('flotilla/rendered').includes(PLACED_M2);
  assert.ok(placed());

  const typo = configMapPolicy(['member1', 'member2'], 'default').replace('clusterAffinity:', 'clusterAfinity:');
  r.commit({ 'policies/configmaps.yaml': typo }, 'a typo in the policy');
  const broken = await sync(r);
  assert.ok(broken.problems.some((p) => p.file === 'policies/configmaps.yaml' && p.code === 'UNKNOWN_FIELD'));
  assert.ok(placed(), 'incremental: still placed');
  await verified(r, 'incremental sync that held the policy');

  r.commit({ 'policies/configmaps.yaml': `${typo}# still broken\n` }, 'another edit, still broken');
  await sync(r);
  assert.ok(placed(), 'second edit of the broken file: still placed');
  await verified(r, 'second edit of the broken file');

  // Then it does not parse at all: the objects of its last readable version, whose policy was held itself, are kept.
  r.commit({ 'policies/configmaps.yaml': `${typo}  oops: [\n` }, 'the file no longer parses');
  const unreadable = await sync(r);
  assert.ok(unreadable.problems.some((p) => p.file === 'policies/configmaps.yaml' && p.code === 'YAML_SYNTAX'));
  assert.ok(placed(), 'unreadable: still placed');
  await verified(r, 'unreadable policy file');

  r.commit({ 'templates/other.yaml': configMap('other') }, 'a ConfigMap the held policy selects');
  await sync(r);
  assert.ok(r.ls('flotilla/rendered').includes(OTHER_M1), 'the held policy places a new template too');
  await verified(r, 'an edit elsewhere');

  await onWholeRenders(r, (what) => assert.ok(placed(), `${what}: still placed`));

  r.commit({ 'policies/configmaps.yaml': configMapPolicy(['member2'], 'default') }, 'fixed: member2 only');
  await sync(r);
  assert.not.ok(r.ls('flotilla/rendered').includes(CM_M1), 'the fixed definition renders');
  assert.ok(r.ls('flotilla/rendered').includes(PLACED_M2));
  await verified(r, 'fixed');
});

test('a policy moved to another file and left broken in the first renders its valid definition', async () => {
  const r = policyRepo();
  await sync(r);
  const typo = configMapPolicy(['member1', 'member2'], 'default').replace('clusterAffinity:', 'clusterAfinity:');
  r.commit(
    { 'policies/configmaps.yaml': typo, 'policies/moved.yaml': configMapPolicy(['member2'], 'default') },
    'the policy moves, member2 only; the old file keeps a broken copy',
  );
  const report = await sync(r);
  assert.not.ok(
    report.problems.some((p) => p.code === 'DUPLICATE_OBJECT'),
    'a held definition is no duplicate',
  );
  assert.not.ok(r.ls('flotilla/rendered').includes(CM_M1), 'incremental: the valid definition renders');
  assert.ok(r.ls('flotilla/rendered').includes(PLACED_M2));
  await verified(r, 'incremental');
  await rescheduleAll(r);
  assert.not.ok(r.ls('flotilla/rendered').includes(CM_M1), 'full re-render: the valid definition renders');
  await verified(r, 'full re-render');
});

test('a Karmada object with no valid definition since it was last deleted stays absent on every render path', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'clusters/member3.yaml': clusterYaml('member3'),
      'policies/configmaps.yaml': configMapPolicy(['member1', 'member2', 'member3', 'member4'], 'default'),
      'templates/app.yaml': configMap('app'),
    },
    'a policy naming four members, three registered',
  );
  await sync(r);
  assert.ok(r.ls('flotilla/rendered').includes(manifestOf('member3', 'ConfigMap', 'app')));
  r.commit({ 'clusters/member3.yaml': null }, 'member3 deregistered');
  await sync(r);
  // Back in the same file, invalid: the API server refuses to create it, so the deleted definition does not return.
  const invalid = (name: string) => clusterYaml(name, { labels: { flag: 'yes' } });
  r.commit({ 'clusters/member3.yaml': invalid('member3') }, 'member3 again, invalid');
  const report = await sync(r);
  assert.ok(report.problems.some((p) => p.file === 'clusters/member3.yaml' && p.code === 'INVALID_VALUE'));
  const absent = (what: string) => {
    const files = r.ls('flotilla/rendered');
    assert.not.ok(
      files.some((f) => f.startsWith('clusters/member3/') || f.startsWith('clusters/member4/')),
      what,
    );
    assert.ok(files.includes(manifestOf('member2', 'ConfigMap', 'app')), what);
    assert.not.ok(/"member[34]"/.test(r.show('flotilla/rendered', CLUSTERS_PATH)), what);
  };
  absent('incremental');
  await verified(r, 'incremental');

  // A new object in a file that parses and holds valid ones: never valid there.
  r.commit({ 'clusters/member2.yaml': `${clusterYaml('member2')}---\n${invalid('member4')}` }, 'member4, invalid');
  await sync(r);
  absent('a new invalid object beside a valid one');
  await verified(r, 'a new invalid object beside a valid one');

  r.commit({ 'templates/other.yaml': configMap('other') }, 'an edit elsewhere');
  await sync(r);
  absent('a later commit');
  await verified(r, 'a later commit');

  await onWholeRenders(r, absent);
});

test('a Cluster or PropagationPolicy defined twice keeps the definition it had on every render path, and verify agrees', async () => {
  const r = policyRepo();
  await sync(r);
  const onBoth = (what: string) => {
    const files = r.ls('flotilla/rendered');
    assert.ok(files.includes(CM_M1) && files.includes(PLACED_M2), what);
    assert.ok(r.show('flotilla/rendered', CLUSTERS_PATH).includes('"member2"'), what);
  };
  // Both copies are refused (DUPLICATE_OBJECT); what they replace is the definition the last render used.
  r.commit(
    {
      'clusters/copy.yaml': clusterYaml('member2', { region: 'elsewhere' }),
      'policies/copy.yaml': configMapPolicy(['member1'], 'default'),
    },
    'member2 and the policy defined again',
  );
  const twice = await sync(r);
  const duplicates = twice.problems.filter((p) => p.code === 'DUPLICATE_OBJECT').map((p) => p.file);
  assert.equal(duplicates.sort(), ['clusters/member2.yaml', 'policies/copy.yaml']);
  onBoth('incremental');
  await verified(r, 'incremental');

  // An edit of the first copy while both stand: still the definition the last render used, not either copy.
  r.commit({ 'policies/configmaps.yaml': configMapPolicy(['member2'], 'default') }, 'edit one copy');
  await sync(r);
  onBoth('an edit of one copy');
  await verified(r, 'an edit of one copy');

  await onWholeRenders(r, onBoth);

  r.commit({ 'clusters/copy.yaml': null, 'policies/copy.yaml': null }, 'the copies go');
  await sync(r);
  assert.not.ok(r.ls('flotilla/rendered').includes(CM_M1), 'the remaining definition renders: member2 only');
  assert.ok(r.ls('flotilla/rendered').includes(PLACED_M2));
  await verified(r, 'copies removed');
});

test('a definition from renders that ignored its file is no last good definition', async () => {
  const r = fleetRepo();
  await sync(r);
  r.commit({ '.flotillaignore': 'clusters/member1.yaml\n' }, 'member1 ignored: deregistered');
  await sync(r);
  assert.not.ok(r.ls('flotilla/rendered').includes(CM_M1));
  r.commit({ '.flotillaignore': null, 'clusters/member1.yaml': member1('yes') }, 'read again, invalid');
  const report = await sync(r);
  assert.ok(report.problems.some((p) => p.file === 'clusters/member1.yaml' && p.code === 'INVALID_VALUE'));
  assert.not.ok(r.ls('flotilla/rendered').includes(CM_M1), 'member1 stays deregistered');
  assert.not.ok(r.show('flotilla/rendered', CLUSTERS_PATH).includes('"member1"'));
  await verified(r, 'invalid after being ignored');
});

test('verify in a shallow clone finds a last good definition within its history, and reports rather than fails past it', async () => {
  const r = fleetRepo();
  await sync(r);
  r.commit({ 'clusters/member1.yaml': member1('yes') }, 'unquote the label: a boolean');
  await sync(r);
  for (const value of ['a', 'b', 'c']) {
    r.commit({ 'templates/app.yaml': configMap('app', value) }, `app: ${value}`);
    await sync(r);
  }
  const shallow = `${r.dir}-shallow`;
  try {
    const verifyAtDepth = async (depth: number) => {
      rmSync(shallow, { recursive: true, force: true });
      r.git('clone', '-q', '--bare', `--depth=${depth}`, '--no-single-branch', `file://${r.dir}`, shallow);
      return verifyOutput(await openRepo(shallow), { outputRef: RENDERED_REF });
    };
    // Five renders: the last valid one is in reach.
    assert.ok((await verifyAtDepth(5)).ok);
    // Two: member1 was broken in every render the clone holds, so the replay drops it and says where it differs.
    const cut = await verifyAtDepth(2);
    assert.not.ok(cut.ok);
    assert.equal(cut.extra, [CM_M1]);
  } finally {
    rmSync(shallow, { recursive: true, force: true });
  }
});

test('an interpreter customization whose file turns invalid keeps interpreting its kind on every render path', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'crds/workload.yaml': WORKLOAD_CRD,
      'interpreters/workload.yaml': dependencyCustomization('spec.configRef.name'),
      'policies/shop.yaml': shopPolicy(['member1']),
      'templates/shop.yaml': `apiVersion: apps.example.io/v1alpha1
kind: Workload
metadata: {name: shop, namespace: default}
spec: {configRef: {name: shop-config}}
`,
      'templates/config.yaml': configMap('shop-config'),
    },
    'a Workload that drags its ConfigMap',
  );
  const dragged = manifestOf('member1', 'ConfigMap', 'shop-config');
  await sync(r);
  assert.ok(r.ls('flotilla/rendered').includes(dragged), 'the customization names the dependency');

  r.commit(
    { 'interpreters/workload.yaml': dependencyCustomization('"spec..configRef"') },
    'a path that does not parse',
  );
  const broken = await sync(r);
  assert.ok(broken.problems.some((p) => p.file === 'interpreters/workload.yaml' && p.severity === 'error'));
  assert.ok(r.ls('flotilla/rendered').includes(dragged), 'incremental: the ConfigMap still follows');
  await verified(r, 'incremental');

  r.commit(
    { 'templates/shop.yaml': r.show('HEAD', 'templates/shop.yaml').replace('{configRef', '{replicas: 1, configRef') },
    'an edit of the Workload',
  );
  await sync(r);
  assert.ok(r.ls('flotilla/rendered').includes(dragged), 'a later commit: the ConfigMap still follows');
  await verified(r, 'a later commit');

  await rescheduleAll(r);
  assert.ok(r.ls('flotilla/rendered').includes(dragged), 'full re-render: the ConfigMap still follows');
  await verified(r, 'full re-render');

  r.commit({ 'interpreters/workload.yaml': dependencyCustomization('spec.configRef.name') }, 'fixed');
  const fixed = await sync(r);
  assert.not.ok(fixed.problems.some((p) => p.file === 'interpreters/workload.yaml'));
  assert.ok(r.ls('flotilla/rendered').includes(dragged));
  await verified(r, 'fixed');
});

test("the render history below a commit made by hand lists the Karmada files of the render's own index", async () => {
  const r = fleetRepo();
  await sync(r);
  const below = r.git('rev-parse', RENDERED_REF);
  r.commit({ 'policies/other.yaml': configMapPolicy(['member2'], 'other') }, 'another policy file');
  await sync(r);
  // A commit made by hand on the render below, with the tree (and index) of the later render.
  const laterTree = r.git('rev-parse', `${RENDERED_REF}^{tree}`);
  const byHand = r.git(
    '-c',
    'user.name=Hand',
    '-c',
    'user.email=hand@example.com',
    'commit-tree',
    laterTree,
    '-p',
    below,
    '-m',
    'edited by hand',
  );
  const git = await openRepo(r.dir);
  const handIndex = await openOutputIndex(git, laterTree);
  assert.ok(handIndex?.karmadaFiles().includes('policies/other.yaml'), "the hand commit's index lists the new file");
  const history = await renderHistoryAt(git, byHand, handIndex);
  assert.is(history?.from, below, 'the history starts at the render below the hand commit');
  assert.not.ok(history?.karmadaFiles?.includes('policies/other.yaml'), "that render's index, not the hand commit's");
  assert.ok(history?.karmadaFiles?.includes('policies/configmaps.yaml'));
  // Given the render itself, the caller's open index is the render's.
  assert.equal(
    (await renderHistoryAt(git, below, await openOutputIndex(git, r.git('rev-parse', `${below}^{tree}`))))
      ?.karmadaFiles,
    history?.karmadaFiles,
  );
});

test.run();
