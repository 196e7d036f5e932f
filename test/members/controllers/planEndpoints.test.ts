// The endpoints controller's sync as a pure function: what Kubernetes' syncService and RepackSubsets make of a
// Service and its pods, and when the stored Endpoints are left alone.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_ENDPOINTS_CAPACITY, planEndpoints } from '../../../src/members/controllers/planEndpoints.ts';
import type { KubeObject } from '../../../src/members/types.ts';

const service = (
  spec: Record<string, unknown> = {},
  labels: Record<string, string> = { tier: 'front' },
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: 'default', uid: 'svc-uid', labels },
  spec: {
    selector: { app: 'web' },
    clusterIP: '10.96.0.20',
    ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }],
    ...spec,
  },
});

const pod = (
  name: string,
  ip: string | undefined,
  options: { ready?: boolean; deleting?: boolean; named?: boolean; phase?: string; hostname?: string } = {},
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'default',
    uid: `uid-${name}`,
    labels: { app: 'web' },
    ...(options.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
  },
  spec: {
    nodeName: 'node-1',
    ...(options.hostname ? { hostname: options.hostname, subdomain: 'web' } : {}),
    containers: [
      { name: 'c', ports: options.named === false ? [] : [{ name: 'http', containerPort: 8080, protocol: 'TCP' }] },
    ],
  },
  status: {
    phase: options.phase ?? 'Running',
    ...(ip ? { podIP: ip, podIPs: [{ ip }] } : {}),
    conditions: [{ type: 'Ready', status: options.ready === false ? 'False' : 'True' }],
  },
});

const address = (name: string, ip: string) => ({
  ip,
  nodeName: 'node-1',
  targetRef: { kind: 'Pod', namespace: 'default', name, uid: `uid-${name}` },
});
const HTTP = { name: 'http', port: 8080, protocol: 'TCP' };

test('ready pods are addresses and unready ones notReadyAddresses of one subset, sorted by IP; labels are the Service labels', () => {
  const ep = planEndpoints(
    service(),
    [pod('c', '10.0.0.10'), pod('a', '10.0.0.9'), pod('b', '10.0.0.3', { ready: false })],
    undefined,
  )!;
  assert.equal(ep, {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'web', namespace: 'default', labels: { tier: 'front' } },
    subsets: [
      {
        addresses: [address('a', '10.0.0.9'), address('c', '10.0.0.10')],
        notReadyAddresses: [address('b', '10.0.0.3')],
        ports: [HTTP],
      },
    ],
  });
});

test('left out: pods without an IP, finished, terminating (unless publishNotReadyAddresses), or of another selector; no subsets at all when none is left', () => {
  const pods = [
    pod('no-ip', undefined),
    pod('done', '10.0.0.4', { phase: 'Succeeded' }),
    pod('leaving', '10.0.0.5', { deleting: true }),
    { ...pod('other', '10.0.0.6'), metadata: { ...pod('other', '10.0.0.6').metadata, labels: { app: 'db' } } },
  ];
  assert.equal(planEndpoints(service(), pods, undefined)!.subsets, undefined);
  const published = planEndpoints(service({ publishNotReadyAddresses: true }), pods, undefined)!;
  assert.equal(published.subsets, [{ addresses: [address('leaving', '10.0.0.5')], ports: [HTTP] }]);
});

test('a pod lacking the named targetPort is not listed for it; each subset holds the addresses that offer the same ports', () => {
  const svc = service({
    ports: [
      { name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' },
      { name: 'metrics', port: 9090, targetPort: 9090, protocol: 'TCP' },
    ],
  });
  const ep = planEndpoints(svc, [pod('a', '10.0.0.1'), pod('b', '10.0.0.2', { named: false })], undefined)!;
  const metrics = { name: 'metrics', port: 9090, protocol: 'TCP' };
  assert.equal(
    ep.subsets.map((x: unknown) => JSON.stringify(x)).sort(),
    [
      JSON.stringify({ addresses: [address('a', '10.0.0.1')], ports: [HTTP] }),
      JSON.stringify({ addresses: [address('a', '10.0.0.1'), address('b', '10.0.0.2')], ports: [metrics] }),
    ].sort(),
  );
});

test('a headless Service without ports lists its pods with their hostname, and is labelled headless', () => {
  const ep = planEndpoints(
    service({ clusterIP: 'None', ports: [] }),
    [pod('a', '10.0.0.1', { hostname: 'a' })],
    undefined,
  )!;
  assert.equal(ep.metadata.labels, { tier: 'front', 'service.kubernetes.io/headless': '' });
  assert.equal(ep.subsets, [{ addresses: [{ ...address('a', '10.0.0.1'), hostname: 'a' }] }]);
});

test('stored Endpoints that already say the same are left alone; a changed pod or label rewrites them', () => {
  const first = planEndpoints(service(), [pod('a', '10.0.0.1')], undefined)!;
  const stored = { ...first, metadata: { ...first.metadata, uid: 'ep-uid', resourceVersion: '7' } };
  assert.is(planEndpoints(service(), [pod('a', '10.0.0.1')], stored), undefined);
  const scaled = planEndpoints(service(), [pod('a', '10.0.0.1'), pod('b', '10.0.0.2')], stored)!;
  assert.is(scaled.metadata.resourceVersion, '7', 'an update of the stored object');
  assert.is(scaled.subsets[0].addresses.length, 2);
  assert.equal(planEndpoints(service({}, { tier: 'back' }), [pod('a', '10.0.0.1')], stored)!.metadata.labels, {
    tier: 'back',
  });
});

test(`over ${MAX_ENDPOINTS_CAPACITY} addresses, ready ones are kept first and the Endpoints are marked truncated`, () => {
  const pods = Array.from({ length: MAX_ENDPOINTS_CAPACITY + 5 }, (_, i) =>
    pod(`p${i}`, `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}`, { ready: i % 2 === 0 }),
  );
  const ep = planEndpoints(service(), pods, undefined)!;
  assert.is(ep.metadata.annotations?.['endpoints.kubernetes.io/over-capacity'], 'truncated');
  const [subset] = ep.subsets;
  assert.is(subset.addresses.length, 503);
  assert.is(subset.notReadyAddresses.length, MAX_ENDPOINTS_CAPACITY - 503);
  // Back under capacity, the mark goes.
  const fewer = planEndpoints(service(), pods.slice(0, 10), ep)!;
  assert.is(fewer.metadata.annotations, undefined);
});

test.run();
