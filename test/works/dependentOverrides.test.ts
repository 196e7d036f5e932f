// A policy's spec.dependentOverrides: while an OverridePolicy it names is missing, Karmada's detector applies the
// policy to no template (IsDependentOverridesPresent); the template waits, its last output kept, and renders once
// the OverridePolicy arrives, whatever that OverridePolicy targets.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import type { OverridePolicy, PropagationPolicy } from '../../src/api/policy.ts';
import { missingDependentOverrides } from '../../src/bindings/dependentOverrides.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { clusterYaml, deployment, makeConfigRepo, RENDERED_REF, SOURCE_REF } from '../helpers/fleet.ts';

const policy = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  dependentOverrides: [registry]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;
// It targets another Deployment: what matters is that it exists.
const registry = `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: registry, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: other}]
  overrideRules:
    - overriders:
        labelsOverrider: [{operator: add, value: {team: a}}]
`;
const MANIFEST = 'clusters/member1/default/deployment.apps_web.yaml';

test("a template waits for its policy's dependentOverrides, renders once they exist, and keeps its output when one goes", async () => {
  const r = makeConfigRepo();
  try {
    r.commit(
      {
        'clusters/member1.yaml': clusterYaml('member1'),
        'policies/web.yaml': policy,
        'templates/web.yaml': deployment('web', 2),
      },
      'web, its OverridePolicy not there yet',
    );
    const sync = async () =>
      (await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE_REF, outputRef: RENDERED_REF })).reports.flatMap(
        (report) => report.problems,
      );
    const waiting = (await sync()).filter((p) => p.code === 'DEPENDENT_OVERRIDES_MISSING');
    assert.equal(
      waiting.map((p) => [p.file, p.severity]),
      [['templates/web.yaml', 'warning']],
    );
    assert.match(waiting[0]!.message, 'OverridePolicy registry in namespace default');
    assert.not.ok(r.ls('flotilla/rendered').includes(MANIFEST), 'nothing placed while it waits');

    r.commit({ 'policies/registry.yaml': registry }, 'the OverridePolicy arrives');
    assert.equal(
      (await sync()).filter((p) => p.code === 'DEPENDENT_OVERRIDES_MISSING'),
      [],
    );
    assert.ok(r.ls('flotilla/rendered').includes(MANIFEST), 'rendered once it is there');
    const verified = await verifyOutput(await openRepo(r.dir), { outputRef: RENDERED_REF });
    assert.equal([verified.differs, verified.missing, verified.extra], [[], [], []]);

    r.commit({ 'policies/registry.yaml': null, 'templates/web.yaml': deployment('web', 3) }, 'it goes again');
    assert.equal((await sync()).filter((p) => p.code === 'DEPENDENT_OVERRIDES_MISSING').length, 1);
    assert.match(r.show('flotilla/rendered', MANIFEST), 'replicas: 2', 'the last output is kept, not updated');
  } finally {
    r.cleanup();
  }
});

test('a policy that lets go of a template loses its claim on the binding while the policy now selecting it waits', async () => {
  const r = makeConfigRepo();
  const BINDING = 'bindings/default/web-deployment.yaml';
  const placedBy = (name: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: ${name}, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;
  try {
    r.commit(
      {
        'clusters/member1.yaml': clusterYaml('member1'),
        'policies/old.yaml': placedBy('old'),
        'templates/web.yaml': deployment('web', 2),
      },
      'web placed by old',
    );
    const sync = async () => syncRepo(await openRepo(r.dir), { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
    await sync();
    assert.match(r.show('flotilla/rendered', BINDING), 'propagationpolicy.karmada.io/name: old');

    r.commit({ 'policies/old.yaml': null, 'policies/web.yaml': policy }, 'old goes; web waits for registry');
    await sync();
    const released = r.show('flotilla/rendered', BINDING);
    assert.not.match(released, 'propagationpolicy.karmada.io/', "neither old's claim nor web's");
    assert.match(released, '- name: member1', 'the binding keeps its result');
    assert.match(r.show('flotilla/rendered', MANIFEST), 'replicas: 2', 'and the member its object');

    r.commit({ 'policies/registry.yaml': registry }, 'registry arrives');
    await sync();
    assert.match(r.show('flotilla/rendered', BINDING), 'propagationpolicy.karmada.io/name: web');
    r.commit({ 'policies/registry.yaml': null }, 'registry goes again');
    await sync();
    assert.match(
      r.show('flotilla/rendered', BINDING),
      'propagationpolicy.karmada.io/name: web',
      "web's own claim stays while it waits",
    );
    const verified = await verifyOutput(await openRepo(r.dir), { outputRef: RENDERED_REF });
    assert.equal([verified.differs, verified.missing, verified.extra], [[], [], []]);
  } finally {
    r.cleanup();
  }
});

test('a ClusterPropagationPolicy depends on ClusterOverridePolicies, a PropagationPolicy on OverridePolicies of its namespace', () => {
  const pp = (kind: string, namespace?: string) =>
    ({
      kind,
      metadata: { name: 'p', ...(namespace ? { namespace } : {}) },
      spec: { resourceSelectors: [], dependentOverrides: ['a', 'b'] },
    }) as unknown as PropagationPolicy;
  const op = (kind: string, name: string, namespace?: string) => ({
    object: { kind, metadata: { name, ...(namespace ? { namespace } : {}) }, spec: {} } as unknown as OverridePolicy,
    source: { file: 'x.yaml', line: 1, column: 1 },
  });
  const overrides = [
    op('OverridePolicy', 'a', 'shop'),
    op('OverridePolicy', 'b', 'other'),
    op('ClusterOverridePolicy', 'b'),
  ];
  assert.equal(missingDependentOverrides(pp('PropagationPolicy', 'shop'), overrides), ['b']);
  assert.equal(missingDependentOverrides(pp('ClusterPropagationPolicy'), overrides), ['a']);
});

test.run();
