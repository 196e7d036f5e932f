// A template renders as the apiserver would have stored it: an absent spec.replicas is 1, so a Deployment
// written without it is a workload of one replica, divided or duplicated as its policy says.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/configRepo.ts';

const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const deployment = (name: string, requests: boolean) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
        - name: server
          image: nginx${requests ? '\n          resources:\n            requests: {cpu: 100m, memory: 64Mi}' : ''}
`;

const policy = (scheduling: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: apps
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment}
    - {apiVersion: batch/v1, kind: Job}
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
${scheduling}`;

const DIVIDED_2_1 = `    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
          - {targetCluster: {clusterNames: [member1]}, weight: 2}
          - {targetCluster: {clusterNames: [member2]}, weight: 1}
`;

async function renderFiles(files: Record<string, string>) {
  const r = makeConfigRepoWith(repos, { ...MEMBERS, ...files }, 'apps');
  await renderRevision(await openRepo(r.dir), r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  const rendered = r.ls('flotilla/rendered');
  const manifest = (cluster: string, file: string) => {
    const p = `clusters/${cluster}/default/${file}`;
    return rendered.includes(p) ? parse(r.show('flotilla/rendered', p)) : undefined;
  };
  const binding = (name: string) => parse(r.show('flotilla/rendered', `bindings/default/${name}.yaml`));
  return { manifest, binding };
}

test('a Deployment without replicas, with requests, Divided 2:1: member1 gets the one replica, written as replicas: 1; member2 gets no Work', async () => {
  const out = await renderFiles({ 'apps/web.yaml': deployment('web', true), 'policies/apps.yaml': policy(DIVIDED_2_1) });
  assert.is(out.binding('web-deployment').spec.replicas, 1);
  assert.equal(out.binding('web-deployment').spec.clusters, [{ name: 'member1', replicas: 1 }]);
  assert.is(out.manifest('member1', 'deployment.apps_web.yaml')?.spec.replicas, 1);
  assert.is(out.manifest('member2', 'deployment.apps_web.yaml'), undefined);
});

test('a Deployment without replicas and without requests is a workload too: divided, not duplicated whole', async () => {
  const out = await renderFiles({ 'apps/web.yaml': deployment('web', false), 'policies/apps.yaml': policy(DIVIDED_2_1) });
  assert.equal(out.binding('web-deployment').spec.clusters, [{ name: 'member1', replicas: 1 }]);
  assert.is(out.manifest('member1', 'deployment.apps_web.yaml')?.spec.replicas, 1);
  assert.is(out.manifest('member2', 'deployment.apps_web.yaml'), undefined);
});

test('Duplicated: every member gets replicas: 1 for a Deployment written without replicas', async () => {
  const out = await renderFiles({ 'apps/web.yaml': deployment('web', true), 'policies/apps.yaml': policy('    replicaScheduling: {replicaSchedulingType: Duplicated}\n') });
  assert.is(out.manifest('member1', 'deployment.apps_web.yaml')?.spec.replicas, 1);
  assert.is(out.manifest('member2', 'deployment.apps_web.yaml')?.spec.replicas, 1);
});

test('a Job with neither parallelism nor completions is one replica with one completion, as Karmada sees it', async () => {
  const job = `apiVersion: batch/v1
kind: Job
metadata: {name: pi}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: pi, image: perl}]
`;
  const out = await renderFiles({ 'apps/pi.yaml': job, 'policies/apps.yaml': policy(DIVIDED_2_1) });
  assert.is(out.binding('pi-job').spec.replicas, 1);
  const m1 = out.manifest('member1', 'job.batch_pi.yaml');
  assert.is(m1?.spec.parallelism, 1);
  assert.is(m1?.spec.completions, 1);
  assert.is(out.manifest('member2', 'job.batch_pi.yaml'), undefined);
});

test.run();
