// `flotilla describe` against the real kubectl: the words that ask for several objects, the separators between their
// descriptions, the name prefix, the errors and the empty result. With --cluster the member's copy is described as
// kubectl's generic describer describes it; kubectl reads the same copy, applied to a member emulator.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { describeCommand } from '../../src/commands/describeCommand.ts';
import { getCommand } from '../../src/commands/getCommand.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { commitAll, makeNginxRepo, writeWorkTree, type TempRepo } from '../plans/helpers/nginxRepo.ts';
import { MemberHarness } from '../members/helpers/memberHarness.ts';
import { RENDERED, runReadCommand } from './helpers/fleetRepo.ts';

const crd = (kind: string, plural: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: ${plural}.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: ${kind}, plural: ${plural}, singular: ${kind.toLowerCase()}}
  versions:
    - name: v1
      served: true
      storage: true
      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`;
const CRDS = `${crd('Gadget', 'gadgets')}---\n${crd('Widget', 'widgets')}`;
const OBJECTS = `apiVersion: v1
kind: Namespace
metadata: {name: other}
---
apiVersion: example.com/v1
kind: Gadget
metadata: {name: small, namespace: default, labels: {app: shop}}
spec: {size: 1, parts: [{name: a, count: 2}], note: "x"}
---
apiVersion: example.com/v1
kind: Gadget
metadata: {name: smaller, namespace: default}
spec: {size: 2}
---
apiVersion: example.com/v1
kind: Gadget
metadata: {name: tiny, namespace: default}
spec: {size: 3}
---
apiVersion: example.com/v1
kind: Gadget
metadata: {name: smol, namespace: other}
spec: {size: 4}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w1, namespace: default}
spec: {size: 5}
`;
const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: examples}
spec:
  resourceSelectors:
    - {apiVersion: example.com/v1, kind: Gadget}
    - {apiVersion: example.com/v1, kind: Widget}
    - {apiVersion: v1, kind: Namespace, name: other}
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;
const NOW = new Date((1_700_000_100 + 3600) * 1000);

const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;
let repo: TempRepo;

test.before(async () => {
  kubectl = harness.kubectl([await harness.start({ name: 'member1' })]);
  const crds = await kubectl(['apply', '-f', '-'], CRDS);
  assert.is(crds.code, 0, crds.stderr);
  ({ repo } = makeNginxRepo());
  writeWorkTree(repo, {
    'crds/examples.yaml': CRDS,
    'templates/examples.yaml': OBJECTS,
    'policies/examples.yaml': POLICY,
  });
  commitAll(repo, 'Add gadgets and widgets');
  await syncRepo(await openRepo(repo.path), { sourceRef: 'refs/heads/main', outputRef: RENDERED });
  // The member runs the copies the rendered branch holds for it, Karmada's labels and annotations included.
  const copies = await runReadCommand(getCommand, repo.path, NOW, [
    'ns,gadgets,widgets',
    '-A',
    '--cluster',
    'member1',
    '-o',
    'json',
  ]);
  assert.is(copies.code, 0, copies.err);
  const applied = await kubectl(['apply', '--server-side', '-f', '-'], copies.out);
  assert.is(applied.code, 0, applied.stderr);
});

test.after(async () => {
  repo?.cleanup();
  await harness.cleanup();
});

const flotilla = (...args: string[]) => runReadCommand(describeCommand, repo.path, NOW, args);
/** What the member's API server adds to an object (creation time, generation, resource version, UID), which Git has not. */
const withoutServerMetadata = (text: string) => text.replace(/^(Metadata:\n)(?: {2}.*\n)*/gm, '$1');

test("several objects, TYPE/NAME words, a name prefix and a selector: the member's copies described as kubectl describes them", async () => {
  for (const args of [
    ['gadgets'],
    ['gadget', 'small', 'tiny'],
    ['gadget', 'tiny', 'tiny'],
    ['gadgets,widgets'],
    ['gadget/small', 'widget/w1', 'gadget/tiny'],
    ['gadget', 'sm'],
    ['gadget', 'sm', '-n', 'other'],
    ['gadgets', '-l', 'app=shop'],
    ['gadgets', '-l', 'app!=shop', '-A'],
    ['gadget', 'small', 'nope', 'tiny'],
  ]) {
    const real = await kubectl(['describe', ...args, '--show-events=false']);
    const ours = await flotilla(...args, '--show-events=false', '--cluster', 'member1');
    assert.is(ours.out, withoutServerMetadata(real.stdout), args.join(' '));
    assert.is(ours.err, real.stderr, args.join(' '));
    assert.is(ours.code, real.code, args.join(' '));
  }
  // What the comparison covers, so that both sides printing nothing would not pass.
  const two = (await flotilla('gadget', 'small', 'tiny', '--cluster', 'member1', '--show-events=false')).out;
  assert.match(
    two,
    /^Name: +small\n[\s\S]*\nSpec:\n {2}Note: +x\n {2}Parts:\n {4}Count: +2\n {4}Name: +a\n {2}Size: +1\n\n\nName: +tiny\n/,
  );
  assert.not.match(two, /Events:/);
  const prefixed = (await flotilla('gadget', 'sm', '--cluster', 'member1', '--show-events=false')).out;
  assert.match(prefixed, /^Name: +small\n[\s\S]*\n {2}Size: +1\n\nName: +smaller\n[\s\S]*\n {2}Size: +2\n\n$/);
  assert.match(
    (await flotilla('gadget', 'small', '--cluster', 'member1')).out,
    /\nEvents:\n {2}Type +Reason +Age +From +Message\n {2}---- +------ +---- +---- +-------\n {2}Normal +Committed +/,
  );
});

test("missing objects, no objects and words kubectl refuses: kubectl's errors and exit codes", async () => {
  for (const args of [
    ['gadget', 'nope'],
    ['gadget', 'nope1', 'nope2'],
    ['gadget', 'zz'],
    ['gadget/sm'],
    ['gadgets,widgets', 'sm'],
    ['gadgets,widgets', 'w1'],
    ['gadget/small', 'widget/nope'],
    ['gadget/nope', 'gadget/tiny'],
    ['gadgets', '-l', 'app=nope'],
    ['gadgets', '-l', 'app=nope', '-n', 'other'],
    ['gadgets', '-l', 'app=nope', '-A'],
    ['gadgets,gizmos'],
    ['gadget/a/b'],
  ]) {
    const real = await kubectl(['describe', ...args]);
    for (const ours of [await flotilla(...args), await flotilla(...args, '--cluster', 'member1')]) {
      assert.is(ours.out, real.stdout, args.join(' '));
      // Flotilla names the types it has after kubectl's error line for a type no one serves.
      assert.is(ours.err.replace(/^flotilla: no resource type .*\n/m, ''), real.stderr, args.join(' '));
      assert.is(ours.code, real.code, args.join(' '));
    }
  }
});

test("kubectl's refusals of the words, in its words (Flotilla's usage error, exit code 2)", async () => {
  for (const args of [
    ['gadget', 'sm', '-A'],
    ['gadget', 'small', '-A'],
    ['gadget', 'small', '-l', 'app=shop'],
    ['gadget/small', '-l', 'app=shop'],
  ]) {
    const real = await kubectl(['describe', ...args]);
    assert.is(real.code, 1, args.join(' '));
    try {
      await flotilla(...args);
      assert.unreachable(args.join(' '));
    } catch (err) {
      assert.is(`error: ${(err as Error).message}\n`, real.stderr, args.join(' '));
    }
  }
});

test('templates with their aggregated status: several described one after another, a blank line between', async () => {
  const all = await flotilla('gadgets');
  assert.is(all.code, 0, all.err);
  assert.is(all.err, '');
  const names = [...all.out.matchAll(/^Name: +(\S+)$/gm)].map((m) => m[1]);
  assert.equal(names, ['small', 'smaller', 'tiny']);
  assert.match(
    all.out,
    /\n {2}\S+ +[0-9a-f]{12} +- +Ada Author +member1 added, binding added +Add gadgets and widgets\n\n\nName: +smaller\nNamespace: +default\nKind: +Gadget \(example\.com\/v1\)\n/,
  );
  const quiet = await flotilla('gadget/small', 'widget/w1', '--show-events=false');
  assert.match(
    quiet.out,
    /^Name: +small\n[\s\S]*\n\n\nName: +w1\n[\s\S]*Conditions:\n {2}Type +Status +Reason +Message\n {2}Scheduled +True +Success +Binding has been scheduled successfully\.\n$/,
  );
  assert.not.match(quiet.out, /Events:/);
  const prefixed = await flotilla('gadget', 'sm', '-n', 'other');
  assert.match(prefixed.out, /^Name: +smol\nNamespace: +other\n[\s\S]*\n\n$/);
});

test.run();
