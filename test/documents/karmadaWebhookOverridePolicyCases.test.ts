// OverridePolicies and ClusterOverridePolicies read from Git are held to Karmada's webhooks
// (pkg/webhook/overridepolicy, pkg/webhook/clusteroverridepolicy: ValidateOverrideSpec in pkg/util/validation), and an
// OverridePolicy's selectors without a namespace mean its own namespace, as its mutating webhook fills them.
// Cases from those packages' validating_test.go and mutating_test.go.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding, TargetCluster } from '../../src/api/binding.ts';
import type { Located, Template } from '../../src/api/model.ts';
import type { OverridePolicy, PropagationPolicy } from '../../src/api/policy.ts';
import { claimTemplate } from '../../src/bindings/claimTemplate.ts';
import { classifyDocuments } from '../../src/documents/classifyDocuments.ts';
import { parseDocuments } from '../../src/documents/parseDocuments.ts';
import { formatPath } from '../../src/documents/schema/formatPath.ts';
import { validateKarmadaDocument } from '../../src/documents/schema/validateKarmadaDocument.ts';
import { renderWorkManifest } from '../../src/works/renderWorkManifest.ts';
import { memberCluster, modelOf, templateOf } from '../helpers/inMemoryModel.ts';

type Obj = Record<string, unknown>;
type Kind = 'OverridePolicy' | 'ClusterOverridePolicy';

const policy = (kind: Kind, spec: Obj, namespace?: string): Obj => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind,
  metadata: { name: 'op', ...(namespace ? { namespace } : {}) },
  spec,
});

/** The paths of every problem Flotilla reports on the policy (schema and Karmada's rules). */
const problemPaths = (kind: Kind, value: Obj) => validateKarmadaDocument(kind, value).map((i) => formatPath(i.path));

const rules = (overriders: Obj, targetCluster?: Obj): Obj => ({
  overrideRules: [{ ...(targetCluster ? { targetCluster } : {}), overriders }],
});

test('a label key with "~" in an override rule is refused, in an OverridePolicy and a ClusterOverridePolicy', () => {
  // overridepolicy and clusteroverridepolicy validating_test.go "Handle_Validation(Cluster)OverrideSpecFails_DeniesAdmission".
  for (const kind of ['OverridePolicy', 'ClusterOverridePolicy'] as const) {
    const spec = {
      resourceSelectors: [{ apiVersion: 'test-apiversion', kind: 'test' }],
      ...rules(
        { labelsOverrider: [{ operator: 'add', value: { 'testannotation~projectId': 'c-m-lfx9lk92p-v86cf' } }] },
        { clusterNames: ['member1'] },
      ),
    };
    assert.equal(
      problemPaths(kind, policy(kind, spec)),
      ['spec.overrideRules[0].overriders.labelsOverrider[0].value["testannotation~projectId"]'],
      kind,
    );
  }
});

test('a plaintext remove without a value, for one named cluster, is admitted', () => {
  // overridepolicy and clusteroverridepolicy validating_test.go "Handle_ValidationSucceeds_AllowsAdmission".
  for (const kind of ['OverridePolicy', 'ClusterOverridePolicy'] as const) {
    const spec = {
      resourceSelectors: [{ apiVersion: 'test-apiversion', kind: 'test' }],
      ...rules({ plaintext: [{ path: '/spec/optional', operator: 'remove' }] }, { clusterNames: ['member1'] }),
    };
    assert.equal(problemPaths(kind, policy(kind, spec)), [], kind);
  }
});

test('a plaintext remove carrying a value is admitted without a word: the JSON patch it becomes reads no value', () => {
  // ValidateOverrideRules checks operators of fieldOverrider only; evanphx/json-patch's remove ignores `value`.
  for (const kind of ['OverridePolicy', 'ClusterOverridePolicy'] as const) {
    const spec = rules({
      plaintext: [{ path: '/spec/template/spec/containers/0/args', operator: 'remove', value: ['--x'] }],
    });
    assert.equal(
      validateKarmadaDocument(kind, policy(kind, spec)).map((i) => i.message),
      [],
      kind,
    );
  }
});

test('a fieldOverrider YAML operation whose subPath is not a JSON pointer is refused there', () => {
  // overridepolicy/validating_test.go "Handle_InvalidYAMLSubPath_DeniesAdmission".
  const spec = rules({
    fieldOverrider: [
      { fieldPath: '/data/config', yaml: [{ subPath: 'invalidSubPath', operator: 'replace', value: 'db: new' }] },
    ],
  });
  assert.equal(problemPaths('OverridePolicy', policy('OverridePolicy', spec)), [
    'spec.overrideRules[0].overriders.fieldOverrider[0].yaml[0].subPath',
  ]);
});

test('a fieldOverrider JSON replace without a value is refused at its value', () => {
  // overridepolicy/validating_test.go "Handle_InvalidJSONValue_DeniesAdmission_OverriderOpReplace".
  const spec = rules({
    fieldOverrider: [{ fieldPath: '/data/config', json: [{ subPath: '/db-config', operator: 'replace' }] }],
  });
  assert.equal(problemPaths('OverridePolicy', policy('OverridePolicy', spec)), [
    'spec.overrideRules[0].overriders.fieldOverrider[0].json[0].value',
  ]);
});

test('annotations an override rule adds are refused when together they pass 256 KiB', () => {
  // ValidateOverrideRules calls apivalidation.ValidateAnnotations, which also bounds the total size of the keys
  // and values (TotalAnnotationSizeLimitB, 262144 bytes): the member would refuse such an object anyway.
  const big = 'x'.repeat(200 * 1024);
  const spec = rules({
    annotationsOverrider: [{ operator: 'add', value: { 'example.com/a': big, 'example.com/b': big } }],
  });
  assert.equal(problemPaths('OverridePolicy', policy('OverridePolicy', spec)), [
    'spec.overrideRules[0].overriders.annotationsOverrider[0].value',
  ]);
  const fits = rules({ annotationsOverrider: [{ operator: 'add', value: { 'example.com/a': big } }] });
  assert.equal(problemPaths('OverridePolicy', policy('OverridePolicy', fits)), []);
});

// ---------------------------------------------------------------- mutation: a selector's namespace is the policy's

function admitOverride(value: Obj): OverridePolicy {
  const { documents, problems } = parseDocuments('policies/op.yaml', new TextEncoder().encode(JSON.stringify(value)));
  const out = classifyDocuments('policies/op.yaml', documents, problems);
  assert.equal(
    out.problems.map((p) => p.message),
    [],
  );
  return out.overridePolicies[0]!.object;
}

test("an OverridePolicy's selectors without a namespace select only objects of the policy's namespace", () => {
  // overridepolicy/mutating_test.go TestMutatingAdmission_Handle_FullCoverage: both selectors get test-namespace.
  const op = admitOverride(
    policy(
      'OverridePolicy',
      {
        resourceSelectors: [
          { apiVersion: 'apps/v1', kind: 'Deployment' },
          { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        ],
        ...rules({ labelsOverrider: [{ operator: 'add', value: { overridden: 'yes' } }] }),
      },
      'test-namespace',
    ),
  );
  const deployment = (namespace: string): Template =>
    templateOf({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace },
      spec: { replicas: 1, template: { spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
    });
  const everywhere: Located<PropagationPolicy> = {
    object: {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'ClusterPropagationPolicy',
      metadata: { name: 'all' },
      spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }] },
    },
    source: { file: 'policies/all.yaml', line: 1, column: 1 },
  };
  const member1 = memberCluster('member1');
  const inOwn = deployment('test-namespace');
  const inOther = deployment('other-namespace');
  const model = modelOf({
    templates: [inOwn, inOther],
    policies: [everywhere],
    overrides: [{ object: op, source: { file: 'policies/op.yaml', line: 1, column: 1 } }],
    clusters: [member1],
  });
  const labelsOn = (template: Template) => {
    const claim = claimTemplate(template, model, undefined);
    if (claim.status !== 'claimed') throw new Error(claim.reason);
    const targets: TargetCluster[] = [{ name: 'member1', replicas: 1 }];
    const binding: ResourceBinding = { ...claim.binding, spec: { ...claim.binding.spec, clusters: targets } };
    const work = renderWorkManifest(
      { template, binding, clusters: targets, policy: everywhere },
      targets[0]!,
      member1,
      model,
    );
    return (work.manifest as { metadata: { labels?: Record<string, string> } }).metadata.labels ?? {};
  };
  assert.is(labelsOn(inOwn).overridden, 'yes');
  assert.is(labelsOn(inOther).overridden, undefined);
});

test('an empty overrideRules beside the deprecated targetCluster and overriders is dropped by the OverridePolicy webhook', () => {
  // Its JSON round trip omits the empty list, so ValidateOverrideSpec sees no overrideRules to clash with. A
  // ClusterOverridePolicy has no mutating webhook: stored as written, the empty list still clashes.
  const spec = {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
    targetCluster: { clusterNames: ['member1'] },
    overriders: { labelsOverrider: [{ operator: 'add', value: { overridden: 'yes' } }] },
    overrideRules: [],
  };
  const op = admitOverride(policy('OverridePolicy', spec, 'shop'));
  assert.is(op.spec.overrideRules, undefined);
  assert.equal(op.spec.targetCluster, { clusterNames: ['member1'] });
  assert.equal(problemPaths('ClusterOverridePolicy', policy('ClusterOverridePolicy', spec)), [
    'spec.targetCluster',
    'spec.overriders',
  ]);
});

test('the deprecated spec.overriders is not checked by Karmada: what is wrong there is a warning, an identity path an error', () => {
  // ValidateOverrideSpec validates overrideRules only.
  const severities = (overriders: Obj) =>
    validateKarmadaDocument(
      'OverridePolicy',
      policy('OverridePolicy', { resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap' }], overriders }, 'shop'),
    ).map((i) => `${formatPath(i.path)} ${i.warning ? 'warning' : 'error'}`);
  const both = {
    fieldPath: '/data/a',
    json: [{ subPath: '/x', operator: 'add', value: 1 }],
    yaml: [{ subPath: '/x', operator: 'add', value: 1 }],
  };
  assert.equal(severities({ fieldOverrider: [both] }), ['spec.overriders.fieldOverrider[0] warning']);
  assert.equal(severities({ labelsOverrider: [{ operator: 'add', value: { 'a~b': 'x' } }] }), [
    'spec.overriders.labelsOverrider[0].value["a~b"] warning',
  ]);
  assert.equal(severities({ plaintext: [{ path: '/metadata/name', operator: 'replace', value: 'x' }] }), [
    'spec.overriders.plaintext[0].path error',
  ]);
  // In a rule, Karmada's webhook refuses both.
  assert.equal(problemPaths('OverridePolicy', policy('OverridePolicy', rules({ fieldOverrider: [both] }), 'shop')), [
    'spec.overrideRules[0].overriders.fieldOverrider[0]',
  ]);
});

test.run();
