import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness } from './helpers/memberHarness.ts';

// The order kubectl's strategic merge patches leave a merged list in, against the emulator, as against kube-apiserver.
const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;
let member: Member;

test.before(async () => {
  member = await harness.start({ name: 'member1', readyDelayMs: 50 });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

const deployment = (name: string, containers: string[]) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: default
spec:
  replicas: 1
  selector:
    matchLabels: {app: demo}
  template:
    metadata:
      labels: {app: demo}
    spec:
      containers:
${containers.map((c) => `      - {name: ${c}, image: "nginx:1.27"}`).join('\n')}
`;

const names = async (name: string) =>
  (await kubectl(['get', `deploy/${name}`, '-o', 'jsonpath={.spec.template.spec.containers[*].name}'])).stdout;

test("kubectl patch puts a container it adds first, as Kubernetes' patch task shows", async () => {
  assert.is((await kubectl(['apply', '-f', '-'], deployment('patch-demo', ['patch-demo-ctr']))).code, 0);
  const patched = await kubectl([
    'patch',
    'deployment',
    'patch-demo',
    '-p',
    '{"spec":{"template":{"spec":{"containers":[{"name":"patch-demo-ctr-2","image":"redis"}]}}}}',
  ]);
  assert.is(patched.code, 0, patched.stderr);
  assert.is(await names('patch-demo'), 'patch-demo-ctr-2 patch-demo-ctr');
});

test('kubectl apply that only reorders containers reorders them', async () => {
  assert.is((await kubectl(['apply', '-f', '-'], deployment('reorder', ['two', 'one']))).code, 0);
  assert.is(await names('reorder'), 'two one');
  const applied = await kubectl(['apply', '-f', '-'], deployment('reorder', ['one', 'two']));
  assert.is(applied.code, 0, applied.stderr);
  assert.is(await names('reorder'), 'one two');
});

test("fields a JSON patch operation does not declare are warned about, then refused under Strict, before the object's own", async () => {
  assert.is((await kubectl(['create', 'configmap', 'ops', '--from-literal=a=b'])).code, 0);
  const ops =
    '[{"op":"add","path":"/metadata/labels","value":{"x":"y"},"Value":1},{"op":"add","path":"/zz","value":1}]';
  const patched = await kubectl(['patch', 'configmap', 'ops', '--type=json', '-p', ops]);
  assert.is(patched.code, 0, patched.stderr);
  assert.equal(patched.stderr.trim().split('\n'), [
    'Warning: json patch unknown field "[0].Value"',
    'Warning: unknown field "zz"',
  ]);
  const strict = await api(member, 'PATCH', '/api/v1/namespaces/default/configmaps/ops?fieldValidation=Strict', {
    contentType: 'application/json-patch+json',
    body: ops,
  });
  assert.is(strict.status, 422);
  assert.is(strict.body.reason, 'Invalid');
  assert.match(strict.body.message, /^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"v1\\",\\"data\\"/);
  assert.ok(
    strict.body.message.endsWith('": strict decoding error: json patch unknown field "[0].Value", unknown field "zz"'),
    strict.body.message,
  );
  assert.equal(strict.body.details.causes[0].field, 'patch');
});

test.run();
