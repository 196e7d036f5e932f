import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { getCommand } from '../../src/commands/getCommand.ts';
import { configureToolSearch } from '../../src/units/unitTools.ts';
import { makeConfigRepoWith, MEMBERS } from '../helpers/fleet.ts';
import { widget, widgetCrd } from '../helpers/widgets.ts';
import { unitSuite } from '../helpers/unitSuite.ts';

const SOURCE = 'refs/heads/main';
const OUT = 'refs/heads/flotilla/rendered';
const { repos, original } = unitSuite(test);

const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata:
  name: cluster-wide
spec:
  resourceSelectors:
    - {apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole}
    - {apiVersion: example.com/v1, kind: Widget}
  placement:
    clusterAffinity:
      clusterNames: [member1]
`;

/** The members, the policy and the Widget CRD beside a chart in chart/ that installs into namespace web. */
const CHART_IN_WEB = {
  ...MEMBERS,
  'policies/cluster-wide.yaml': POLICY,
  'crds/widgets.yaml': widgetCrd('Cluster'),
  'chart/Chart.yaml': 'apiVersion: v2\nname: chart\nversion: 0.1.0\n',
  'chart/flotilla-unit.yaml': 'apiVersion: flotilla.io/v1alpha1\nkind: HelmUnit\nspec:\n  namespace: web\n',
};

test("a chart's or kustomization's cluster-scoped objects have no namespace in their output, whatever the release or the kustomization's namespace:, as Argo CD and the API server drop it", async () => {
  configureToolSearch(original);
  const r = makeConfigRepoWith(
    repos,
    {
      ...CHART_IN_WEB,
      // Charts often write the release namespace on every object, cluster-scoped ones included.
      'chart/templates/rbac.yaml': `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: reader
  namespace: {{ .Release.Namespace }}
rules: []
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: writer
rules: []
`,
      // kustomize sets its namespace: on every kind it does not know as cluster-scoped, custom ones included.
      'team/kustomization.yaml': 'namespace: team\nresources: [widget.yaml]\n',
      'team/widget.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: gadget\n',
    },
    'cluster-scoped',
  );
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  const written = r.ls('flotilla/rendered').filter((f) => f.startsWith('clusters/member1/'));
  assert.equal(written.sort(), [
    'clusters/member1/_cluster/clusterrole.rbac.authorization.k8s.io_reader.yaml',
    'clusters/member1/_cluster/clusterrole.rbac.authorization.k8s.io_writer.yaml',
    'clusters/member1/_cluster/widget.example.com_gadget.yaml',
  ]);
  for (const f of written) assert.not.match(r.show('flotilla/rendered', f), /\n {2}namespace:/, f);

  // get finds them by their cluster-scoped identity, and shows them as the output branch holds them.
  let out = '';
  const code = await getCommand(['clusterrole', 'reader', '-o', 'yaml', '--repo', r.dir], {
    out: (s) => {
      out += s;
    },
    err: () => {},
    now: () => new Date(),
  });
  assert.is(code, 0);
  assert.match(out, /name: reader/, out);
  assert.not.match(out, /namespace:/, 'shown as the output branch writes it, without the release namespace');

  r.commit(
    {
      'chart/templates/rbac.yaml': r
        .show('HEAD', 'chart/templates/rbac.yaml')
        .replace('rules: []', 'rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]'),
    },
    'reader reads pods',
  );
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.match(r.show('flotilla/rendered', written[0]!), /pods/);
  assert.not.match(r.show('flotilla/rendered', written[0]!), /\n {2}namespace:/);
  assert.ok((await verifyOutput(await openRepo(r.dir), { outputRef: OUT })).ok);

  r.commit({ 'chart/templates/rbac.yaml': r.show('HEAD', 'chart/templates/rbac.yaml').split('---')[0]! }, 'no writer');
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.not.ok(r.ls('flotilla/rendered').includes(written[1]!), 'the ClusterRole the chart no longer outputs is gone');
  assert.ok((await verifyOutput(await openRepo(r.dir), { outputRef: OUT })).ok);
});

test("a sync that re-renders a unit keeps its custom cluster-scoped objects cluster-scoped when their CRD's file did not change, as a cold render does", async () => {
  configureToolSearch(original);
  const r = makeConfigRepoWith(
    repos,
    {
      ...CHART_IN_WEB,
      'chart/values.yaml': 'count: 1\n',
      'chart/templates/widget.yaml': widget('from-chart', 0).replace('count: 0', 'count: {{ .Values.count }}'),
      'team/kustomization.yaml': 'namespace: team\nresources: [widget.yaml]\n',
      'team/widget.yaml': widget('from-kustomize', 1),
      'plain/widget.yaml': widget('from-file', 1),
    },
    'widgets',
  );
  const paths = () =>
    r.ls('flotilla/rendered').filter((f) => f.startsWith('clusters/member1/widget') || f.includes('/widget.'));
  const expected = [
    'clusters/member1/_cluster/widget.example.com_from-chart.yaml',
    'clusters/member1/_cluster/widget.example.com_from-file.yaml',
    'clusters/member1/_cluster/widget.example.com_from-kustomize.yaml',
  ];
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(paths().sort(), expected);

  r.commit(
    {
      'chart/values.yaml': 'count: 2\n',
      'team/widget.yaml': widget('from-kustomize', 2),
      'plain/widget.yaml': widget('from-file', 2),
    },
    'every widget changes, their CRD does not',
  );
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(paths().sort(), expected);
  assert.match(r.show('flotilla/rendered', expected[0]!), /count: 2/, r.show('flotilla/rendered', expected[0]!));
  assert.ok((await verifyOutput(await openRepo(r.dir), { outputRef: OUT })).ok);
});

test.run();
