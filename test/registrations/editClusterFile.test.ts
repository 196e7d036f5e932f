import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { parseYamlValue } from '../../src/yaml/blockYaml.ts';
import { editClusterFile, UNSCHEDULABLE_TAINT_KEY } from '../../src/registrations/editClusterFile.ts';
import { parseTaintArgs } from '../../src/registrations/parseTaintArgs.ts';
import type { RegistrationError } from '../../src/registrations/RegistrationError.ts';

const FILE = `# member2 lives in the second zone; ask #infra before changing it
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member2 # stable name, used by policies
  labels:
    env: prod
spec:
  syncMode: Push
  zones: [zone-2]
  kubeconfigRef:
    path: members.config
    context: member2
`;
const now = new Date('2026-03-04T05:06:07.890Z');
const taint = (words: string[], overwrite = false) => ({
  type: 'taint' as const,
  changes: parseTaintArgs(words),
  overwrite,
  now,
});

test('taints added by a command come first, in its order, before those the cluster had (karmadactl reorganizeTaints)', () => {
  const added = editClusterFile(
    'clusters/member2.yaml',
    FILE,
    'member2',
    taint(['spot:NoExecute', 'gpu=a100:NoSchedule']),
  );
  const before = (parse(FILE).spec.taints ?? []).map((t: { key: string }) => t.key);
  assert.equal(
    parse(added.text!).spec.taints.map((t: { key: string }) => t.key),
    ['spot', 'gpu', ...before],
  );
  assert.equal(added.summary, ['added taint spot:NoExecute', 'added taint gpu=a100:NoSchedule']);
});

test('adding then removing a taint gives back the file byte for byte, comments included', () => {
  const added = editClusterFile('clusters/member2.yaml', FILE, 'member2', taint(['dedicated=gpu:NoSchedule']));
  assert.equal(added.summary, ['added taint dedicated=gpu:NoSchedule']);
  assert.ok(added.text!.includes('# member2 lives in the second zone; ask #infra before changing it'));
  assert.ok(added.text!.includes('# stable name, used by policies'));
  assert.ok(added.text!.includes('zones: [zone-2]'), 'flow lists keep their style');
  assert.equal(parse(added.text!).spec.taints, [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }]);
  const removed = editClusterFile('clusters/member2.yaml', added.text!, 'member2', taint(['dedicated-']));
  assert.equal(removed.summary, ['removed taint dedicated=gpu:NoSchedule']);
  assert.is(removed.text, FILE);
});

test('NoExecute taints are stamped with timeAdded; existing ones need --overwrite', () => {
  const added = editClusterFile('c.yaml', FILE, 'member2', taint(['maint=yes:NoExecute']));
  assert.equal(parse(added.text!).spec.taints, [
    { key: 'maint', value: 'yes', effect: 'NoExecute', timeAdded: '2026-03-04T05:06:07Z' },
  ]);
  try {
    editClusterFile('c.yaml', added.text!, 'member2', taint(['maint=no:NoExecute']));
    assert.unreachable('an existing taint was replaced without --overwrite');
  } catch (err) {
    assert.is((err as RegistrationError).code, 'TAINT_EXISTS');
    assert.match((err as Error).message, /already has taint maint=yes:NoExecute; fix: pass --overwrite/);
  }
  const changed = editClusterFile('c.yaml', added.text!, 'member2', taint(['maint=no:NoExecute'], true));
  assert.equal(changed.summary, ['changed taint maint=yes:NoExecute to maint=no:NoExecute']);
  assert.is(parse(changed.text!).spec.taints[0].value, 'no');
});

test('removing a taint the cluster does not have is an error naming it', () => {
  try {
    editClusterFile('c.yaml', FILE, 'member2', taint(['nothere:NoSchedule-']));
    assert.unreachable('removed a missing taint');
  } catch (err) {
    assert.is((err as RegistrationError).code, 'TAINT_NOT_FOUND');
    assert.match((err as Error).message, /cluster member2 has no taint nothere:NoSchedule/);
  }
});

test('cordon adds the unschedulable taint once; uncordon removes it; both are idempotent', () => {
  const cordoned = editClusterFile('c.yaml', FILE, 'member2', { type: 'cordon' });
  assert.equal(parse(cordoned.text!).spec.taints, [{ key: UNSCHEDULABLE_TAINT_KEY, effect: 'NoSchedule' }]);
  const again = editClusterFile('c.yaml', cordoned.text!, 'member2', { type: 'cordon' });
  assert.equal(again.summary, []);
  assert.is(again.text, cordoned.text);
  const uncordoned = editClusterFile('c.yaml', cordoned.text!, 'member2', { type: 'uncordon' });
  assert.is(parse(uncordoned.text!).spec.taints, undefined);
  assert.equal(editClusterFile('c.yaml', FILE, 'member2', { type: 'uncordon' }).summary, []);
});

test("cordon puts the unschedulable taint after the cluster's others; uncordon moves the last taint into its place (karmadactl cordonHelper)", () => {
  const keys = (text: string | null) => parse(text!).spec.taints.map((t: { key: string }) => t.key);
  const tainted = editClusterFile('c.yaml', FILE, 'member2', taint(['b:NoSchedule', 'a=x:NoSchedule'])).text!;
  const cordoned = editClusterFile('c.yaml', tainted, 'member2', { type: 'cordon' });
  assert.equal(keys(cordoned.text), ['b', 'a', UNSCHEDULABLE_TAINT_KEY]);
  assert.equal(cordoned.summary, [`added taint ${UNSCHEDULABLE_TAINT_KEY}:NoSchedule`]);
  const cordonedFirst = `${FILE}  taints:
    - {key: ${UNSCHEDULABLE_TAINT_KEY}, effect: NoSchedule}
    - {key: b, effect: NoSchedule}
    - {key: a, value: x, effect: NoSchedule}
`;
  const uncordoned = editClusterFile('c.yaml', cordonedFirst, 'member2', { type: 'uncordon' });
  assert.equal(keys(uncordoned.text), ['a', 'b']);
  assert.equal(uncordoned.summary, [`removed taint ${UNSCHEDULABLE_TAINT_KEY}:NoSchedule`]);
});

test('a multi-document file: only the named cluster changes, and remove drops just its document', () => {
  const two = `${FILE}---\n# the third\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: member3\nspec:\n  syncMode: Pull\n`;
  const edited = editClusterFile('c.yaml', two, 'member3', { type: 'cordon' });
  const docs = edited.text!.split('\n---\n').map((d) => parse(d));
  assert.is(docs[0].spec.taints, undefined);
  assert.is(docs[1].spec.taints[0].key, UNSCHEDULABLE_TAINT_KEY);
  const removed = editClusterFile('c.yaml', two, 'member3', { type: 'remove' });
  assert.is(parse(removed.text!).metadata.name, 'member2');
  assert.not.ok(removed.text!.includes('member3'));
  assert.is(
    editClusterFile('c.yaml', FILE, 'member2', { type: 'remove' }).text,
    null,
    'the only cluster of a file: the file goes',
  );
});

test('unparseable files and unknown names are refused with file:line', () => {
  try {
    editClusterFile('clusters/bad.yaml', 'kind: Cluster\nmetadata: {name: x\n', 'x', { type: 'uncordon' });
    assert.unreachable('parsed broken YAML');
  } catch (err) {
    assert.is((err as RegistrationError).code, 'BAD_CLUSTER_FILE');
    assert.match((err as Error).message, /^clusters\/bad\.yaml:\d+:\d+: /);
  }
  try {
    editClusterFile('c.yaml', FILE, 'member9', { type: 'uncordon' });
    assert.unreachable('found member9');
  } catch (err) {
    assert.is((err as RegistrationError).code, 'CLUSTER_NOT_FOUND');
  }
});

test('taint values YAML 1.1 would read as something else are written quoted: kubectl and Flotilla read back the text', () => {
  let text = FILE;
  for (const value of ['yes', 'on', '0644', '0b1', 'n'])
    text = editClusterFile('c.yaml', text, 'member2', taint([`k-${value}=${value}:NoSchedule`])).text!;
  const taints = (parseYamlValue(text) as { spec: { taints: { value: string }[] } }).spec.taints;
  // Each added one goes first: the last command's taint heads the list.
  assert.equal(
    taints.map((t) => t.value),
    ['n', '0b1', '0644', 'on', 'yes'],
  );
  assert.ok(text.includes('value: "yes"'), text);
});

test.run();
