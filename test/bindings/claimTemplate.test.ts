import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding } from '../../src/api/binding.ts';
import { claimTemplate, orphanedByPolicy } from '../../src/bindings/claimTemplate.ts';
import { policyKey } from '../../src/bindings/matchPolicy.ts';
import { withoutPolicyClaim } from '../../src/bindings/policyClaim.ts';
import { configMap, deployment, modelOf, propagationPolicy, templateOf } from '../helpers/inMemoryModel.ts';

const web = deployment('web', 3);
const apps = propagationPolicy('apps', {
  resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
  placement: {
    clusterAffinity: { clusterNames: ['member1', 'member2'] },
    replicaScheduling: { replicaSchedulingType: 'Divided' },
  },
  propagateDeps: true,
  preserveResourcesOnDeletion: true,
});

test('a matching policy claims the template: the binding carries its claim, the replicas read and the policy fields', () => {
  const claim = claimTemplate(web, modelOf({ templates: [web], policies: [apps] }), undefined);
  if (claim.status !== 'claimed') throw new Error(claim.reason);
  assert.is(claim.policy, apps);
  assert.is(claim.policyKey, policyKey(apps.object));
  assert.is(claim.replicas, 3);
  const b = claim.binding;
  assert.is(b.kind, 'ResourceBinding');
  assert.equal([b.metadata.name, b.metadata.namespace], ['web-deployment', 'default']);
  assert.equal(Object.keys(b.metadata.labels ?? {}), [
    'propagationpolicy.karmada.io/permanent-id',
    'resourcebinding.karmada.io/permanent-id',
  ]);
  assert.equal(b.metadata.annotations, {
    'propagationpolicy.karmada.io/name': 'apps',
    'propagationpolicy.karmada.io/namespace': 'default',
    'flotilla.io/policy': claim.policyKey,
  });
  assert.equal(b.spec, {
    resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' },
    replicas: 3,
    clusters: [],
    placement: apps.object.spec.placement,
    propagateDeps: true,
    conflictResolution: 'Abort',
    schedulerName: 'default-scheduler',
    preserveResourcesOnDeletion: true,
  });
  assert.is(b.status, undefined, "the Scheduled condition is the scheduler's to write");
});

test("the binding copies the policy's fields as Karmada's BuildResourceBinding does: schedulerName always, a false preserveResourcesOnDeletion too", () => {
  const { preserveResourcesOnDeletion: _set, ...base } = apps.object.spec;
  const keep = (preserve: boolean | undefined) => {
    const policy = propagationPolicy('apps', {
      ...base,
      ...(preserve !== undefined ? { preserveResourcesOnDeletion: preserve } : {}),
    });
    const claim = claimTemplate(web, modelOf({ templates: [web], policies: [policy] }), undefined);
    if (claim.status !== 'claimed') throw new Error(claim.reason);
    return claim.binding.spec;
  };
  assert.is(keep(false).preserveResourcesOnDeletion, false);
  assert.is(keep(true).preserveResourcesOnDeletion, true);
  assert.not.ok('preserveResourcesOnDeletion' in keep(undefined));
  assert.is(keep(undefined).schedulerName, 'default-scheduler');
});

test("the detector carries the previous result over untouched: spec.clusters is the scheduler's", () => {
  const previous = {
    spec: { clusters: [{ name: 'member2', replicas: 3 }] },
    metadata: { name: 'web-deployment', annotations: {} },
  } as unknown as ResourceBinding;
  const claim = claimTemplate(web, modelOf({ templates: [web], policies: [apps] }), previous);
  if (claim.status !== 'claimed') throw new Error(claim.reason);
  assert.equal(claim.binding.spec.clusters, [{ name: 'member2', replicas: 3 }]);
});

test('a previous claim sticks while its policy still matches, even when a better policy appears', () => {
  const better = propagationPolicy('better', {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
    priority: 10,
  });
  const model = modelOf({ templates: [web], policies: [apps, better] });
  const fresh = claimTemplate(web, model, undefined);
  assert.is(fresh.status === 'claimed' && fresh.policy, better, 'without a claim the higher priority wins');
  const claimed = claimTemplate(web, modelOf({ templates: [web], policies: [apps] }), undefined);
  if (claimed.status !== 'claimed') throw new Error(claimed.reason);
  const kept = claimTemplate(web, model, claimed.binding);
  assert.is(kept.status === 'claimed' && kept.policy, apps);
});

test('a policy that let go of a template and comes back competes afresh: the best matching policy claims it', () => {
  const better = propagationPolicy('better', {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
    priority: 10,
  });
  const claimed = claimTemplate(web, modelOf({ templates: [web], policies: [apps] }), undefined);
  if (claimed.status !== 'claimed') throw new Error(claimed.reason);
  // What the render left when apps was deleted: the binding without the claim, still naming where it ran.
  const released = withoutPolicyClaim(claimed.binding);
  assert.is(released.metadata.annotations?.['flotilla.io/policy'], policyKey(apps.object));
  const back = claimTemplate(web, modelOf({ templates: [web], policies: [apps, better] }), released);
  assert.is(back.status === 'claimed' && back.policy, better);
});

test('no policy selects the template: unmatched with the reason, and no binding', () => {
  const cm = configMap('settings');
  const claim = claimTemplate(cm, modelOf({ templates: [cm], policies: [apps] }), undefined);
  assert.is(claim.status, 'unmatched');
  assert.ok(claim.reason.length > 0);
  assert.not.ok('binding' in claim);
});

test('a template the detector never propagates is skipped, whatever the policies say', () => {
  const lease = templateOf({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'l', namespace: 'default' },
  });
  const all = propagationPolicy('all', {
    resourceSelectors: [{ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' }],
  });
  const claim = claimTemplate(lease, modelOf({ templates: [lease], policies: [all] }), undefined);
  assert.equal(claim, { status: 'skipped', reason: 'Leases are never propagated' });
});

test('a cluster-scoped template claimed by a ClusterPropagationPolicy gets a ClusterResourceBinding with no namespace', () => {
  const role = templateOf(
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'system:reader' } },
    'templates/role.yaml',
    true,
  );
  const cpp = {
    ...propagationPolicy('roles', {
      resourceSelectors: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' }],
      conflictResolution: 'Overwrite',
    }),
  };
  cpp.object = { ...cpp.object, kind: 'ClusterPropagationPolicy', metadata: { name: 'roles' } };
  const claim = claimTemplate(role, modelOf({ templates: [role], policies: [cpp] }), undefined);
  if (claim.status !== 'claimed') throw new Error(claim.reason);
  const b = claim.binding;
  assert.is(b.kind, 'ClusterResourceBinding');
  assert.equal([b.metadata.name, b.metadata.namespace], ['system.reader-clusterrole', undefined]);
  assert.equal(Object.keys(b.metadata.labels ?? {}), [
    'clusterpropagationpolicy.karmada.io/permanent-id',
    'clusterresourcebinding.karmada.io/permanent-id',
  ]);
  assert.equal(b.metadata.annotations, {
    'clusterpropagationpolicy.karmada.io/name': 'roles',
    'flotilla.io/policy': claim.policyKey,
  });
  assert.equal(b.spec.resource, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    name: 'system:reader',
  });
  assert.is(b.spec.conflictResolution, 'Overwrite');
  assert.not.ok('replicas' in b.spec, 'a non-workload has no replicas');
});

test("a ClusterResourceBinding keeps the propagateDeps it was created with; a ResourceBinding follows its policy's", () => {
  const role = templateOf(
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' } },
    'templates/role.yaml',
    true,
  );
  const cpp = (propagateDeps: boolean) => {
    const p = propagationPolicy('everything', {
      resourceSelectors: [
        { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' },
        { apiVersion: 'apps/v1', kind: 'Deployment' },
      ],
      propagateDeps,
    });
    p.object = { ...p.object, kind: 'ClusterPropagationPolicy', metadata: { name: 'everything' } };
    return p;
  };
  const bindingOf = (template: typeof role, propagateDeps: boolean, previous?: ResourceBinding) => {
    const claim = claimTemplate(template, modelOf({ templates: [template], policies: [cpp(propagateDeps)] }), previous);
    if (claim.status !== 'claimed') throw new Error(claim.reason);
    return claim.binding;
  };
  const created = bindingOf(role, false);
  assert.is(bindingOf(role, true, created).spec.propagateDeps, undefined);
  assert.is(bindingOf(role, false, bindingOf(role, true)).spec.propagateDeps, true);
  assert.is(bindingOf(web, true, bindingOf(web, false)).spec.propagateDeps, true);
});

// kube-apiserver clears metadata.namespace of a cluster-scoped object (rest.BeforeCreate): the namespace a file gives
// a ClusterPropagationPolicy names no other object, so taking it out keeps the claim and its permanent id.
test('a ClusterPropagationPolicy is one policy whatever namespace its file gives it: its claim sticks', () => {
  const role = templateOf(
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' } },
    'templates/role.yaml',
    true,
  );
  const cpp = (name: string, priority: number, namespace?: string) => {
    const p = propagationPolicy(name, {
      resourceSelectors: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' }],
      priority,
    });
    p.object = {
      ...p.object,
      kind: 'ClusterPropagationPolicy',
      metadata: { name, ...(namespace ? { namespace } : {}) },
    };
    return p;
  };
  const first = claimTemplate(role, modelOf({ templates: [role], policies: [cpp('roles', 0, 'tools')] }), undefined);
  if (first.status !== 'claimed') throw new Error(first.reason);
  const later = claimTemplate(
    role,
    modelOf({ templates: [role], policies: [cpp('roles', 0), cpp('better', 10)] }),
    first.binding,
  );
  if (later.status !== 'claimed') throw new Error(later.reason);
  assert.is(later.policy.object.metadata.name, 'roles');
  assert.is(later.policyKey, first.policyKey);
  assert.equal(later.binding.metadata.labels, first.binding.metadata.labels);
});

test('a template whose claiming policy was deleted, and that no policy selects now, is orphaned by that policy', () => {
  const previous = { policy: policyKey(apps.object), clusters: ['member1'] };
  assert.equal(orphanedByPolicy(web, previous, []), { policy: 'PropagationPolicy default/apps', remains: false });
  const other = propagationPolicy('other', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }] });
  assert.is(orphanedByPolicy(web, previous, [other]), undefined, 'another policy takes it over');
  assert.is(orphanedByPolicy(web, previous, [apps]), undefined, 'the policy is still there');
  assert.is(orphanedByPolicy(web, { ...previous, clusters: [] }, []), undefined, 'it ran nowhere: nothing to keep');
});

test.run();
