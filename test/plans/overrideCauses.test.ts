import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildPlan } from '../../src/plans/buildPlan.ts';
import { describeCause } from '../../src/plans/overrideCauses.ts';
import { manifestYaml } from '../../src/branches/rendered/manifestYaml.ts';
import { manifestPath } from '../../src/branches/rendered/outputPaths.ts';
import { refKey, type ObjectRef } from '../../src/api/kinds.ts';
import type { OutputIndex } from '../../src/branches/rendered/outputIndex.ts';
import type { Located } from '../../src/api/model.ts';
import type { OverridePolicy } from '../../src/api/policy.ts';

const web: ObjectRef = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' };
const labels = (value: Record<string, string>) => ({ labelsOverrider: [{ operator: 'add', value }] });

function policy(
  kind: OverridePolicy['kind'],
  name: string,
  overriders: object[],
  file: string,
): Located<OverridePolicy> {
  return {
    object: {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind,
      metadata: { name, ...(kind === 'OverridePolicy' ? { namespace: 'shop' } : {}) },
      spec: {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
        overrideRules: overriders.map((o) => ({ overriders: o })),
      },
    } as OverridePolicy,
    source: { file, line: 1, column: 1 },
  };
}

/** The Deployment as the rendered branch writes it, with the Work's annotations and a label. */
function rendered(annotations: Record<string, string>, label: string): string {
  return manifestYaml({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', labels: { tier: label }, annotations },
    spec: {
      replicas: 1,
      // The object's own pod annotations: never the Work's, though a key may be spelled the same.
      template: { metadata: { annotations: { 'policy.karmada.io/applied-overrides': '[{"policyName":"decoy"}]' } } },
    },
  });
}

const applied = (name: string, overriders: object) => JSON.stringify([{ policyName: name, overriders }]);

function plan(
  before: string,
  after: string,
  base: Located<OverridePolicy>[],
  head: Located<OverridePolicy>[],
): ReturnType<typeof buildPlan> {
  const path = manifestPath('m1', web);
  const index = { files: {}, templates: { [refKey(web)]: { clusters: ['m1'] } } } as unknown as OutputIndex;
  return buildPlan({
    base: { sha: 'a'.repeat(40), files: new Map([[path, before]]), index, overridePolicies: base },
    head: {
      sha: 'b'.repeat(40),
      files: new Map([[path, after]]),
      index,
      overridePolicies: head,
      problems: [],
      explanations: new Map(),
      trailers: {},
      source: 'ok',
    },
  });
}

test("a change names the rules read from the Work's annotations alone, past another annotation's multi-line value", () => {
  // A multi-line value with an empty line comes before the Work's own annotations, which are written last.
  const note = { 'example.com/notes': 'first\n\nsecond' };
  const op = policy('OverridePolicy', 'shop-op', [labels({ tier: 'a' }), labels({ tier: 'b' })], 'policies/op.yaml');
  const before = rendered(
    { ...note, 'policy.karmada.io/applied-overrides': applied('shop-op', labels({ tier: 'a' })) },
    'a',
  );
  const after = rendered(
    { ...note, 'policy.karmada.io/applied-overrides': applied('shop-op', labels({ tier: 'b' })) },
    'b',
  );
  const changed = plan(before, after, [op], [op]).clusters.m1!.changed[0]!;
  assert.equal(changed.overrides?.map(describeCause), [
    'OverridePolicy shop/shop-op rule 1 (policies/op.yaml:1) now applies',
    'OverridePolicy shop/shop-op rule 0 (policies/op.yaml:1) no longer applies',
  ]);
});

test('an object whose change is not an override names no rule, though its annotations record some', () => {
  const op = policy('OverridePolicy', 'shop-op', [labels({ tier: 'a' })], 'policies/op.yaml');
  const annotations = { 'policy.karmada.io/applied-overrides': applied('shop-op', labels({ tier: 'a' })) };
  const changed = plan(rendered(annotations, 'a'), rendered(annotations, 'c'), [op], [op]).clusters.m1!.changed[0]!;
  assert.is(changed.overrides, undefined);
});

test('a ClusterOverridePolicy that applies nowhere is told so, though an OverridePolicy of its name applies', () => {
  const op = policy('OverridePolicy', 'same', [labels({ tier: 'a' })], 'policies/op.yaml');
  const cop = policy('ClusterOverridePolicy', 'same', [labels({ tier: 'z' })], 'policies/cop.yaml');
  const text = rendered({ 'policy.karmada.io/applied-overrides': applied('same', labels({ tier: 'a' })) }, 'a');
  const quiet = plan(text, text, [op], [op, cop]).quietOverrides ?? [];
  assert.equal(
    quiet.map((q) => `${q.policy} ${q.message.slice(0, 31)}`),
    ['ClusterOverridePolicy same added, but it overrides nothing'],
  );
});

test.run();
