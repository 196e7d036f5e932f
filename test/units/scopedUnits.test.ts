import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { maskRenderStamps } from '../../src/audits/maskRenderStamps.ts';
import { clusterYaml, makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { GUESTBOOK_POLICY, helmGuestbook, scopedPodinfo } from './unitFixtures.ts';

const SOURCE = 'refs/heads/main';
const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const RELEASE = (cluster: string) => `clusters/${cluster}/podinfo/helmrelease.helm.toolkit.fluxcd.io_podinfo.yaml`;
const REPOSITORY = (cluster: string) =>
  `clusters/${cluster}/podinfo/helmrepository.source.toolkit.fluxcd.io_podinfo.yaml`;
const NAMESPACE = (cluster: string) => `clusters/${cluster}/_cluster/namespace_podinfo.yaml`;
const valuesOf = (text: string) => /replicaCount: (\d+)/.exec(text)?.[1];

/**
 * The output branch against cold renders of the source head, as paths that differ: one from nothing into a ref of its
 * own (the stamps that depend on render history masked, maskRenderStamps), and one that reads the whole commit on top
 * of the output before the last render, as an upgrade of the tools makes it (compared byte for byte: same tree id).
 */
async function againstColdRender(r: ConfigRepo): Promise<string[]> {
  r.git('update-ref', '-d', 'refs/heads/cold');
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: 'refs/heads/cold', maxCommits: 1 });
  const paths = new Set([...r.ls('flotilla/rendered'), ...r.ls('cold')]);
  const read = (ref: string, path: string) => (r.ls(ref).includes(path) ? maskRenderStamps(r.show(ref, path)) : null);
  const fromNothing = [...paths].filter((path) => read('flotilla/rendered', path) !== read('cold', path));
  // The previous output, said to be rendered with managed taints from a cluster-status file (which no render can read
  // again): the next render reads every unit and file again.
  const previous = r.git('rev-parse', 'flotilla/rendered~1');
  const message = `${r.git('log', '-1', '--format=%B', previous).trimEnd()}\nCluster-State: 0123456789abcdef\nCluster-Status: file\n`;
  const parents = r.git('log', '-1', '--format=%P', previous).split(' ').filter(Boolean);
  const copy = r.git(
    '-c',
    'user.name=Ada',
    '-c',
    'user.email=ada@example.com',
    'commit-tree',
    `${previous}^{tree}`,
    ...parents.flatMap((p) => ['-p', p]),
    '-m',
    message,
  );
  r.git('update-ref', 'refs/heads/cold-on-previous', copy);
  const { reports } = await syncRepo(await openRepo(r.dir), {
    sourceRef: SOURCE,
    outputRef: 'refs/heads/cold-on-previous',
    maxCommits: 1,
  });
  assert.ok(reports[0]!.full, 'a cold render');
  const onPrevious = r.git('diff', '--name-only', 'flotilla/rendered', 'cold-on-previous').split('\n').filter(Boolean);
  return [...fromNothing, ...onPrevious.map((path) => `${path} (on the previous output)`)];
}

test("flux2-kustomize-helm-example's overlays, each scoped to its cluster, are one HelmRelease whose values differ per cluster", async () => {
  const r = makeConfigRepoWith(repos, scopedPodinfo(), 'apps');
  const repo = await openRepo(r.dir);
  const { reports } = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(reports[0]!.problems, []);
  const files = r.ls('flotilla/rendered');
  for (const cluster of ['staging', 'production'])
    for (const file of [RELEASE(cluster), REPOSITORY(cluster), NAMESPACE(cluster)])
      assert.ok(files.includes(file), `${file} in\n${files.join('\n')}`);
  const staging = r.show('flotilla/rendered', RELEASE('staging'));
  const production = r.show('flotilla/rendered', RELEASE('production'));
  assert.is(valuesOf(staging), '1');
  assert.match(staging, /version: ">=1\.0\.0-alpha"/);
  assert.is(valuesOf(production), '3');
  assert.match(production, /version: ">=1\.0\.0"/);
  // One binding for the identity, as one Karmada API server holds one template: both clusters in it.
  const binding = r.show('flotilla/rendered', 'bindings/podinfo/podinfo-helmrelease.yaml');
  assert.match(binding, /- name: production\n(.*\n)*\s+- name: staging/);
  // Each overlay's file entry in the index lists the three objects by their keys, the cluster-scoped Namespace too.
  const shards = files.filter((f) => f.startsWith('.flotilla/index/')).map((f) => r.show('flotilla/rendered', f));
  for (const unit of ['apps/staging', 'apps/production'])
    assert.ok(
      shards.some((text) =>
        text.includes(
          `"${unit}/kustomization.yaml":{"templates":["helm.toolkit.fluxcd.io/v2/HelmRelease/podinfo/podinfo","source.toolkit.fluxcd.io/v1/HelmRepository/podinfo/podinfo","v1/Namespace//podinfo"]`,
        ),
      ),
      unit,
    );
  assert.ok((await verifyOutput(repo, { outputRef: OUT })).ok);
});

test("a change of the staging overlay's values re-renders the staging cluster only, incrementally, to what a cold render writes", async () => {
  const r = makeConfigRepoWith(repos, scopedPodinfo(), 'apps');
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  r.commit(
    {
      'apps/staging/podinfo-values.yaml': scopedPodinfo({ staging: 2, production: 3 })[
        'apps/staging/podinfo-values.yaml'
      ]!,
    },
    'staging: 2 replicas',
  );
  const { reports } = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.is(reports[0]!.full, false, 'incremental');
  assert.equal(reports[0]!.problems, []);
  assert.equal(Object.keys(reports[0]!.changes), ['staging']);
  assert.equal(reports[0]!.changes.staging?.changed, [RELEASE('staging')]);
  assert.is(valuesOf(r.show('flotilla/rendered', RELEASE('staging'))), '2');
  assert.is(valuesOf(r.show('flotilla/rendered', RELEASE('production'))), '3');
  assert.ok((await verifyOutput(repo, { outputRef: OUT })).ok);
  assert.equal(await againstColdRender(r), []);
});

test('scopes that both select a cluster are DUPLICATE_OBJECT naming the cluster and both units, with the fix to narrow one', async () => {
  const files = scopedPodinfo(undefined, 'labelSelector: {matchExpressions: [{key: env, operator: Exists}]}');
  const snapshot = await renderSnapshot(await openRepo(makeConfigRepoWith(repos, files, 'overlap').dir), 'HEAD');
  const duplicate = snapshot.model.problems.find(
    (p) => p.code === 'DUPLICATE_OBJECT' && p.message.startsWith('HelmRelease podinfo/podinfo'),
  );
  assert.ok(duplicate, JSON.stringify(snapshot.model.problems));
  assert.is(duplicate!.file, 'apps/staging/kustomization.yaml');
  assert.match(
    duplicate!.message,
    /output by apps\/production and apps\/staging, whose clusterAffinity both select cluster production/,
  );
  assert.match(
    duplicate!.fix,
    /^narrow the clusterAffinity of one of them \(apps\/production\/flotilla-unit\.yaml or apps\/staging\/flotilla-unit\.yaml\)/,
  );
  assert.not.ok(snapshot.model.templates.has('helm.toolkit.fluxcd.io/v2/HelmRelease/podinfo/podinfo'), 'held');
});

test('a scoped and an unscoped overlay outputting the same object stay a DUPLICATE_OBJECT', async () => {
  const files = { ...scopedPodinfo(), 'apps/staging/flotilla-unit.yaml': '' };
  delete (files as Record<string, string | undefined>)['apps/staging/flotilla-unit.yaml'];
  const snapshot = await renderSnapshot(await openRepo(makeConfigRepoWith(repos, files, 'one scoped').dir), 'HEAD');
  const duplicate = snapshot.model.problems.find(
    (p) => p.code === 'DUPLICATE_OBJECT' && p.message.startsWith('HelmRelease podinfo/podinfo'),
  );
  assert.ok(duplicate, JSON.stringify(snapshot.model.problems));
  assert.match(duplicate!.fix, /^give both a clusterAffinity in their flotilla-unit\.yaml/);
});

test('a cluster relabeled from one scope into the other gets the other variant on the next sync, as a cold render does', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...scopedPodinfo(undefined, 'labelSelector: {matchLabels: {env: staging}}'),
      'clusters/edge.yaml': clusterYaml('edge', { labels: { env: 'staging' } }),
    },
    'apps',
  );
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.is(valuesOf(r.show('flotilla/rendered', RELEASE('edge'))), '1');
  r.commit({ 'clusters/edge.yaml': clusterYaml('edge', { labels: { env: 'production' } }) }, 'edge joins production');
  const { reports } = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.is(reports[0]!.full, false, 'incremental');
  assert.equal(Object.keys(reports[0]!.changes), ['edge']);
  assert.is(valuesOf(r.show('flotilla/rendered', RELEASE('edge'))), '3');
  assert.ok((await verifyOutput(repo, { outputRef: OUT })).ok);
  assert.equal(await againstColdRender(r), []);

  // Out of every scope: its objects leave it.
  r.commit({ 'clusters/edge.yaml': clusterYaml('edge', { labels: { env: 'test' } }) }, 'edge in no scope');
  const out = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(
    out.reports[0]!.changes.edge?.removed.sort(),
    [NAMESPACE('edge'), RELEASE('edge'), REPOSITORY('edge')].sort(),
  );
  assert.ok((await verifyOutput(repo, { outputRef: OUT })).ok);
});

test('an overlay added, rescoped or failing later renders incrementally to what a cold render writes', async () => {
  const all = scopedPodinfo();
  const production = Object.fromEntries(Object.entries(all).filter(([p]) => !p.startsWith('apps/staging/')));
  const staging = Object.fromEntries(Object.entries(all).filter(([p]) => p.startsWith('apps/staging/')));
  const r = makeConfigRepoWith(
    repos,
    { ...production, 'clusters/edge.yaml': clusterYaml('edge', { labels: { env: 'edge' } }) },
    'production only',
  );
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.not.ok(r.ls('flotilla/rendered').includes(RELEASE('staging')), 'staging is in no scope yet');

  // The staging overlay arrives: the production unit, unchanged, is read for its variant.
  r.commit(staging, 'staging overlay');
  let sync = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.is(sync.reports[0]!.full, false);
  assert.equal(sync.reports[0]!.problems, []);
  assert.equal(Object.keys(sync.reports[0]!.changes), ['staging']);
  assert.is(valuesOf(r.show('flotilla/rendered', RELEASE('staging'))), '1');
  assert.equal(await againstColdRender(r), []);

  // Its scope takes edge too.
  r.commit(
    {
      'apps/staging/flotilla-unit.yaml':
        'apiVersion: flotilla.io/v1alpha1\nkind: KustomizeUnit\nspec:\n  clusterAffinity:\n    clusterNames: [staging, edge]\n',
    },
    'staging scope takes edge',
  );
  sync = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(Object.keys(sync.reports[0]!.changes), ['edge']);
  assert.is(valuesOf(r.show('flotilla/rendered', RELEASE('edge'))), '1');
  assert.equal(await againstColdRender(r), []);

  // A staging overlay that kustomize refuses holds the object on every cluster, production's variant included.
  const before = r.git('rev-parse', 'flotilla/rendered^{tree}');
  r.commit(
    {
      'apps/staging/kustomization.yaml': 'resources:\n  - ../base/podinfo\n  - missing.yaml\n',
      'apps/production/podinfo-values.yaml': all['apps/production/podinfo-values.yaml']!.replace(
        'replicaCount: 3',
        'replicaCount: 4',
      ),
    },
    'broken staging, production 4',
  );
  sync = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.ok(
    sync.reports[0]!.problems.some((p) => p.severity === 'error' && p.file === 'apps/staging/kustomization.yaml'),
    JSON.stringify(sync.reports[0]!.problems),
  );
  assert.is(valuesOf(r.show('flotilla/rendered', RELEASE('production'))), '3', 'held whole');
  assert.equal(
    r.git('diff', '--name-only', before, 'flotilla/rendered', '--', 'clusters'),
    '',
    'no cluster folder changed',
  );
  const v = await verifyOutput(repo, { outputRef: OUT });
  assert.ok(v.ok, JSON.stringify(v, null, 1));
});

test('two scoped Helm charts rendering one release give each cluster its own chart values', async () => {
  const unit = (scope: string) =>
    `apiVersion: flotilla.io/v1alpha1\nkind: HelmUnit\nspec:\n  releaseName: helm-guestbook\n  clusterAffinity:\n    ${scope}\n`;
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1, 'charts/staging'),
      ...helmGuestbook(3, 'charts/production'),
      'charts/staging/flotilla-unit.yaml': unit('clusterNames: [member1]'),
      'charts/production/flotilla-unit.yaml': unit('exclude: [member1]'),
      'policies/guestbook.yaml': GUESTBOOK_POLICY.replace(
        'clusterNames: [member1]',
        'clusterNames: [member1, member2]',
      ),
    },
    'two charts',
  );
  const repo = await openRepo(r.dir);
  const { reports } = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(reports[0]!.problems, []);
  const deployment = (cluster: string) =>
    r.show('flotilla/rendered', `clusters/${cluster}/default/deployment.apps_helm-guestbook.yaml`);
  assert.match(deployment('member1'), /\n {2}replicas: 1\n/);
  assert.match(deployment('member2'), /\n {2}replicas: 3\n/);
  assert.not.ok(
    r.ls('flotilla/rendered').some((f) => f.startsWith('clusters/member3/')),
    "member3 is in production's scope but not the policy's placement",
  );
  assert.ok((await verifyOutput(repo, { outputRef: OUT })).ok);
});

test('a relabeled cluster that both scopes now select holds the object with DUPLICATE_OBJECT on the next sync, and verify replays that', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...scopedPodinfo(undefined, 'labelSelector: {matchLabels: {team: web}}'),
      'clusters/staging.yaml': clusterYaml('staging', { labels: { env: 'staging', team: 'web' } }),
    },
    'apps',
  );
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  const before = r.git('rev-parse', 'flotilla/rendered^{tree}');
  r.commit(
    { 'clusters/production.yaml': clusterYaml('production', { labels: { env: 'production', team: 'web' } }) },
    'production joins team web',
  );
  const { reports } = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.is(reports[0]!.full, false, 'incremental');
  const duplicates = reports[0]!.problems.filter((p) => p.code === 'DUPLICATE_OBJECT');
  assert.equal(duplicates.length, 3, JSON.stringify(reports[0]!.problems));
  assert.ok(
    duplicates.every((p) => p.message.includes('both select cluster production')),
    duplicates.map((p) => p.message).join('\n'),
  );
  assert.equal(r.git('diff', '--name-only', before, 'flotilla/rendered', '--', 'clusters', 'bindings'), '', 'held');
  const verified = await verifyOutput(repo, { outputRef: OUT });
  assert.ok(verified.ok, JSON.stringify(verified));
});

test.run();
