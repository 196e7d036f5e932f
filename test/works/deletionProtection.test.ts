// Karmada's resourcedeletionprotection webhook refuses to delete an object labelled
// resourcetemplate.karmada.io/deletion-protected: Always. A commit cannot be refused, so its render refuses the
// deletion: the last output stays, the commit has an error, and the object goes once a commit has taken the label off.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { readPlan } from '../../src/plans/readPlan.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import {
  clusterYaml,
  configMap,
  configMapPolicy,
  makeConfigRepo,
  RENDERED_REF,
  SOURCE_REF,
  type ConfigRepo,
} from '../helpers/fleet.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const MANIFEST = 'clusters/member1/default/configmap_settings.yaml';

function labelled(value: string | undefined): string {
  const labels = value === undefined ? '' : `  labels:\n    resourcetemplate.karmada.io/deletion-protected: ${value}\n`;
  return configMap('settings').replace('  namespace: default\n', `  namespace: default\n${labels}`);
}

function fleet(label: string | undefined): ConfigRepo {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit({
    'clusters/member1.yaml': clusterYaml('member1'),
    'policies/configmaps.yaml': configMapPolicy(['member1']),
    'templates/settings.yaml': labelled(label),
    'templates/other.yaml': configMap('other'),
  });
  return r;
}

async function sync(r: ConfigRepo) {
  const { reports } = await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
  return reports.flatMap((x) => x.problems);
}

test('deleting a template labelled deletion-protected: Always keeps its output, with an error at the file that held it', async () => {
  const r = fleet('Always');
  await sync(r);
  r.commit({ 'templates/settings.yaml': null }, 'delete settings');
  const problems = await sync(r);
  const refused = problems.filter((p) => p.code === 'DELETION_PROTECTED');
  assert.equal(
    refused.map((p) => `${p.severity} ${p.file}:${p.line}`),
    ['error templates/settings.yaml:1'],
  );
  assert.match(
    refused[0]!.message,
    'ConfigMap default/settings is labelled resourcetemplate.karmada.io/deletion-protected: Always',
  );
  assert.match(refused[0]!.fix, 'first push a commit that removes the label');
  assert.ok(r.ls(RENDERED_REF).includes(MANIFEST), 'the manifest stays on member1');
  assert.match(r.show(RENDERED_REF, MANIFEST), 'deletion-protected: Always');

  // Later commits keep refusing it: the deletion never slips through on an unrelated change.
  r.commit({ 'templates/other.yaml': configMap('other', 'changed') }, 'unrelated');
  await sync(r);
  assert.ok(r.ls(RENDERED_REF).includes(MANIFEST));
  const verified = await verifyOutput(await openRepo(r.dir), { outputRef: RENDERED_REF });
  assert.ok(verified.ok, JSON.stringify(verified));

  // As Karmada asks: the label off first, then the deletion.
  r.commit({ 'templates/settings.yaml': labelled(undefined) }, 'unprotect settings');
  assert.equal(
    (await sync(r)).filter((p) => p.code === 'DELETION_PROTECTED'),
    [],
  );
  assert.ok(r.ls(RENDERED_REF).includes(MANIFEST));
  assert.not.match(r.show(RENDERED_REF, MANIFEST), 'deletion-protected');
  r.commit({ 'templates/settings.yaml': null }, 'delete settings');
  assert.equal(
    (await sync(r)).filter((p) => p.code === 'DELETION_PROTECTED'),
    [],
  );
  assert.not.ok(r.ls(RENDERED_REF).includes(MANIFEST), 'deleted once unprotected');
});

test('only the value Always protects: another value, or none, lets the deletion through', async () => {
  for (const value of ['Never', '""', undefined]) {
    const r = fleet(value);
    await sync(r);
    assert.ok(r.ls(RENDERED_REF).includes(MANIFEST));
    r.commit({ 'templates/settings.yaml': null }, 'delete settings');
    assert.equal(
      (await sync(r)).filter((p) => p.code === 'DELETION_PROTECTED'),
      [],
      String(value),
    );
    assert.not.ok(r.ls(RENDERED_REF).includes(MANIFEST), String(value));
  }
});

test('a protected template moved to another file is not a deletion', async () => {
  const r = fleet('Always');
  await sync(r);
  r.commit({ 'templates/settings.yaml': null, 'apps/settings.yaml': labelled('Always') }, 'move settings');
  assert.equal(
    (await sync(r)).filter((p) => p.code === 'DELETION_PROTECTED'),
    [],
  );
  assert.ok(r.ls(RENDERED_REF).includes(MANIFEST));
});

test("a pull request's plan that deletes a protected template fails with the error at the object's line, and removes nothing", async () => {
  const r = fleet('Always');
  r.commit({ 'templates/settings.yaml': `${configMap('first')}---\n${labelled('Always')}` }, 'two documents');
  await sync(r);
  const base = r.git('rev-parse', 'HEAD');
  r.git('checkout', '-q', '-b', 'feature');
  r.commit({ 'templates/settings.yaml': configMap('first'), 'templates/other.yaml': null }, 'delete two');
  const plan = await readPlan(await openRepo(r.dir), { base, head: 'feature' });
  assert.equal(
    plan.errors.map((e) => `${e.code} ${e.file}:${e.line}`),
    ['DELETION_PROTECTED templates/settings.yaml:9'],
  );
  assert.equal(
    plan.clusters.member1?.removed.map((o) => o.ref),
    ['v1/ConfigMap/default/other'],
    'the unprotected ConfigMap goes, the protected one stays',
  );
});

// Karmada accepts a Namespace's deletion, but the namespace controller cannot delete a protected object in it (the
// webhook refuses), so the Namespace stays Terminating with everything on the members (resource_deletion_protection
// e2e, "Delete the no protected namespace, the deployment is protected").
test('deleting a Namespace that holds a protected template keeps the Namespace on its clusters, with a warning, until nothing in it is protected', async () => {
  const r = makeConfigRepo();
  repos.push(r);
  const NS = 'clusters/member1/_cluster/namespace_guarded.yaml';
  const CM = 'clusters/member1/guarded/configmap_settings.yaml';
  const inGuarded = (label: string | undefined) =>
    labelled(label).replace('  namespace: default\n', '  namespace: guarded\n');
  r.commit({
    'clusters/member1.yaml': clusterYaml('member1'),
    'policies/configmaps.yaml': configMapPolicy(['member1'], 'guarded'),
    'templates/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: guarded\n',
    'templates/settings.yaml': inGuarded('Always'),
    'templates/other.yaml': configMap('other'),
  });
  await sync(r);
  assert.ok(r.ls(RENDERED_REF).includes(NS) && r.ls(RENDERED_REF).includes(CM));

  r.commit({ 'templates/namespace.yaml': null, 'templates/settings.yaml': null }, 'delete the namespace');
  const problems = (await sync(r)).filter((p) => p.code === 'DELETION_PROTECTED');
  assert.equal(
    problems.map((p) => `${p.severity} ${p.file}`),
    ['error templates/settings.yaml', 'warning templates/namespace.yaml'],
  );
  assert.match(problems[1]!.message, 'Namespace guarded still holds ConfigMap guarded/settings');
  assert.ok(r.ls(RENDERED_REF).includes(NS), 'the Namespace stays');
  assert.ok(r.ls(RENDERED_REF).includes(CM), 'and the protected ConfigMap in it');
  // A plan of the same deletion removes neither.
  const plan = await readPlan(await openRepo(r.dir), { base: 'HEAD~1', head: 'HEAD' });
  assert.equal(plan.clusters.member1?.removed ?? [], []);

  r.commit({ 'templates/other.yaml': configMap('other', 'changed') }, 'unrelated');
  await sync(r);
  assert.ok(r.ls(RENDERED_REF).includes(NS), 'kept through unrelated commits');
  const verified = await verifyOutput(await openRepo(r.dir), { outputRef: RENDERED_REF });
  assert.ok(verified.ok, JSON.stringify(verified));

  // The ConfigMap back without the label: nothing protected is left in the namespace, which goes on this render.
  r.commit({ 'templates/settings.yaml': inGuarded(undefined) }, 'unprotect settings');
  assert.equal(
    (await sync(r)).filter((p) => p.code === 'DELETION_PROTECTED'),
    [],
  );
  assert.not.ok(r.ls(RENDERED_REF).includes(NS), 'the Namespace goes once nothing in it is protected');
});

test.run();
