import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding } from '../../src/api/binding.ts';
import { describeTemplate } from '../../src/views/describeTemplate.ts';
import { replicasFromMembers } from '../../src/views/replicasFromMembers.ts';

const HPA = 'autoscaling/v2/HorizontalPodAutoscaler/default/web';
const web = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 2, paused: false },
};

test("replicasFromMembers: an HPA-governed workload shows the members' count as its desired replicas", () => {
  const synced = replicasFromMembers(web, { scaledBy: [HPA] }, { replicas: 5, readyReplicas: 5 });
  assert.equal(synced.spec, { replicas: 5, paused: false });
  assert.is(web.spec.replicas, 2, 'the input is not changed');
});

test("replicasFromMembers: Git's count without an HPA, or before the members reported one", () => {
  assert.is(replicasFromMembers(web, {}, { replicas: 5 }), web);
  assert.is(replicasFromMembers(web, undefined, { replicas: 5 }), web);
  assert.is(replicasFromMembers(web, { scaledBy: [HPA] }, undefined), web);
  assert.is(replicasFromMembers(web, { scaledBy: [HPA] }, { readyReplicas: 1 }), web);
});

const binding = {
  apiVersion: 'work.karmada.io/v1alpha2',
  kind: 'ResourceBinding',
  metadata: { name: 'web-deployment', namespace: 'default' },
  spec: {
    resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' },
    replicas: 2,
    clusters: [{ name: 'member1', replicas: 2 }],
  },
} as unknown as ResourceBinding;
const status = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  status: { replicas: 5 },
  conditions: [],
  aggregatedStatus: [{ clusterName: 'member1', applied: true, health: 'Healthy' as const, status: { replicas: 5 } }],
};

test("describe: an HPA-governed workload's replicas are the members', with the HPA named and Git's count beside", () => {
  const text = describeTemplate({
    ref: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' },
    binding,
    bindingPath: 'bindings/x.yaml',
    index: { file: 'templates/web.yaml', clusters: ['member1'], scaledBy: [HPA] },
    status,
    history: [],
  });
  assert.match(
    text,
    /^Replicas:\s+5 on the members \(governed by HorizontalPodAutoscaler default\/web on each member; 2 in Git\)$/m,
  );
  assert.match(text, /^\s+member1\s+5\s+true\s+Healthy/m);
  const plain = describeTemplate({
    ref: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' },
    binding,
    bindingPath: 'bindings/x.yaml',
    index: { file: 'templates/web.yaml', clusters: ['member1'] },
    status,
    history: [],
  });
  assert.match(plain, /^Replicas:\s+2$/m);
  assert.match(plain, /^\s+member1\s+2\s+true\s+Healthy/m);
});

test.run();
