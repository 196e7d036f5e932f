import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import {
  clusterYaml,
  deployment,
  makeConfigRepoWith,
  PROD_AND_DEV_MEMBERS,
  type ConfigRepo,
} from '../helpers/fleet.ts';
import { assertVerifies } from './helpers/assertVerifies.ts';

// Karmada's IsWorkload: replicas, or replica requirements. A Deployment scaled to 0 whose pods request CPU is still a
// workload, divided to 0 everywhere and so placed nowhere; one without requests is a non-workload, sent everywhere.
const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const divided = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: prod
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
  placement:
    clusterAffinity:
      labelSelector:
        matchLabels: {env: prod}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
`;

function fleet(): ConfigRepo {
  return makeConfigRepoWith(
    repos,
    {
      ...PROD_AND_DEV_MEMBERS,
      'templates/idle.yaml': deployment('idle', 4),
      'templates/bare.yaml': deployment('bare', 0, { requests: false }),
      'policies/prod.yaml': divided,
    },
    'two prod members',
  );
}

const sync = async (r: ConfigRepo) => syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });
const files = (r: ConfigRepo, name: string) =>
  r
    .git('ls-tree', '-r', '--name-only', 'flotilla/rendered', 'clusters/')
    .split('\n')
    .filter((f) => f.endsWith(`deployment.apps_${name}.yaml`));
const bindingClusters = (r: ConfigRepo, name: string) =>
  (parse(r.show('flotilla/rendered', `bindings/default/${name}-deployment.yaml`)) as { spec: { clusters?: unknown[] } })
    .spec.clusters ?? [];

test('a workload with requests scaled to 0 leaves every cluster; a Deployment at 0 without requests goes to all', async () => {
  const r = fleet();
  await sync(r);
  assert.equal(files(r, 'idle'), [
    'clusters/member1/default/deployment.apps_idle.yaml',
    'clusters/member2/default/deployment.apps_idle.yaml',
  ]);
  assert.equal(files(r, 'bare'), [
    'clusters/member1/default/deployment.apps_bare.yaml',
    'clusters/member2/default/deployment.apps_bare.yaml',
  ]);
  r.commit({ 'templates/idle.yaml': deployment('idle', 0) }, 'idle scaled to 0');
  await sync(r);
  assert.equal(files(r, 'idle'), []);
  assert.equal(bindingClusters(r, 'idle'), []);
  await assertVerifies(r);
});

test('a Divided workload at 0 replicas is not rescheduled when a cluster joins its placement; a non-workload is', async () => {
  const r = fleet();
  r.commit({ 'templates/idle.yaml': deployment('idle', 0) }, 'idle at 0');
  await sync(r);
  r.commit({ 'clusters/member3.yaml': clusterYaml('member3', { labels: { env: 'prod' } }) }, 'member3 is prod');
  await sync(r);
  assert.equal(files(r, 'idle'), []);
  assert.equal(files(r, 'bare'), [
    'clusters/member1/default/deployment.apps_bare.yaml',
    'clusters/member2/default/deployment.apps_bare.yaml',
    'clusters/member3/default/deployment.apps_bare.yaml',
  ]);
  await assertVerifies(r);
  r.commit({ 'templates/idle.yaml': deployment('idle', 3) }, 'idle scaled to 3');
  await sync(r);
  assert.is(files(r, 'idle').length, 3);
  await assertVerifies(r);
});

test.run();
