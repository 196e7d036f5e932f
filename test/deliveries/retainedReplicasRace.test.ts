// The count Retain keeps is the member's as read: the apply carrying it is conditional on that read (Karmada's object
// watcher updates with the observed resourceVersion), so an HPA scaling between the read and the write is never
// undone. A scripted member: the HPA scales from 5 to 3 right after Flotilla's first read.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyClusterFolder } from '../../src/deliveries/applyClusterFolder.ts';
import type { KubeRequest } from '../../src/deliveries/KubeTarget.ts';
import { fakeKube, json, NO_WAIT } from './helpers/fakeKube.ts';

const APPS = { resources: [{ name: 'deployments', kind: 'Deployment', namespaced: true }] };
const PATH = '/apis/apps/v1/namespaces/d/deployments/web';
const labels = { 'karmada.io/managed': 'true', 'resourcetemplate.karmada.io/retain-replicas': 'true' };
const desired = (image: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'd', labels },
  spec: { replicas: 2, template: { spec: { containers: [{ name: 'c', image }] } } },
});
const live = (replicas: number, resourceVersion: string) => ({
  ...desired('nginx:1.27'),
  metadata: { ...desired('').metadata, resourceVersion },
  spec: { ...desired('nginx:1.27').spec, replicas },
});
const STALE = {
  kind: 'Status',
  status: 'Failure',
  reason: 'Conflict',
  code: 409,
  message:
    'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
};

function member(script: { reads: unknown[]; applies: ((body: any) => ReturnType<typeof json>)[] }) {
  let reads = 0;
  let applies = 0;
  return fakeKube('m', (req: KubeRequest) => {
    if (req.path === '/apis/apps/v1') return json(200, APPS);
    if (req.method === 'GET' && req.path === PATH)
      return json(200, script.reads[Math.min(reads++, script.reads.length - 1)]);
    if (req.method === 'PATCH' && req.path === PATH)
      return script.applies[Math.min(applies++, script.applies.length - 1)]!(JSON.parse(req.body!));
    return json(404, { message: 'not found' });
  });
}
const patches = (kube: ReturnType<typeof member>) =>
  kube.log.filter((q) => q.method === 'PATCH').map((q) => JSON.parse(q.body!));

test('an HPA scaling between the read and the apply makes the apply read again and keep the new count', async () => {
  const kube = member({
    reads: [live(5, '10'), live(3, '11')],
    applies: [() => json(409, STALE), (body) => json(200, body)],
  });
  const r = await applyClusterFolder({
    cluster: 'm',
    manifests: new Map([['p', desired('nginx:1.28')]]),
    kube,
    inventory: [],
    prune: false,
    retry: NO_WAIT,
  });
  assert.is(r.results[0]!.action, 'configured', r.results[0]!.message);
  assert.equal(
    patches(kube).map((b) => [b.metadata.resourceVersion, b.spec.replicas]),
    [
      ['10', 5],
      ['11', 3],
    ],
  );
});

test('a member that keeps changing under the apply fails the object for this pass, with the reason', async () => {
  const kube = member({ reads: [live(5, '10'), live(4, '11'), live(3, '12')], applies: [() => json(409, STALE)] });
  const r = await applyClusterFolder({
    cluster: 'm',
    manifests: new Map([['p', desired('nginx:1.28')]]),
    kube,
    inventory: [],
    prune: false,
    retry: NO_WAIT,
  });
  assert.is(r.results[0]!.action, 'failed');
  assert.match(r.results[0]!.message, /changed it while it was applied, 3 times in a row/);
  assert.is(patches(kube).length, 3);
});

test("only an apply that keeps the member's replicas is conditional; a field-manager conflict is not retried", async () => {
  const plain = {
    ...desired('nginx:1.28'),
    metadata: { ...desired('').metadata, labels: { 'karmada.io/managed': 'true' } },
  };
  const kube = member({
    reads: [live(5, '10')],
    applies: [
      () =>
        json(409, {
          ...STALE,
          message: 'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas',
          details: { causes: [{ field: '.spec.replicas' }] },
        }),
    ],
  });
  const r = await applyClusterFolder({
    cluster: 'm',
    manifests: new Map([['p', plain]]),
    kube,
    inventory: [],
    prune: false,
    retry: NO_WAIT,
  });
  assert.is(r.results[0]!.action, 'conflict');
  assert.equal(
    patches(kube).map((b) => [b.metadata.resourceVersion, b.spec.replicas]),
    [[undefined, 2]],
  );
});

test.run();
