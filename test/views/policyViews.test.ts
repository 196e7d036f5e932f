// `flotilla get pp|cpp|op|cop` list Karmada's policies from the source head as kubectl does against Karmada: the
// CRDs' printer columns (CONFLICT-RESOLUTION and PRIORITY for propagation policies, with the webhook defaults),
// NAME and AGE for the others, -n/-A for the namespaced ones, -o yaml|json|name; nothing rendered is needed.
import { test } from 'uvu';
import { runReadCommand } from './helpers/fleetRepo.ts';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { describeCommand } from '../../src/commands/describeCommand.ts';
import { getCommand } from '../../src/commands/getCommand.ts';
import { authorEnv, commitAs, makeNginxRepo, writeWorkTree, type TempRepo } from '../plans/helpers/nginxRepo.ts';

let repo: TempRepo;
// makeNginxRepo commits at 1700000100; the policies below come 30 minutes later; "now" is one hour after the first.
const NOW = new Date((1_700_000_100 + 3600) * 1000);

test.before(() => {
  ({ repo } = makeNginxRepo());
  writeWorkTree(repo, {
    'policies/cluster.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: everywhere}
spec:
  priority: 5
  conflictResolution: Overwrite
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata: {name: registry}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  overrideRules: [{overriders: {imageOverrider: [{component: Registry, operator: replace, value: mirror.example}]}}]
`,
    'policies/shop.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: shop, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement: {clusterAffinity: {clusterNames: [member2]}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: shop-labels, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  overrideRules: [{overriders: {labelsOverrider: [{operator: add, value: {team: shop}}]}}]
`,
  });
  commitAs(repo, 'More policies', authorEnv('Ada', 'ada@example.com', 1_700_000_100 + 1800));
});
test.after(() => repo.cleanup());

const get = (...args: string[]) => runReadCommand(getCommand, repo.path, NOW, args);

test("get pp: the CRD's printer columns with the webhook's defaults, the default namespace unless -n or -A", async () => {
  assert.is(
    (await get('pp')).out,
    'NAME                CONFLICT-RESOLUTION   PRIORITY   AGE\nnginx-propagation   Abort                 0          60m\n',
  );
  assert.is(
    (await get('propagationpolicies', '-A')).out,
    [
      'NAMESPACE   NAME                CONFLICT-RESOLUTION   PRIORITY   AGE',
      'default     nginx-propagation   Abort                 0          60m',
      'shop        shop                Abort                 0          30m',
      '',
    ].join('\n'),
  );
  assert.is(
    (await get('propagationpolicy.policy.karmada.io', '-n', 'shop', 'shop', '-o', 'name')).out,
    'propagationpolicy.policy.karmada.io/shop\n',
  );
});

test('get cpp, op, cop: cluster-scoped ones have no NAMESPACE, override policies NAME and AGE only', async () => {
  assert.is(
    (await get('cpp', '-A')).out,
    'NAME         CONFLICT-RESOLUTION   PRIORITY   AGE\neverywhere   Overwrite             5          30m\n',
  );
  assert.is((await get('op', '-n', 'shop')).out, 'NAME          AGE\nshop-labels   30m\n');
  assert.is((await get('clusteroverridepolicies')).out, 'NAME       AGE\nregistry   30m\n');
  const none = await get('op');
  assert.is(none.code, 0);
  assert.is(none.err, 'No resources found in default namespace.\n');
});

test('-o yaml shows the policy as admitted (defaults applied); a missing name is not found', async () => {
  const pp = parse((await get('pp', 'nginx-propagation', '-o', 'yaml')).out);
  assert.is(pp.kind, 'PropagationPolicy');
  assert.is(pp.spec.conflictResolution, 'Abort');
  assert.is(pp.spec.priority, 0);
  const list = JSON.parse((await get('cop', '-o', 'json')).out);
  assert.is(list.kind, 'List');
  assert.equal(
    list.items.map((i: { metadata: { name: string } }) => i.metadata.name),
    ['registry'],
  );
  const missing = await get('cpp', 'nowhere');
  assert.is(missing.code, 1);
  assert.is(
    missing.err,
    'Error from server (NotFound): clusterpropagationpolicies.policy.karmada.io "nowhere" not found\n',
  );
});

const describe = (...args: string[]) => runReadCommand(describeCommand, repo.path, NOW, args);

test("describe pp/cop: kubectl's generic describer over the admitted policy, its file's commits as events", async () => {
  const shop = await describe('pp', 'shop', '-n', 'shop');
  assert.is(
    shop.out,
    `Name:         shop
Namespace:    shop
Labels:       <none>
Annotations:  <none>
API Version:  policy.karmada.io/v1alpha1
Kind:         PropagationPolicy
Metadata:
Spec:
  Conflict Resolution:  Abort
  Placement:
    Cluster Affinity:
      Cluster Names:
        member2
  Preemption:  Never
  Priority:    0
  Resource Selectors:
    API Version:   apps/v1
    Kind:          Deployment
    Namespace:     shop
  Scheduler Name:  default-scheduler
Events:
  Type    Reason     Age   From  Message
  ----    ------     ----  ----  -------
  Normal  Committed  30m   Ada   More policies (${shop.out.match(/More policies \(([0-9a-f]{12})\)/)?.[1]})
`,
  );
  const cop = (await describe('cop', 'registry')).out;
  assert.match(cop, /^Name:         registry\nNamespace:    \n/);
  assert.match(cop, '      Image Overrider:\n        Component:  Registry\n        Operator:   replace\n');
  const missing = await describe('pp', 'shop');
  assert.is(missing.code, 1);
  assert.is(missing.err, 'Error from server (NotFound): propagationpolicies.policy.karmada.io "shop" not found\n');
});

test.run();
