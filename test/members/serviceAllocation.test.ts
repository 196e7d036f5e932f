import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MemberHarness } from './helpers/memberHarness.ts';

// The service registry's allocation as kubectl sees it: cluster IPs and node ports asked for by value are checked
// against the ranges and what other Services hold, and a type change drops what the old type had allocated.
const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;

test.before(async () => {
  const member = await harness.start({ name: 'svcalloc' });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

const service = (name: string, spec: string) => `apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: default}
spec:
  selector: {app: ${name}}
${spec}
`;

const refused = async (manifest: string) => (await kubectl(['create', '-f', '-'], manifest)).stderr.trim();

test('node ports and cluster IPs asked for by value must be in range and free', async () => {
  assert.is(
    await refused(service('low', '  type: NodePort\n  ports: [{port: 80, nodePort: 29999}]')),
    'The Service "low" is invalid: spec.ports[0].nodePort: Invalid value: 29999: provided port is not in the valid range. The range of valid ports is 30000-32767',
  );
  const first = await kubectl(
    ['create', '-f', '-'],
    service('np1', '  type: NodePort\n  ports: [{port: 80, nodePort: 30500}]'),
  );
  assert.is(first.code, 0, first.stderr);
  assert.is(
    await refused(service('np2', '  type: NodePort\n  ports: [{port: 80, nodePort: 30500}]')),
    'The Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: 30500: provided port is already allocated',
  );
  assert.is(
    await refused(service('ip1', '  clusterIP: 10.96.0.1\n  ports: [{port: 80}]')),
    'The Service "ip1" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.1"}: failed to allocate IP 10.96.0.1: provided IP is already allocated',
  );
  assert.is(
    await refused(service('ip2', '  clusterIP: 192.168.0.5\n  ports: [{port: 80}]')),
    'The Service "ip2" is invalid: spec.clusterIPs: Invalid value: []string{"192.168.0.5"}: failed to allocate IP 192.168.0.5: the provided IP (192.168.0.5) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
  );
  // Its own node port is the Service's to keep on update.
  const relabeled = await kubectl(['label', 'service', 'np1', 'tier=web']);
  assert.is(relabeled.code, 0, relabeled.stderr);
});

test('a NodePort Service patched to ClusterIP drops its node ports', async () => {
  const created = await kubectl(['create', '-f', '-'], service('flip', '  type: NodePort\n  ports: [{port: 80}]'));
  assert.is(created.code, 0, created.stderr);
  const patched = await kubectl(['patch', 'service', 'flip', '-p', '{"spec":{"type":"ClusterIP"}}']);
  assert.is(patched.code, 0, patched.stderr);
  const spec = JSON.parse((await kubectl(['get', 'service', 'flip', '-o', 'json'])).stdout).spec;
  assert.is(spec.type, 'ClusterIP');
  assert.not.ok('nodePort' in spec.ports[0]);
  assert.not.ok('externalTrafficPolicy' in spec);
});

test.run();
