import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { configureToolSearch } from '../../src/units/unitTools.ts';
import { makeConfigRepoWith, MEMBERS } from '../helpers/fleet.ts';
import { unitSuite } from '../helpers/unitSuite.ts';

const SOURCE = 'refs/heads/main';
const OUT = 'refs/heads/flotilla/rendered';
const { repos, original } = unitSuite(test);

const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata:
  name: config
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: ConfigMap}
  placement:
    clusterAffinity:
      clusterNames: [member1]
`;

test('an object whose namespace is empty or null is written in the namespace it is placed in: the release namespace for a chart, default for a file, as the API server fills it in from the request', async () => {
  configureToolSearch(original);
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/config.yaml': POLICY,
      'chart/Chart.yaml': 'apiVersion: v2\nname: chart\nversion: 0.1.0\n',
      'chart/flotilla-unit.yaml': 'apiVersion: flotilla.io/v1alpha1\nkind: HelmUnit\nspec:\n  namespace: web\n',
      // A chart's common idiom: a namespace override that is unset renders `namespace:` with nothing after it.
      'chart/templates/config.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: override-unset
  namespace: {{ .Values.namespaceOverride }}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: empty
  namespace: ""
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: absent
`,
      'templates/plain.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\n  namespace: ""\n',
    },
    'empty namespaces',
  );
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  const namespaceIn = (file: string) =>
    (parse(r.show('flotilla/rendered', file)) as { metadata: { namespace?: unknown } }).metadata.namespace;
  for (const name of ['override-unset', 'empty', 'absent'])
    assert.is(namespaceIn(`clusters/member1/web/configmap_${name}.yaml`), 'web', name);
  assert.is(namespaceIn('clusters/member1/default/configmap_plain.yaml'), 'default');
});

test.run();
