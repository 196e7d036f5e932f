import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MemberHarness } from './helpers/memberHarness.ts';
import type { Member } from '../../src/members/index.ts';

// kube-apiserver 1.30+ ratchets a custom resource's schema validation on update (CRDValidationRatcheting): an error
// in a value the update leaves as it was is not reported, so tightening a CRD does not lock its old objects. Values
// are matched old to new by field name, and a map list's items by their keys (never by index).
const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;
let member: Member;

const crd = (sizeMinimum: number, portMinimum: number) => `apiVersion: apiextensions.k8s.io/v1
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
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, minimum: ${sizeMinimum}}
              color: {type: string}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    port: {type: integer, minimum: ${portMinimum}}
                    note: {type: string}
              tags:
                type: array
                items: {type: string, maxLength: ${6 - portMinimum}}
          status:
            type: object
            properties:
              count: {type: integer, minimum: ${sizeMinimum}}
`;

const gadget = (name: string, spec: string) => `apiVersion: example.com/v1
kind: Gadget
metadata: {name: ${name}, namespace: default}
spec: ${spec}
`;

test.before(async () => {
  member = await harness.start({ name: 'member1', readyDelayMs: 50 });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

const ok = async (args: string[], stdin?: string) => {
  const out = await kubectl(args, stdin);
  assert.is(out.code, 0, out.stderr);
  return out;
};
const refused = async (args: string[], message: string, stdin?: string) => {
  const out = await kubectl(args, stdin);
  assert.is(out.code, 1, out.stdout);
  assert.match(out.stderr, message);
};
const read = async (name: string) => JSON.parse((await ok(['get', `gadget/${name}`, '-o', 'json'])).stdout);

test('an update keeps values a tightened schema refuses when it leaves them as they were, by patch, replace and apply', async () => {
  await ok(['apply', '-f', '-'], crd(0, 1));
  await ok(['wait', '--for=condition=Established', 'crd/gadgets.example.com']);
  await ok(
    ['create', '-f', '-'],
    gadget('kept', '{size: 0, ports: [{name: a, port: 1}, {name: b, port: 2}], tags: [xx]}'),
  );
  await ok(['apply', '-f', '-'], crd(1, 5));
  await ok(['patch', 'gadget/kept', '--type=merge', '-p', '{"spec":{"color":"red"}}']);
  const replaced = await read('kept');
  replaced.spec.color = 'blue';
  await ok(['replace', '-f', '-'], JSON.stringify(replaced));
  // Reordered and with one item changed beside its unchanged port: items are matched by their key, fields by name.
  await ok(
    ['apply', '--server-side', '--force-conflicts', '-f', '-'],
    gadget('kept', '{size: 0, color: green, ports: [{name: b, port: 2}, {name: a, port: 1, note: hi}], tags: [xx]}'),
  );
  const applied = (await read('kept')).spec;
  assert.equal(applied.color, 'green');
  assert.equal(
    applied.ports.find((p: { name: string }) => p.name === 'a'),
    { name: 'a', port: 1, note: 'hi' },
  );
  // A changed value is validated, whatever it was before.
  await refused(
    ['patch', 'gadget/kept', '--type=merge', '-p', '{"spec":{"size":-1}}'],
    'The Gadget "kept" is invalid: spec.size: Invalid value: -1: spec.size in body should be greater than or equal to 1',
  );
  await refused(
    ['patch', 'gadget/kept', '--type=json', '-p', '[{"op":"replace","path":"/spec/ports/0/port","value":3}]'],
    'The Gadget "kept" is invalid: spec.ports[0].port: Invalid value: 3: spec.ports[0].port in body should be greater than or equal to 5',
  );
  // An atomic list's items are not matched to the old ones: adding one validates them all.
  await refused(
    ['patch', 'gadget/kept', '--type=merge', '-p', '{"spec":{"tags":["xx","y"]}}'],
    'The Gadget "kept" is invalid: spec.tags[0]: Too long: may not be more than 1 bytes',
  );
});

test('the status subresource validates status whole: its unchanged values are not kept', async () => {
  await ok(['apply', '-f', '-'], crd(0, 1));
  await ok(['create', '-f', '-'], gadget('counted', '{size: 1}'));
  await ok(['patch', 'gadget/counted', '--subresource=status', '--type=merge', '-p', '{"status":{"count":0}}']);
  await ok(['apply', '-f', '-'], crd(1, 1));
  await ok(['label', 'gadget/counted', 'tier=one']);
  await refused(
    ['patch', 'gadget/counted', '--subresource=status', '--type=merge', '-p', '{"metadata":{"labels":{"tier":"two"}}}'],
    'status.count: Invalid value: 0: status.count in body should be greater than or equal to 1',
  );
});

test("a custom resource's scale subresource writes replicas the schema admits, keeping its unchanged values", async () => {
  const pools = (maximum: number) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: pools.example.com}
spec:
  group: example.com
  names: {kind: Pool, plural: pools, singular: pool}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, maximum: 5}
              size: {type: integer, maximum: ${maximum}}
          status: {type: object, properties: {replicas: {type: integer}}}
`;
  await ok(['apply', '-f', '-'], pools(10));
  await ok(['wait', '--for=condition=Established', 'crd/pools.example.com']);
  await ok(
    ['create', '-f', '-'],
    'apiVersion: example.com/v1\nkind: Pool\nmetadata: {name: p, namespace: default}\nspec: {replicas: 1, size: 8}\n',
  );
  await ok(['apply', '-f', '-'], pools(5));
  await ok(['scale', 'pool/p', '--replicas=3']);
  await refused(
    ['scale', 'pool/p', '--replicas=6'],
    'The Pool "p" is invalid: spec.replicas: Invalid value: 6: spec.replicas in body should be less than or equal to 5',
  );
  const pool = JSON.parse((await ok(['get', 'pool/p', '-o', 'json'])).stdout);
  assert.equal(pool.spec, { replicas: 3, size: 8 });
});

test.run();
