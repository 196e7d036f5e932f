// Expected values are what Go's encoding/json writes for Karmada's AppliedOverrides (overridemanager/shadow.go) over the
// v1alpha1 Overriders types, read back from an unstructured object as the API server stores it (an oracle built from
// override_types.go's struct shapes and tags).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Overriders } from '../../src/api/policy.ts';
import { appliedOverridesAnnotation } from '../../src/overrides/appliedOverridesAnnotation.ts';

test('no rule applied: no annotation at all', () => {
  assert.is(appliedOverridesAnnotation([]), undefined);
});

test('one item per applied rule, sorted by policy name, a policy keeping its rules in order; a rule without overriders is {}', () => {
  const value = appliedOverridesAnnotation([
    { policyName: 'zz-op', overriders: { imageOverrider: [{ operator: 'replace', component: 'Tag', value: '2' }] } },
    { policyName: 'a-op', overriders: {} },
    {
      policyName: 'zz-op',
      overriders: { labelsOverrider: [{ value: { tier: 'gold', app: 'web' }, operator: 'add' }] },
    },
  ]);
  assert.is(
    value,
    '[{"policyName":"a-op","overriders":{}},{"policyName":"zz-op","overriders":{"imageOverrider":[{"component":"Tag","operator":"replace","value":"2"}]}},{"policyName":"zz-op","overriders":{"labelsOverrider":[{"operator":"add","value":{"app":"web","tier":"gold"}}]}}]',
  );
});

test("every overrider is written in the Go types' field order, with their omitempty, null values and sorted maps", () => {
  const overriders = {
    fieldOverrider: [
      {
        yaml: [
          { value: { z: 1, '10': 'ten', '9': 'nine', a: ['<b>', 'x&y'] }, subPath: '/s', operator: 'add' },
          { operator: 'remove', subPath: '/t' },
        ],
        json: [{ operator: 'replace', subPath: '/j', value: 3.5 }],
        fieldPath: '/data/config',
      },
    ],
    annotationsOverrider: [{ operator: 'remove', value: {} }, { operator: 'add' }],
    labelsOverrider: [{ operator: 'replace', value: { b: '1', a: '2' } }],
    argsOverrider: [{ operator: 'add', containerName: 'app', value: ['--x'] }],
    commandOverrider: [{ value: [], operator: 'remove', containerName: 'app' }],
    imageOverrider: [
      {
        component: 'Registry',
        operator: 'remove',
        value: '',
        predicate: { path: '/spec/template/spec/containers/0/image' },
      },
    ],
    plaintext: [
      { path: '/spec/replicas', value: 3, operator: 'replace' },
      { operator: 'remove', path: '/spec/paused' },
      { operator: 'add', path: '/metadata/annotations/u', value: 'line\u2028sep é' },
    ],
  } as Overriders;
  assert.is(
    appliedOverridesAnnotation([{ policyName: 'every', overriders }]),
    '[{"policyName":"every","overriders":{"plaintext":[{"path":"/spec/replicas","operator":"replace","value":3},{"path":"/spec/paused","operator":"remove","value":null},{"path":"/metadata/annotations/u","operator":"add","value":"line\\u2028sep é"}],"imageOverrider":[{"predicate":{"path":"/spec/template/spec/containers/0/image"},"component":"Registry","operator":"remove"}],"commandOverrider":[{"containerName":"app","operator":"remove"}],"argsOverrider":[{"containerName":"app","operator":"add","value":["--x"]}],"labelsOverrider":[{"operator":"replace","value":{"a":"2","b":"1"}}],"annotationsOverrider":[{"operator":"remove","value":{}},{"operator":"add","value":null}],"fieldOverrider":[{"fieldPath":"/data/config","json":[{"subPath":"/j","operator":"replace","value":3.5}],"yaml":[{"subPath":"/s","operator":"add","value":{"10":"ten","9":"nine","a":["\\u003cb\\u003e","x\\u0026y"],"z":1}},{"subPath":"/t","operator":"remove","value":null}]}]}}]',
  );
});

test("past 12 applied rules, a policy's rules are in the order Go's sort.Slice leaves them, as in Karmada's annotation", () => {
  // Applied as policy b's 5 rules, then a's 4, then c's 4; Go's sort.Slice by policy name printed this order.
  const rules = [...['b0', 'b1', 'b2', 'b3', 'b4'], ...['a0', 'a1', 'a2', 'a3'], ...['c0', 'c1', 'c2', 'c3']];
  const value = appliedOverridesAnnotation(
    rules.map((rule) => ({
      policyName: rule.slice(0, 1),
      overriders: { labelsOverrider: [{ operator: 'add', value: { rule } }] },
    })),
  );
  const order = [...(value ?? '').matchAll(/"rule":"(\w+)"/g)].map((m) => m[1]).join(' ');
  assert.is(order, 'a0 a3 a2 a1 b3 b4 b0 b2 b1 c0 c1 c2 c3');
});

test.run();
