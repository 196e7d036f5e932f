import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runProgram } from '../helpers/runProgram.ts';
import { clusterYaml, makeConfigRepoWith, type ConfigRepo } from '../helpers/fleet.ts';
import { scopedPodinfo } from '../units/unitFixtures.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

// flux2-kustomize-helm-example's overlays, each scoped to its cluster by flotilla-unit.yaml, through the CLI as a
// user runs it on a scratch repo: render, explain, plan of a change to one overlay, verify, and the overlap error.
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const flotilla = (...args: string[]) => runProgram(process.execPath, [BIN, ...args]);
const RELEASE = (cluster: string) => `clusters/${cluster}/podinfo/helmrelease.helm.toolkit.fluxcd.io_podinfo.yaml`;
const valuesOf = (text: string) => /replicaCount: (\d+)/.exec(text)?.[1];

test('scoped overlays render, explain, plan and verify per cluster through the CLI; overlapping scopes are refused', async () => {
  const r = makeConfigRepoWith(
    repos,
    { ...scopedPodinfo(), 'clusters/qa.yaml': clusterYaml('qa', { labels: { env: 'qa' } }) },
    'podinfo overlays',
  );
  const render = await flotilla('render', '--repo', r.dir);
  assert.is(render.code, 0, render.stderr + render.stdout);
  assert.is(valuesOf(r.show('flotilla/rendered', RELEASE('staging'))), '1');
  assert.is(valuesOf(r.show('flotilla/rendered', RELEASE('production'))), '3');
  assert.not.ok(
    r.ls('flotilla/rendered').some((f) => f.startsWith('clusters/qa/')),
    'qa is in no scope',
  );

  const explain = await flotilla('explain', '--repo', r.dir, 'helmrelease/podinfo', '-n', 'podinfo');
  assert.is(explain.code, 0, explain.stderr);
  assert.match(
    explain.stdout,
    /\n {2}source: Kustomize folder apps\/production \(apps\/production\/kustomization\.yaml, options apps\/production\/flotilla-unit\.yaml; kustomize v[\d.]+\), apps\/base\/podinfo\/release\.yaml on production; Kustomize folder apps\/staging \(apps\/staging\/kustomization\.yaml, options apps\/staging\/flotilla-unit\.yaml; kustomize v[\d.]+\), apps\/base\/podinfo\/release\.yaml on staging\n/,
  );
  assert.match(
    explain.stdout,
    /\n {2}qa +filtered +- +ClusterAffinity: left out by the scope \(clusterAffinity in flotilla-unit\.yaml\) of units apps\/production, apps\/staging\n/,
  );

  // A pull request changing the staging overlay's values: the plan shows the staging cluster only, from apps/staging.
  r.git('checkout', '-q', '-b', 'feature');
  r.commit(
    {
      'apps/staging/podinfo-values.yaml': scopedPodinfo({ staging: 2, production: 3 })[
        'apps/staging/podinfo-values.yaml'
      ]!,
    },
    'staging: 2 replicas',
  );
  r.git('checkout', '-q', 'main');
  const plan = await flotilla('plan', '--repo', r.dir, '--base', 'main', '--head', 'feature', '-o', 'json');
  assert.is(plan.code, 1, plan.stderr);
  const parsed = JSON.parse(plan.stdout) as { clusters: Record<string, { changed: string[] }> };
  assert.equal(Object.keys(parsed.clusters), ['staging']);
  assert.equal(parsed.clusters.staging!.changed, ['helm.toolkit.fluxcd.io/v2/HelmRelease/podinfo/podinfo']);
  const text = await flotilla('plan', '--repo', r.dir, '--base', 'main', '--head', 'feature');
  assert.match(text.stdout, /\n {2}HelmRelease podinfo\/podinfo on staging: Kustomize folder apps\/staging \(/);
  assert.not.match(text.stdout, /apps\/production/);
  const markdown = await flotilla('plan', '--repo', r.dir, '--base', 'main', '--head', 'feature', '-o', 'markdown');
  assert.match(markdown.stdout, /\n- HelmRelease podinfo\/podinfo on staging: Kustomize folder apps\/staging \\\(/);

  // A pull request narrowing production's scope: the plan says why production loses the objects.
  r.git('checkout', '-q', '-b', 'narrow', 'main');
  r.commit(
    {
      'apps/production/flotilla-unit.yaml':
        'apiVersion: flotilla.io/v1alpha1\nkind: KustomizeUnit\nspec:\n  clusterAffinity:\n    clusterNames: [nowhere]\n',
    },
    'production scope narrowed',
  );
  r.git('checkout', '-q', 'main');
  const narrow = await flotilla('plan', '--repo', r.dir, '--base', 'main', '--head', 'narrow');
  assert.match(narrow.stdout, /\nproduction +0 +0 +3\n/);
  assert.match(
    narrow.stdout,
    // qa is in no scope: the same reason, said once for both.
    /\n {4}production, qa: filtered — ClusterAffinity: left out by the scope \(clusterAffinity in flotilla-unit\.yaml\) of units apps\/production, apps\/staging\n/,
  );
  assert.match(
    narrow.stdout,
    /Namespace podinfo: Placed — .* only to the clusters the clusterAffinity of units apps\/production, apps\/staging selects/,
  );

  // Merged: sync renders it, and verify replays every render byte for byte.
  r.git('merge', '-q', '--ff-only', 'feature');
  const sync = await flotilla('sync', '--repo', r.dir);
  assert.is(sync.code, 0, sync.stderr + sync.stdout);
  assert.is(valuesOf(r.show('flotilla/rendered', RELEASE('staging'))), '2');
  const verify = await flotilla('verify', '--repo', r.dir);
  assert.is(verify.code, 0, verify.stdout + verify.stderr);
  const history = await flotilla(
    'history',
    '--repo',
    r.dir,
    'HelmRelease/podinfo',
    '-n',
    'podinfo',
    '--cluster',
    'staging',
  );
  assert.is(history.code, 0, history.stderr);
  assert.match(history.stdout, /^source: Kustomize folder apps\/staging \(/);

  // Both scopes selecting production: one error naming the cluster and both units, at the later unit's object.
  r.commit(
    {
      'apps/staging/flotilla-unit.yaml':
        'apiVersion: flotilla.io/v1alpha1\nkind: KustomizeUnit\nspec:\n  clusterAffinity:\n    clusterNames: [staging, production]\n',
    },
    'staging scope widened',
  );
  const validate = await flotilla('validate', '--repo', r.dir);
  assert.is(validate.code, 1, validate.stdout);
  assert.match(
    validate.stdout,
    /apps\/staging\/kustomization\.yaml:1:1 +error +DUPLICATE_OBJECT +HelmRelease podinfo\/podinfo \(helm\.toolkit\.fluxcd\.io\/v2\) is output by apps\/production and apps\/staging, whose clusterAffinity both select cluster production/,
  );
  assert.match(
    validate.stdout,
    /fix: narrow the clusterAffinity of one of them \(apps\/production\/flotilla-unit\.yaml or apps\/staging\/flotilla-unit\.yaml\)/,
  );
});

test.run();
