import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildCommit } from '../../src/commits/buildCommit.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { PackWriter } from '../../src/commits/PackWriter.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { readRef } from '../../src/commits/readRef.ts';
import { updateRef } from '../../src/commits/updateRef.ts';
import { writeTreeEdits } from '../../src/commits/writeTreeEdits.ts';
import { INDEX_PATH, shardOf, shardPath } from '../../src/branches/rendered/outputIndex.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { maskRenderStamps } from '../../src/audits/maskRenderStamps.ts';
import { configureToolSearch } from '../../src/units/unitTools.ts';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { widget, widgetCrd } from '../helpers/widgets.ts';
import { unitSuite } from '../helpers/unitSuite.ts';

// Whether a custom kind is cluster-scoped comes from its CRD, wherever that is: a plain file, a chart's or a
// kustomization's output. An incremental sync reads only what a change names, so it must still know every CRD's scope,
// and re-place every object of a kind whose scope a change gave or took: incremental = cold, at each step.

const SOURCE = 'refs/heads/main';
const OUT = 'refs/heads/flotilla/rendered';
const { repos, original } = unitSuite(test);

const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata:
  name: widgets
spec:
  resourceSelectors:
    - {apiVersion: example.com/v1, kind: Widget}
  placement:
    clusterAffinity:
      clusterNames: [member1]
`;

const CHART = {
  'chart/Chart.yaml': 'apiVersion: v2\nname: chart\nversion: 0.1.0\n',
  'chart/values.yaml': 'count: 1\n',
  'chart/flotilla-unit.yaml': 'apiVersion: flotilla.io/v1alpha1\nkind: HelmUnit\nspec:\n  namespace: web\n',
  'chart/templates/widget.yaml': widget('from-chart', 0).replace('count: 0', 'count: {{ .Values.count }}'),
};

/** The widgets' output paths on member1. */
function widgetPaths(r: ConfigRepo, ref: string): string[] {
  return r
    .ls(ref)
    .filter((f) => f.startsWith('clusters/member1/') && f.includes('widget.example.com_'))
    .sort();
}

/** Every file of an output ref, stamps masked (an incremental sync keeps the stamp of the commit that changed an object). */
function outputFiles(r: ConfigRepo, ref: string): Record<string, string> {
  return Object.fromEntries(r.ls(ref).map((f) => [f, maskRenderStamps(r.show(ref, f))]));
}

/** Syncs `OUT` (incremental after the first commit) and a fresh ref (cold), and checks both agree and verify. */
async function syncBothWays(r: ConfigRepo, step: string): Promise<string[]> {
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  const cold = `refs/heads/cold-${step.replace(/[^a-z0-9]+/gi, '-')}`;
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: cold });
  assert.equal(widgetPaths(r, OUT), widgetPaths(r, cold), step);
  assert.equal(outputFiles(r, OUT), outputFiles(r, cold), `${step}: the same files as cold`);
  const report = await verifyOutput(await openRepo(r.dir), { outputRef: OUT });
  assert.ok(report.ok, `${step}: ${JSON.stringify(report)}`);
  return widgetPaths(r, OUT);
}

test('custom objects are placed by the scope of their CRD however it arrives (plain file, chart or kustomization output), moves or goes, on incremental syncs as on a cold render', async () => {
  configureToolSearch(original);
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/widgets.yaml': POLICY,
      ...CHART,
      // The CRD comes only from the chart.
      'chart/templates/crd.yaml': widgetCrd('Cluster'),
      'team/kustomization.yaml': 'namespace: team\nresources: [widget.yaml]\n',
      'team/widget.yaml': widget('from-kustomize', 1),
      'plain/widget.yaml': widget('from-file', 1),
    },
    'widgets, their CRD in the chart',
  );
  const clusterScoped = [
    'clusters/member1/_cluster/widget.example.com_from-chart.yaml',
    'clusters/member1/_cluster/widget.example.com_from-file.yaml',
    'clusters/member1/_cluster/widget.example.com_from-kustomize.yaml',
  ];
  const namespaced = [
    'clusters/member1/default/widget.example.com_from-file.yaml',
    'clusters/member1/team/widget.example.com_from-kustomize.yaml',
    'clusters/member1/web/widget.example.com_from-chart.yaml',
  ];
  assert.equal(await syncBothWays(r, 'first'), clusterScoped);

  // A widget elsewhere changes, the chart does not: its CRD is known without rendering the chart again.
  r.commit({ 'plain/widget.yaml': widget('from-file', 2), 'team/widget.yaml': widget('from-kustomize', 2) }, 'counts');
  assert.equal(await syncBothWays(r, 'widgets change'), clusterScoped);

  // The chart makes its CRD namespaced: every widget, in every file and unit, moves into a namespace.
  r.commit({ 'chart/templates/crd.yaml': widgetCrd('Namespaced') }, 'namespaced');
  assert.equal(await syncBothWays(r, 'namespaced in the chart'), namespaced);

  // And cluster-scoped again.
  r.commit({ 'chart/templates/crd.yaml': widgetCrd('Cluster') }, 'cluster-scoped');
  assert.equal(await syncBothWays(r, 'cluster-scoped in the chart'), clusterScoped);

  // The CRD moves from the chart to a plain file: nothing moves.
  r.commit({ 'chart/templates/crd.yaml': null, 'crds/widgets.yaml': widgetCrd('Cluster') }, 'CRD to a file');
  assert.equal(await syncBothWays(r, 'chart to file'), clusterScoped);

  // From the plain file to the kustomization's output.
  r.commit(
    {
      'crds/widgets.yaml': null,
      'team/crd.yaml': widgetCrd('Cluster'),
      'team/kustomization.yaml': 'namespace: team\nresources: [widget.yaml, crd.yaml]\n',
    },
    'CRD to the kustomization',
  );
  assert.equal(await syncBothWays(r, 'file to kustomization'), clusterScoped);

  // The CRD is deleted: widgets are namespaced objects of an unknown kind, as a cold render places them.
  r.commit(
    { 'team/crd.yaml': null, 'team/kustomization.yaml': 'namespace: team\nresources: [widget.yaml]\n' },
    'no CRD',
  );
  assert.equal(await syncBothWays(r, 'deleted'), namespaced);

  // A plain file brings it back, cluster-scoped.
  r.commit({ 'crds/widgets.yaml': widgetCrd('Cluster') }, 'CRD back');
  assert.equal(await syncBothWays(r, 'back in a file'), clusterScoped);

  // A plain file makes it namespaced without touching any widget.
  r.commit({ 'crds/widgets.yaml': widgetCrd('Namespaced') }, 'namespaced file');
  assert.equal(await syncBothWays(r, 'namespaced in a file'), namespaced);
});

test('a cluster-scoped custom object has no namespace for overrides either: a selector naming namespace default does not rank a ClusterOverridePolicy above another', async () => {
  // Both add the label `winner`; the one applied last wins. Of equal implicit priority, the later name goes last.
  const overrides = (name: string, selectors: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata:
  name: ${name}
spec:
  resourceSelectors:
${selectors}
  overrideRules:
    - overriders:
        labelsOverrider:
          - {operator: add, value: {winner: ${name}}}
`;
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'crds/widgets.yaml': widgetCrd('Cluster'),
      'templates/widget.yaml': widget('big', 1),
      'policies/widgets.yaml': POLICY,
      // By name in namespace default (which a cluster-scoped Widget is not in), else by kind: it matches by kind only.
      'policies/b.yaml': overrides(
        'b',
        '    - {apiVersion: example.com/v1, kind: Widget, namespace: default, name: big}\n    - {apiVersion: example.com/v1, kind: Widget}',
      ),
      'policies/z.yaml': overrides('z', '    - {apiVersion: example.com/v1, kind: Widget}'),
    },
    'a cluster-scoped Widget and two ClusterOverridePolicies matching it by kind',
  );
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  const text = r.show('flotilla/rendered', 'clusters/member1/_cluster/widget.example.com_big.yaml');
  assert.match(text, /winner: z/);
});

/** The Widget CRD with a schema: `spec.count` an integer, `spec.size` defaulting to `size`. */
const defaultingCrd = (size: string) =>
  widgetCrd('Namespaced').replace(
    'schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}',
    `schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {count: {type: integer}, size: {type: string, default: ${size}}}}}}}`,
  );

test("custom objects render with their CRD's defaults, on incremental syncs as on a cold render, and again when the CRD's default changes", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/widgets.yaml': POLICY,
      'crds/widgets.yaml': defaultingCrd('small'),
      'plain/widget.yaml': widget('w', 1),
    },
    'a widget and its CRD',
  );
  const manifest = () => {
    const [path] = widgetPaths(r, OUT);
    return r.show(OUT, path!);
  };
  await syncBothWays(r, 'first');
  assert.match(manifest(), /size: small/);
  r.commit({ 'plain/widget.yaml': widget('w', 2) }, 'count');
  await syncBothWays(r, 'count');
  assert.match(manifest(), /count: 2\n\s+size: small/);
  r.commit({ 'crds/widgets.yaml': defaultingCrd('large') }, 'new default');
  await syncBothWays(r, 'new default');
  assert.match(manifest(), /size: large/);
});

test('an output branch whose index predates CRD schemas (its Karmada files only the cluster-scoped CRDs) is brought up once: the next incremental sync checks and defaults custom objects as a cold render does', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/widgets.yaml': POLICY,
      'crds/widgets.yaml': defaultingCrd('small'),
      'plain/widget.yaml': widget('w', 1),
      'plain/other.yaml': widget('o', 1),
    },
    'widgets and their namespaced CRD',
  );
  await syncBothWays(r, 'first');
  const crdFile = 'crds/widgets.yaml';
  assert.ok(JSON.parse(r.show(OUT, INDEX_PATH)).karmadaFiles.includes(crdFile));

  // The head as an earlier Flotilla wrote it: no rule in the root, the CRD's file no Karmada file, nothing defaulted.
  const repo = await openRepo(r.dir);
  const head = await readCommitInfo(repo, (await readRef(repo, OUT))!);
  const shard = shardPath(shardOf(crdFile));
  const root = JSON.parse(r.show(OUT, INDEX_PATH));
  const edits = new Map<string, string>([
    [
      INDEX_PATH,
      r
        .show(OUT, INDEX_PATH)
        .replace(/,"karmadaFilesRule":\d+/, '')
        .replace(
          JSON.stringify(root.karmadaFiles),
          JSON.stringify(root.karmadaFiles.filter((f: string) => f !== crdFile)),
        ),
    ],
    [
      shard,
      r
        .show(OUT, shard)
        .split('\n')
        .map((line) => (line.startsWith(`${JSON.stringify(crdFile)}:`) ? line.replace(',"karmada":true', '') : line))
        .join('\n'),
    ],
  ]);
  for (const path of widgetPaths(r, OUT)) edits.set(path, r.show(OUT, path).replace(/\n\s+size: small/, ''));
  assert.not.match(edits.get(shard)!, /"karmada":true/);
  assert.not.match(edits.get(INDEX_PATH)!, /karmadaFilesRule|crds\/widgets/);
  const pack = new PackWriter(repo);
  const tree = await writeTreeEdits(repo, pack, head.tree, edits);
  const older = buildCommit(pack, {
    tree,
    parents: head.parents,
    message: head.message,
    author: head.author,
    committer: head.committer,
  });
  await pack.flush();
  await updateRef(repo, OUT, older, head.oid);
  assert.not.match(r.show(OUT, widgetPaths(r, OUT)[0]!), /size: small/);

  // One custom object changes: its CRD is read, both objects render with its default, the rule is recorded.
  r.commit({ 'plain/widget.yaml': widget('w', 2) }, 'count');
  await syncBothWays(r, 'after upgrade');
  for (const path of widgetPaths(r, OUT)) assert.match(r.show(OUT, path), /size: small/, path);
  const upgraded = JSON.parse(r.show(OUT, INDEX_PATH));
  assert.is(upgraded.karmadaFilesRule, 2);
  assert.ok(upgraded.karmadaFiles.includes(crdFile));
  // From then on the CRD's file is read as every Karmada file is.
  r.commit({ 'plain/other.yaml': widget('o', 3) }, 'other count');
  await syncBothWays(r, 'steady');
  assert.match(r.show(OUT, widgetPaths(r, OUT).find((p) => p.endsWith('_o.yaml'))!), /count: 3\n\s+size: small/);
});

test.run();
