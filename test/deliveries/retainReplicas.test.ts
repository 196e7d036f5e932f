// An HPA in the member owns a Deployment's replicas when the template says so (resourcetemplate.karmada.io/
// retain-replicas=true): the next pass keeps the member's count instead of repairing it as drift. Real kubectl 1.32
// against an emulated member on loopback, a real config repo, reconcileOnce.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reconcileOnce, type ReconcileResult } from '../../src/reconcile.ts';
import { clusterYaml, deploymentPolicy } from '../helpers/fleet.ts';
import { startMemberFleet, type MemberFleet } from './helpers/e2e.ts';

let fleet: MemberFleet;

const deployment = (name: string, labels: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: default
  labels: {${labels}}
spec:
  replicas: 2
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
        - name: ${name}
          image: nginx:1.27
`;

const pass = () =>
  reconcileOnce({
    repo: fleet.repo,
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
    clusters: fleet.kubes,
    render: true,
    log: () => {},
  });
const result = (r: ReconcileResult, name: string) =>
  r.delivery!.clusters.get('member1')!.results.find((x) => x.ref.name === name && !x.prune)!;
const k = (...args: string[]) => fleet.kubectl(['--context', 'member1', ...args]);
const replicas = async (name: string) =>
  (await k('get', 'deployment', name, '-n', 'default', '-o', 'jsonpath={.spec.replicas}')).stdout;

test.before(async () => {
  fleet = await startMemberFleet(
    ['member1'],
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'policies/deployments.yaml': deploymentPolicy(['member1']),
      'templates/scaled.yaml': deployment('scaled', 'resourcetemplate.karmada.io/retain-replicas: "true"'),
      'templates/plain.yaml': deployment('plain', 'app: plain'),
    },
    'two deployments',
  );
  const first = await pass();
  assert.is(result(first, 'scaled').action, 'created');
  assert.is(await replicas('scaled'), '2', 'created with the replicas Git gives it');
});

test.after(async () => {
  await fleet?.cleanup();
});

test('retain-replicas: a member scaling the Deployment keeps its count; an unlabelled one is put back', async () => {
  for (const name of ['scaled', 'plain']) {
    const scaled = await k('scale', `deployment/${name}`, '-n', 'default', '--replicas=5');
    assert.is(scaled.code, 0, scaled.stderr);
  }
  const r = await pass();
  assert.is(result(r, 'scaled').action, 'unchanged', result(r, 'scaled').message);
  assert.is(await replicas('scaled'), '5');
  assert.is(result(r, 'plain').action, 'drift-repaired'); // the member's edit, not Git, changed it
  assert.is(await replicas('plain'), '2');
});

test.run();
