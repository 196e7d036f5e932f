import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MemberHarness } from './helpers/memberHarness.ts';

// The order kubectl's strategic merge patches leave a merged list in, against the emulator, as against kube-apiserver.
const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;

test.before(async () => {
  const member = await harness.start({ name: 'member1', readyDelayMs: 50 });
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

test.run();
