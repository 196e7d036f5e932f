import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { clusterYaml, configMap, makeConfigRepo, type ConfigRepo } from '../helpers/fleet.ts';

// A change to namespaced policies only reaches the templates of their namespaces: the sync finds those in the output
// index without reading it whole, including templates no policy placed before (their entries hold no cluster), and
// renders what a cold render would.
const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const policy = (namespace: string, names: string[]) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: configmaps
  namespace: ${namespace}
spec:
  resourceSelectors:
${names.map((name) => `    - {apiVersion: v1, kind: ConfigMap, name: ${name}}`).join('\n')}
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
`;

const sync = async (r: ConfigRepo) => syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });

test('a namespaced policy that now selects an unplaced template of its namespace renders it, and nothing of another namespace', async () => {
  const r = makeConfigRepo();
  repos.push(r);
  const files: Record<string, string> = {
    'clusters/member1.yaml': clusterYaml('member1'),
    'clusters/member2.yaml': clusterYaml('member2'),
    'policies/shop.yaml': policy('shop', ['a']),
    'policies/billing.yaml': policy('billing', ['a', 'b']),
  };
  for (const ns of ['shop', 'billing'])
    for (const name of ['a', 'b', 'c']) files[`templates/${ns}/${name}.yaml`] = configMap(name, name, ns);
  r.commit(files, 'two namespaces, shop places a only');
  await sync(r);
  assert.throws(() => r.show('flotilla/rendered', 'clusters/member1/shop/configmap_b.yaml'));

  r.commit({ 'policies/shop.yaml': policy('shop', ['a', 'b']) }, 'shop places b too');
  const [report] = (await sync(r)).reports;
  assert.equal(
    [...(report?.explanations.keys() ?? [])].sort(),
    ['v1/ConfigMap/shop/a', 'v1/ConfigMap/shop/b'],
    'the templates the old or the new policy selects, in its namespace only',
  );
  assert.match(r.show('flotilla/rendered', 'clusters/member2/shop/configmap_b.yaml'), /namespace: shop/);
  const verified = await verifyOutput(await openRepo(r.dir), { outputRef: OUT });
  assert.ok(
    verified.ok,
    JSON.stringify({ differs: verified.differs, missing: verified.missing, extra: verified.extra }),
  );
});

test.run();
