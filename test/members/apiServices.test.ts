import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type AvailabilityLookups,
  apiServiceAvailability,
  withAvailableCondition,
} from '../../src/members/controllers/apiServiceController.ts';
import type { KubeObject } from '../../src/members/types.ts';
import { MemberHarness, waitFor } from './helpers/memberHarness.ts';

// kube-aggregator's APIServices: the autoregister controller's Local ones for every served built-in group version,
// the available-condition controllers' Available condition for those backed by a Service (kubectl's AVAILABLE
// column prints its reason when it is not True).

const apiService = (service?: object, name = 'v1beta1.custom.metrics.k8s.io'): KubeObject => ({
  apiVersion: 'apiregistration.k8s.io/v1',
  kind: 'APIService',
  metadata: { name },
  spec: { group: 'custom.metrics.k8s.io', version: 'v1beta1', ...(service ? { service } : {}) },
});
const lookups = (objects: { services?: KubeObject[]; endpoints?: KubeObject[]; local?: boolean }) =>
  ({
    service: (ns, name) => objects.services?.find((s) => s.metadata.namespace === ns && s.metadata.name === name),
    endpoints: (ns, name) => objects.endpoints?.find((e) => e.metadata.namespace === ns && e.metadata.name === name),
    servesLocally: () => objects.local ?? false,
  }) satisfies AvailabilityLookups;
const svc = (spec: object): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'adapter', namespace: 'monitoring' },
  spec: { type: 'ClusterIP', clusterIP: '10.96.7.8', ...spec },
});
const eps = (subsets: object[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Endpoints',
  metadata: { name: 'adapter', namespace: 'monitoring' },
  subsets,
});
const ref = { namespace: 'monitoring', name: 'adapter', port: 443 };

test('an APIService is available when Local, else by its Service, port, endpoints and discovery, each failure with its reason', () => {
  assert.equal(apiServiceAvailability(apiService(), lookups({})), {
    status: 'True',
    reason: 'Local',
    message: 'Local APIServices are always available',
  });
  assert.equal(apiServiceAvailability(apiService(ref), lookups({})), {
    status: 'False',
    reason: 'ServiceNotFound',
    message: 'service/adapter in "monitoring" is not present',
  });
  const services = [svc({ ports: [{ name: 'https', port: 8443 }] })];
  assert.equal(apiServiceAvailability(apiService(ref), lookups({ services })), {
    status: 'False',
    reason: 'ServicePortError',
    message: 'service/adapter in "monitoring" is not listening on port 443',
  });
  const listening = [svc({ ports: [{ name: 'https', port: 443 }] })];
  assert.equal(apiServiceAvailability(apiService(ref), lookups({ services: listening })).reason, 'EndpointsNotFound');
  const notReady = [eps([{ notReadyAddresses: [{ ip: '10.1.0.2' }], ports: [{ name: 'https', port: 6443 }] }])];
  assert.equal(apiServiceAvailability(apiService(ref), lookups({ services: listening, endpoints: notReady })), {
    status: 'False',
    reason: 'MissingEndpoints',
    message: 'endpoints for service/adapter in "monitoring" have no addresses with port name "https"',
  });
  const ready = [eps([{ addresses: [{ ip: '10.1.0.2' }], ports: [{ name: 'https', port: 6443 }] }])];
  assert.equal(apiServiceAvailability(apiService(ref), lookups({ services: listening, endpoints: ready })), {
    status: 'False',
    reason: 'FailedDiscoveryCheck',
    message:
      'failing or missing response from https://10.96.7.8:443/apis/custom.metrics.k8s.io/v1beta1: Get "https://10.96.7.8:443/apis/custom.metrics.k8s.io/v1beta1": dial tcp 10.96.7.8:443: connect: connection refused',
  });
  assert.equal(
    apiServiceAvailability(apiService(ref), lookups({ services: listening, endpoints: ready, local: true })),
    { status: 'True', reason: 'Passed', message: 'all checks passed' },
  );
});

test("the Available condition's transition time moves only when its status does", () => {
  const first = withAvailableCondition([], { status: 'False', reason: 'ServiceNotFound', message: 'a' }, 'T1');
  const second = withAvailableCondition(first, { status: 'False', reason: 'MissingEndpoints', message: 'b' }, 'T2');
  assert.equal(second, [
    { type: 'Available', status: 'False', lastTransitionTime: 'T1', reason: 'MissingEndpoints', message: 'b' },
  ]);
  assert.is(
    withAvailableCondition(second, { status: 'True', reason: 'Passed', message: 'c' }, 'T3')[0]!.lastTransitionTime,
    'T3',
  );
});

test("kubectl get apiservices lists the served group versions as Local and metrics-server's as it comes up", async () => {
  const harness = new MemberHarness();
  try {
    const member = await harness.start({ name: 'member1' });
    const kubectl = harness.kubectl([member]);
    const listed = await waitFor('the Local APIServices', async () => {
      const out = await kubectl(['get', 'apiservices']);
      return out.stdout.includes('v2.autoscaling') ? out.stdout : undefined;
    });
    const lines = listed.trim().split('\n');
    assert.match(lines[0]!, /^NAME\s+SERVICE\s+AVAILABLE\s+AGE$/);
    assert.match(lines[1]!, /^v1\.\s+Local\s+True\s+\S+$/);
    assert.match(listed, /^v1\.apps\s+Local\s+True\s/m);
    assert.not.match(listed, /apiregistration|metrics/);
    const local = JSON.parse((await kubectl(['get', 'apiservice', 'v1.apps', '-o', 'json'])).stdout);
    assert.equal(local.metadata.labels, { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' });
    assert.equal(local.spec, { group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });

    const registration = `apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1beta1.metrics.k8s.io}
spec:
  service: {name: metrics-server, namespace: kube-system}
  group: metrics.k8s.io
  version: v1beta1
  insecureSkipTLSVerify: true
  groupPriorityMinimum: 100
  versionPriority: 100
`;
    assert.is((await kubectl(['apply', '-f', '-'], registration)).code, 0);
    await waitFor('ServiceNotFound', async () =>
      /^v1beta1\.metrics\.k8s\.io\s+kube-system\/metrics-server\s+False \(ServiceNotFound\)\s/m.test(
        (await kubectl(['get', 'apiservices'])).stdout,
      ),
    );
    const server = `apiVersion: v1
kind: Service
metadata: {name: metrics-server, namespace: kube-system}
spec:
  selector: {k8s-app: metrics-server}
  ports: [{name: https, port: 443, protocol: TCP, targetPort: https}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: metrics-server, namespace: kube-system}
spec:
  selector: {matchLabels: {k8s-app: metrics-server}}
  template:
    metadata: {labels: {k8s-app: metrics-server}}
    spec:
      containers:
      - name: metrics-server
        image: registry.k8s.io/metrics-server/metrics-server:v0.7.2
        ports: [{name: https, containerPort: 10250, protocol: TCP}]
`;
    assert.is((await kubectl(['apply', '-f', '-'], server)).code, 0);
    await waitFor('metrics-server available', async () =>
      /^v1beta1\.metrics\.k8s\.io\s+kube-system\/metrics-server\s+True\s/m.test(
        (await kubectl(['get', 'apiservices'])).stdout,
      ),
    );
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
  - {name: v1alpha1, served: false, storage: false, schema: {openAPIV3Schema: {type: object}}}
`;
    assert.is((await kubectl(['apply', '-f', '-'], crd)).code, 0);
    const registered = await waitFor('the CRD version registered', async () => {
      const out = await kubectl(['get', 'apiservice', 'v1.example.com', '-o', 'json']);
      return out.code === 0 ? JSON.parse(out.stdout) : undefined;
    });
    assert.equal(registered.metadata.labels, { 'kube-aggregator.kubernetes.io/automanaged': 'true' });
    assert.equal(registered.spec, {
      group: 'example.com',
      version: 'v1',
      groupPriorityMinimum: 1000,
      versionPriority: 100,
    });
    assert.is((await kubectl(['get', 'apiservice', 'v1alpha1.example.com'])).code, 1);
    assert.is((await kubectl(['delete', 'crd', 'widgets.example.com'])).code, 0);
    await waitFor('the CRD version unregistered', async () => {
      const out = await kubectl(['get', 'apiservice', 'v1.example.com']);
      return out.code === 1;
    });
  } finally {
    await harness.cleanup();
  }
});

test.run();
