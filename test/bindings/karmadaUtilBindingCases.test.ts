// How the detector copies a policy's suspension into the binding, case by case, as Karmada's util.MergePolicySuspension
// decides it (cases after pkg/util/binding_test.go at f8fdd02, TestMergePolicySuspension; the cases about a
// third party's suspension.scheduling have no counterpart, Flotilla's bindings being its own output), and the keys the
// binding controller records on each manifest it puts in a Work (pkg/util/label_test.go TestRecordManagedLabels and
// pkg/util/annotation_test.go TestRecordManagedAnnotations, which ctrlutil.CreateOrUpdateWork applies to every manifest
// through util.SetLabelsAndAnnotationsForWorkload).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding } from '../../src/api/binding.ts';
import type { PropagationSpec } from '../../src/api/policy.ts';
import { claimTemplate } from '../../src/bindings/claimTemplate.ts';
import { renderWorkManifest } from '../../src/works/renderWorkManifest.ts';
import { memberCluster, modelOf, propagationPolicy, templateOf } from '../helpers/inMemoryModel.ts';

const web = templateOf(
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { foo: 'foo' }, annotations: { note: 'kept' } },
    spec: { replicas: 2, template: { spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } },
  },
  'templates/web.yaml',
);
const spec = (extra: Partial<PropagationSpec> = {}): PropagationSpec => ({
  resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
  placement: { clusterAffinity: { clusterNames: ['member1'] } },
  ...extra,
});

function claimed(policySpec: PropagationSpec, previous?: ResourceBinding): ResourceBinding {
  const policy = propagationPolicy('web', policySpec);
  const claim = claimTemplate(web, modelOf({ templates: [web], policies: [policy] }), previous);
  if (claim.status !== 'claimed') throw new Error(claim.reason);
  return claim.binding;
}

test('neither the policy nor the binding suspends: the binding has no suspension', () => {
  assert.is(claimed(spec()).spec.suspension, undefined);
});

test("a policy's suspension is copied into a new binding", () => {
  assert.equal(claimed(spec({ suspension: { dispatching: true } })).spec.suspension, { dispatching: true });
  assert.equal(
    claimed(spec({ suspension: { dispatchingOnClusters: { clusterNames: ['member1'] } } })).spec.suspension,
    { dispatchingOnClusters: { clusterNames: ['member1'] } },
  );
});

test('a policy that stops suspending clears the suspension its earlier version put on the binding', () => {
  const before = claimed(spec({ suspension: { dispatching: true } }));
  assert.is(claimed(spec(), before).spec.suspension, undefined);
});

test("a policy's new suspension replaces the one the binding carried", () => {
  const before = claimed(spec({ suspension: { dispatching: true } }));
  const after = claimed(spec({ suspension: { dispatchingOnClusters: { clusterNames: ['member1'] } } }), before);
  assert.equal(after.spec.suspension, { dispatchingOnClusters: { clusterNames: ['member1'] } });
});

test("each manifest records its label keys and its annotation keys, sorted, as the Work's managed keys", () => {
  const policy = propagationPolicy('web', spec());
  const member1 = memberCluster('member1');
  const model = modelOf({ templates: [web], policies: [policy], clusters: [member1] });
  const claim = claimTemplate(web, model, undefined);
  if (claim.status !== 'claimed') throw new Error(claim.reason);
  const target = { name: 'member1', replicas: 2 };
  const binding = { ...claim.binding, spec: { ...claim.binding.spec, clusters: [target] } };
  const { manifest } = renderWorkManifest(
    { template: web, binding, clusters: [target], policy },
    target,
    member1,
    model,
  );
  if (!manifest) throw new Error('no manifest rendered');
  const meta = manifest.metadata as { labels: Record<string, string>; annotations: Record<string, string> };
  const MANAGED_LABELS = 'resourcetemplate.karmada.io/managed-labels';
  const MANAGED_ANNOTATIONS = 'resourcetemplate.karmada.io/managed-annotations';
  assert.is(meta.annotations[MANAGED_LABELS], Object.keys(meta.labels).sort().join(','));
  const annotationKeys = new Set([...Object.keys(meta.annotations), MANAGED_LABELS, MANAGED_ANNOTATIONS]);
  assert.is(meta.annotations[MANAGED_ANNOTATIONS], [...annotationKeys].sort().join(','));
  assert.ok(meta.annotations[MANAGED_LABELS]?.split(',').includes('foo'));
  assert.ok(meta.annotations[MANAGED_ANNOTATIONS]?.split(',').includes('note'));
});

test.run();
