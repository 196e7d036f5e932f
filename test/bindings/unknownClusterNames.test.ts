import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';

// A cluster name a policy writes that no Cluster registers: Karmada takes it and places nothing there, so a misspelt
// name moves replicas without a word. validate says where, with the registered name it resembles.

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const policy = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    clusterAffinity:
      clusterNames:
        - member1
        - membr2
`;
const override = `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  overrideRules:
    - targetCluster: {clusterNames: [member3, edge-7]}
      overriders: {labelsOverrider: [{operator: add, value: {tier: edge}}]}
`;
const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
`;

test("a policy's cluster name no Cluster registers is a warning at the name, with the nearest registered name", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/web.yaml': policy,
      'policies/web-override.yaml': override,
      'templates/web.yaml': deployment,
    },
    'typo',
  );
  const { model, output } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  const unknown = [...model.problems, ...output.problems].filter((p) => p.code === 'UNKNOWN_CLUSTER');
  assert.equal(
    unknown.map((p) => [p.file, p.line, p.severity]),
    [
      ['policies/web.yaml', 10, 'warning'],
      ['policies/web-override.yaml', 7, 'warning'],
    ],
  );
  assert.match(unknown[0]!.message, 'names cluster membr2 in spec.placement.clusterAffinity.clusterNames[1]');
  assert.match(unknown[0]!.message, 'did you mean member2?');
  assert.is(unknown[0]!.fix, 'rename it to member2, or register membr2 under clusters/');
  assert.match(unknown[1]!.message, 'names cluster edge-7 in spec.overrideRules[0].targetCluster.clusterNames[1]');
});

test.run();
