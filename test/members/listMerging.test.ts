import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MemberHarness } from './helpers/memberHarness.ts';

// kubectl's patches and server-side applies merge each list as its type declares it, against the emulator as against
// kube-apiserver: not by the field's name (a Service's ports key on port and protocol, a ServiceAccount's
// imagePullSecrets are replaced whole, a custom resource's lists merge as its CRD's schema says).
const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;

test.before(async () => {
  const member = await harness.start({ name: 'member1', readyDelayMs: 50 });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

const ok = async (args: string[], stdin?: string) => {
  const out = await kubectl(args, stdin);
  assert.is(out.code, 0, out.stderr);
  return out.stdout;
};
const json = async (args: string[]) => JSON.parse(await ok([...args, '-o', 'json']));

const dnsService = (udpTarget: number) => `apiVersion: v1
kind: Service
metadata: {name: dns, namespace: default}
spec:
  selector: {app: dns}
  ports:
  - {name: dns, port: 53, protocol: UDP, targetPort: ${udpTarget}}
  - {name: dns-tcp, port: 53, protocol: TCP, targetPort: 53}
`;

test('server-side apply keys Service ports on port and protocol: 53/UDP and 53/TCP stay two ports', async () => {
  await ok(['apply', '--server-side', '-f', '-'], dnsService(53));
  await ok(['apply', '--server-side', '-f', '-'], dnsService(5353));
  const service = await json(['get', 'svc/dns', '--show-managed-fields']);
  assert.equal(
    service.spec.ports.map((p: { name: string; protocol: string; targetPort: number }) => [
      p.name,
      p.protocol,
      p.targetPort,
    ]),
    [
      ['dns', 'UDP', 5353],
      ['dns-tcp', 'TCP', 53],
    ],
  );
  const applied = service.metadata.managedFields.find((e: { operation: string }) => e.operation === 'Apply');
  assert.equal(Object.keys(applied.fieldsV1['f:spec']['f:ports']).sort(), [
    'k:{"port":53,"protocol":"TCP"}',
    'k:{"port":53,"protocol":"UDP"}',
  ]);
});

test("a container port applied without protocol is keyed as TCP, the protocol's declared default", async () => {
  await ok(
    ['apply', '--server-side', '-f', '-'],
    `apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec:
  containers:
  - name: web
    image: nginx
    ports: [{containerPort: 80}]
`,
  );
  const pod = await json(['get', 'pod/web', '--show-managed-fields']);
  const applied = pod.metadata.managedFields.find((e: { operation: string }) => e.operation === 'Apply');
  assert.equal(Object.keys(applied.fieldsV1['f:spec']['f:containers']['k:{"name":"web"}']['f:ports']), [
    'k:{"containerPort":80,"protocol":"TCP"}',
  ]);
});

test("kubectl patch replaces a ServiceAccount's imagePullSecrets and merges a pod template's", async () => {
  await ok(
    ['apply', '-f', '-'],
    `apiVersion: v1
kind: ServiceAccount
metadata: {name: builder, namespace: default}
imagePullSecrets: [{name: old}]
`,
  );
  await ok(['patch', 'serviceaccount', 'builder', '-p', '{"imagePullSecrets":[{"name":"myregistrykey"}]}']);
  assert.equal((await json(['get', 'sa/builder'])).imagePullSecrets, [{ name: 'myregistrykey' }]);

  await ok(
    ['apply', '-f', '-'],
    `apiVersion: apps/v1
kind: Deployment
metadata: {name: pulls, namespace: default}
spec:
  selector: {matchLabels: {app: pulls}}
  template:
    metadata: {labels: {app: pulls}}
    spec:
      imagePullSecrets: [{name: old}]
      containers: [{name: web, image: nginx}]
`,
  );
  await ok([
    'patch',
    'deployment',
    'pulls',
    '-p',
    '{"spec":{"template":{"spec":{"imagePullSecrets":[{"name":"myregistrykey"}]}}}}',
  ]);
  assert.equal((await json(['get', 'deploy/pulls'])).spec.template.spec.imagePullSecrets, [
    { name: 'myregistrykey' },
    { name: 'old' },
  ]);
});

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets, singular: gadget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port, protocol]
                items:
                  type: object
                  required: [port]
                  properties:
                    port: {type: integer}
                    protocol: {type: string, default: TCP}
                    name: {type: string}
              tags:
                type: array
                items: {type: string}
`;

const gadget = (spec: string) => `apiVersion: example.com/v1
kind: Gadget
metadata: {name: g, namespace: default}
spec:
${spec}`;

test("a custom resource's lists merge as its CRD's schema says: map lists by their keys, others atomic", async () => {
  await ok(['apply', '-f', '-'], CRD);
  await ok(['wait', '--for=condition=Established', 'crd/gadgets.example.com']);
  await ok(
    ['apply', '--server-side', '--field-manager=alice', '-f', '-'],
    gadget('  ports: [{port: 53, protocol: UDP, name: dns}]\n  tags: [a]\n'),
  );
  await ok(
    ['apply', '--server-side', '--field-manager=bob', '-f', '-'],
    gadget('  ports: [{port: 53, name: dns-tcp}]\n'),
  );
  const merged = await json(['get', 'gadget/g']);
  assert.equal(merged.spec.ports, [
    { port: 53, protocol: 'UDP', name: 'dns' },
    // The schema's default, which the API server stores.
    { port: 53, name: 'dns-tcp', protocol: 'TCP' },
  ]);
  const conflict = await kubectl(
    ['apply', '--server-side', '--field-manager=bob', '-f', '-'],
    gadget('  ports: [{port: 53, name: dns-tcp}]\n  tags: [a, b]\n'),
  );
  assert.is.not(conflict.code, 0);
  assert.match(conflict.stderr, 'conflict with "alice": .spec.tags');
});

test.run();
