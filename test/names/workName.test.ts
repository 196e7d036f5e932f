// Karmada's pkg/util/names/names_test.go: TestGenerateWorkName, TestGeneratePolicyName's encoding.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fnv1a32 } from '../../src/hashing/fnv1a32.ts';
import { safeEncodeString, workName } from '../../src/names/workName.ts';

test("rand.SafeEncodeString of FNV-1a's decimal, as Karmada's GeneratePolicyName expects it", () => {
  assert.is(`foo-${safeEncodeString(String(fnv1a32('ns-foorand')))}`, 'foo-b4978784');
  assert.is(safeEncodeString('0123456789'), '456789bcdf');
});

test('work names: the name lowercased, ":" made ".", and the encoded hash of namespace, name and kind', () => {
  const expected = (name: string, hashed: string) => `${name}-${safeEncodeString(String(fnv1a32(hashed)))}`;
  assert.is(workName('Pod', 'pod', ''), expected('pod', 'pod-pod'));
  assert.is(workName('pods', 'Pod', 'default'), expected('pod', 'default-pod-pods'));
  assert.is(workName('Pods', 'work:pod', 'default'), expected('work.pod', 'default-work.pod-pods'));
  assert.is(workName('Deployment', 'ow', 'default'), 'ow-7cc99fcb6f');
  assert.is(workName('ClusterRole', 'system::tom', ''), 'system..tom-5458b967f5');
});

test.run();
