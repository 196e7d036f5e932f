import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { DEFAULT_PARSE_LIMITS } from '../../src/documents/parseDocuments.ts';
import { readIgnoreRules } from '../../src/documents/readIgnoreRules.ts';
import { loadSource } from '../../src/outputs/loadSource.ts';
import { findClusterFile } from '../../src/registrations/findClusterFile.ts';
import { readUnitLayoutAt } from '../../src/units/readUnitObjects.ts';
import { readFleet, readRegisteredClusters } from '../../src/views/readFleet.ts';
import { commitAll, makeTempRepo, writeWorkTree } from '../commits/helpers/tempRepo.ts';

const CLUSTER =
  'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: member1\nspec:\n  syncMode: Pull\n';
const KUSTOMIZATION = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - cm.yaml\n';
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n';

/** The Clusters the views (get, describe, the dashboard) list for the commit. */
async function clustersInViews(repo: Awaited<ReturnType<typeof openRepo>>): Promise<string[]> {
  const fleet = await readFleet(repo, { rev: 'HEAD', renderedRef: 'refs/heads/none', statusRef: 'refs/heads/none' });
  return [...(await readRegisteredClusters(fleet)).keys()];
}

/** A commit whose ignore rules would leave out the Cluster file and the Kustomize folder, when they are read. */
async function commitWithIgnore(ignore: string) {
  const temp = makeTempRepo();
  writeWorkTree(temp, {
    '.flotillaignore': ignore,
    'clusters/member1.yaml': CLUSTER,
    'apps/web/kustomization.yaml': KUSTOMIZATION,
    'apps/web/cm.yaml': CM,
  });
  commitAll(temp);
  return { temp, repo: await openRepo(temp.path), tree: temp.git(['rev-parse', 'HEAD^{tree}']).trim() };
}

test('the ignore rules of a commit leave the same files out for the render, the views, the Cluster lookup and the units', async () => {
  const { temp, repo, tree } = await commitWithIgnore('clusters/\napps/\n');
  try {
    assert.is(await findClusterFile(repo, tree, 'member1', {}), null);
    assert.equal(await clustersInViews(repo), []);
    assert.equal((await readUnitLayoutAt(repo, tree, {})).units, []);
    const { model } = await loadSource(repo, tree, null);
    assert.is(model.clusters.size, 0);
    assert.equal(model.problems, []);
  } finally {
    temp.cleanup();
  }
});

test('an oversized .flotillaignore ignores nothing for any reader of the commit, and is FILE_TOO_LARGE once', async () => {
  const padding = `# ${randomBytes(DEFAULT_PARSE_LIMITS.maxFileBytes).toString('base64')}\n`;
  const { temp, repo, tree } = await commitWithIgnore(`clusters/\napps/\n${padding}`);
  try {
    const read = await readIgnoreRules(repo, tree);
    assert.is(read.rules, undefined);
    assert.equal(
      [read.problem?.file, read.problem?.line, read.problem?.code],
      ['.flotillaignore', 1, 'FILE_TOO_LARGE'],
    );
    assert.is((await findClusterFile(repo, tree, 'member1', {}))?.path, 'clusters/member1.yaml');
    assert.equal(await clustersInViews(repo), ['member1']);
    assert.equal(
      (await readUnitLayoutAt(repo, tree, {})).units.map((u) => u.marker),
      ['apps/web/kustomization.yaml'],
    );
    const { model } = await loadSource(repo, tree, null);
    assert.equal([...model.clusters.keys()], ['member1']);
    assert.equal(
      model.problems.map((p) => p.code),
      ['FILE_TOO_LARGE'],
    );
  } finally {
    temp.cleanup();
  }
});

test.run();
