// A template renders as the apiserver would have stored it: an absent spec.replicas is 1, so a Deployment
// written without it is a workload of one replica, divided or duplicated as its policy says.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';

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
  const out = await renderFiles({
    'apps/web.yaml': deployment('web', true),
    'policies/apps.yaml': policy(DIVIDED_2_1),
  });
  assert.is(out.binding('web-deployment').spec.replicas, 1);
  assert.equal(out.binding('web-deployment').spec.clusters, [{ name: 'member1', replicas: 1 }]);
  assert.is(out.manifest('member1', 'deployment.apps_web.yaml')?.spec.replicas, 1);
  assert.is(out.manifest('member2', 'deployment.apps_web.yaml'), undefined);
});

test('a Deployment without replicas and without requests is a workload too: divided, not duplicated whole', async () => {
  const out = await renderFiles({
    'apps/web.yaml': deployment('web', false),
    'policies/apps.yaml': policy(DIVIDED_2_1),
  });
  assert.equal(out.binding('web-deployment').spec.clusters, [{ name: 'member1', replicas: 1 }]);
  assert.is(out.manifest('member1', 'deployment.apps_web.yaml')?.spec.replicas, 1);
  assert.is(out.manifest('member2', 'deployment.apps_web.yaml'), undefined);
});

test('Duplicated: every member gets replicas: 1 for a Deployment written without replicas', async () => {
  const out = await renderFiles({
    'apps/web.yaml': deployment('web', true),
    'policies/apps.yaml': policy('    replicaScheduling: {replicaSchedulingType: Duplicated}\n'),
  });
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

test('an OverridePolicy replacing /spec/replicas works on a Deployment written without them, as on the stored object in Karmada', async () => {
  const override = `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: web}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  overrideRules:
    - targetCluster: {clusterNames: [member2]}
      overriders:
        plaintext: [{path: /spec/replicas, operator: replace, value: 3}]
`;
  const out = await renderFiles({
    'apps/web.yaml': deployment('web', true),
    'policies/apps.yaml': policy('    replicaScheduling: {replicaSchedulingType: Duplicated}\n'),
    'policies/override.yaml': override,
  });
  assert.is(out.manifest('member1', 'deployment.apps_web.yaml')?.spec.replicas, 1);
  assert.is(out.manifest('member2', 'deployment.apps_web.yaml')?.spec.replicas, 3);
});

test("a policy selecting by label matches a Job that has only its pod template's labels (the apiserver copies them)", async () => {
  const job = `apiVersion: batch/v1
kind: Job
metadata: {name: report}
spec:
  template:
    metadata:
      labels: {team: data}
    spec:
      restartPolicy: Never
      containers: [{name: report, image: busybox}]
`;
  const byLabel = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: data}
spec:
  resourceSelectors:
    - apiVersion: batch/v1
      kind: Job
      labelSelector: {matchLabels: {team: data}}
  placement:
    clusterAffinity: {clusterNames: [member2]}
`;
  const out = await renderFiles({ 'apps/report.yaml': job, 'policies/data.yaml': byLabel });
  const m2 = out.manifest('member2', 'job.batch_report.yaml');
  assert.ok(m2, 'placed by the label selector');
  assert.is(m2.metadata.labels.team, 'data');
});

test.run();
