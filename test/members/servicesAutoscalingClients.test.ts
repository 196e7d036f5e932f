import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AutoscalingV2Api, CoreV1Api, DiscoveryV1Api, KubeConfig, Metrics, topPods } from '@kubernetes/client-node';
import type { Member } from '../../src/members/startMember.ts';
import { renderKubeconfig, writeKubeconfig } from '../../src/members/writeKubeconfig.ts';
import { api, MemberHarness, waitFor } from './helpers/memberHarness.ts';

// EndpointSlices, HPAs and metrics.k8s.io read by @kubernetes/client-node's typed APIs and by the official
// Python client (Debian's python3-kubernetes 22: typed DiscoveryV1Api, and CustomObjectsApi for autoscaling/v2
// and metrics, which that client has no typed API for).

const PYTHON = '/usr/bin/python3';
const SCRIPT = `
import json, sys
from kubernetes import client, config
config.load_kube_config(config_file=sys.argv[1])
slices = client.DiscoveryV1Api().list_namespaced_endpoint_slice('default', label_selector='kubernetes.io/service-name=web').items
custom = client.CustomObjectsApi()
hpa = custom.get_namespaced_custom_object('autoscaling', 'v2', 'default', 'horizontalpodautoscalers', 'web')
pods = custom.list_namespaced_custom_object('metrics.k8s.io', 'v1beta1', 'default', 'pods', label_selector='app=web')
print(json.dumps({
    'slices': [{'addressType': s.address_type, 'ports': [p.port for p in s.ports], 'ready': [e.conditions.ready for e in s.endpoints],
                'managedBy': s.metadata.labels['endpointslice.kubernetes.io/managed-by']} for s in slices],
    'hpaCurrentReplicas': hpa['status']['currentReplicas'],
    'podCpu': [c['usage']['cpu'] for p in pods['items'] for c in p['containers']],
}))
`;

const harness = new MemberHarness();
let member: Member;
let kc: KubeConfig;

test.before(async () => {
  member = await harness.start({ name: 'clients', hpa: { syncPeriodMs: 100, cpuInitializationPeriodMs: 0 } });
  kc = new KubeConfig();
  kc.loadFromString(renderKubeconfig([member]));
  kc.setCurrentContext('clients');
  const post = async (url: string, body: object) => assert.is((await api(member, 'POST', url, { body })).status, 201);
  await post('/apis/apps/v1/namespaces/default/deployments', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' }, annotations: { 'emulator.flotilla.io/cpu-usage': '150m' } },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'nginx:1.27',
              ports: [{ name: 'http', containerPort: 8080 }],
              resources: { requests: { cpu: '100m' } },
            },
          ],
        },
      },
    },
  });
  await post('/api/v1/namespaces/default/services', {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web' },
    spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
  });
  // Usage at 150% of the request against a 150% target: the HPA keeps 2 replicas.
  await post('/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers', {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 4,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 150 } } },
      ],
    },
  });
});

test.after(async () => {
  await harness.cleanup();
});

test("client-node reads the Service's EndpointSlice, the HPA's status and the pods' metrics through its typed APIs", async () => {
  const discovery = kc.makeApiClient(DiscoveryV1Api);
  const slice = await waitFor('two ready endpoints', async () => {
    const list = await discovery.listNamespacedEndpointSlice({
      namespace: 'default',
      labelSelector: 'kubernetes.io/service-name=web',
    });
    const found = list.items[0];
    return found && (found.endpoints ?? []).filter((e) => e.conditions?.ready).length === 2 ? found : undefined;
  });
  assert.is(slice.addressType, 'IPv4');
  assert.equal(
    slice.ports?.map((p) => p.port),
    [8080],
  );
  const autoscaling = kc.makeApiClient(AutoscalingV2Api);
  const hpa = await waitFor('hpa metrics', async () => {
    const read = await autoscaling.readNamespacedHorizontalPodAutoscaler({ name: 'web', namespace: 'default' });
    return read.status?.currentMetrics?.[0]?.resource?.current.averageUtilization === 150 ? read : undefined;
  });
  assert.equal([hpa.status?.currentReplicas, hpa.status?.desiredReplicas], [2, 2]);
  const metrics = new Metrics(kc);
  const podMetrics = await metrics.getPodMetrics('default');
  assert.equal(
    podMetrics.items.map((p) => p.containers[0]?.usage.cpu),
    ['150m', '150m'],
  );
  const top = await topPods(kc.makeApiClient(CoreV1Api), metrics, 'default');
  assert.equal(
    top.map((p) => Number(p.CPU.CurrentUsage)),
    [0.15, 0.15],
  );
  const nodes = await metrics.getNodeMetrics();
  assert.is(nodes.items.length, 3);
});

test('the official Python client reads the same EndpointSlice, HPA and PodMetrics', async () => {
  const dir = harness.tempDir('flotilla-python-');
  const kubeconfig = path.join(dir, 'members.config');
  writeKubeconfig(kubeconfig, [member]);
  const script = path.join(dir, 'read.py');
  writeFileSync(script, SCRIPT);
  const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      PYTHON,
      [script, kubeconfig],
      { env: { PATH: process.env.PATH ?? '', HOME: dir }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
  assert.is(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.equal(out.slices, [
    { addressType: 'IPv4', ports: [8080], ready: [true, true], managedBy: 'endpointslice-controller.k8s.io' },
  ]);
  assert.is(out.hpaCurrentReplicas, 2);
  assert.equal(out.podCpu, ['150m', '150m']);
});

test.run();
