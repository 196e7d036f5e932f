import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { refusedBindingName } from '../../src/names/refusedBindingName.ts';

test("a name valid for its kind but not as Karmada's binding name (RBAC '_' or '@', a long name) is refused", () => {
  const rbac = refusedBindingName('ClusterRole', 'foo_Bar@x', '')!;
  assert.equal([rbac.object, rbac.name], ['ClusterResourceBinding', 'foo_bar@x-clusterrole']);
  assert.match(rbac.why, 'not a DNS-1123 subdomain');
  assert.match(rbac.fix, 'DNS-compatible name');
  const long = refusedBindingName('ConfigMap', 'a'.repeat(253), 'default')!;
  assert.equal([long.object, long.name.length], ['ResourceBinding', 263]);
  assert.match(long.why, 'it is 263 characters, over the API server');
  assert.match(long.fix, 'shorten metadata.name to at most 243 characters');
  // ':' becomes '.', and a name that then has an empty part between dots is refused too.
  assert.is(refusedBindingName('ClusterRole', 'System:Admin', ''), undefined);
  assert.is(refusedBindingName('ClusterRole', 'a::b', '')?.name, 'a..b-clusterrole');
  assert.is(refusedBindingName('ConfigMap', 'a'.repeat(240), 'default'), undefined);
});

test("a Work name, the template's name and a hash of up to ten characters, has the same limit", () => {
  // A short kind makes the binding's name the shorter one: the Work's create is what fails.
  const work = refusedBindingName('Secret', 'a'.repeat(246), 'default')!;
  assert.is(work.object, 'Work');
  assert.match(work.name, /^a{246}-[a-z0-9]+$/);
  assert.match(work.fix, 'shorten metadata.name to at most');
});

test.run();
