// Karmada's end-to-end scenarios for dependencies, interpreter customizations of a native kind, taking over workloads
// that already run in a member, and deletion protection, replayed through renders of a small config repo.
// Scenarios from test/e2e/suites/base/{dependenciesdistributor,resourceinterpreter,porting_workloads,
// resource_deletion_protection}_test.go (Karmada f8fdd02). Events are not checked (no counterpart).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { planDelivery } from '../../src/deliveries/planDelivery.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { makeConfigRepo, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';

const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

/** A repo holding the three members and `files`; `next` commits more (null deletes) and renders again. */
async function fleet(files: Record<string, string>) {
  const r = makeConfigRepo();
  repos.push(r);
  const next = async (more: Record<string, string | null>) => {
    r.commit(more);
    return renderRevision(await openRepo(r.dir), r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  };
  await next({ ...MEMBERS, ...files });
  const read = (p: string) =>
    r.ls('flotilla/rendered').includes(p) ? parse(r.show('flotilla/rendered', p)) : undefined;
  const manifest = (cluster: string, file: string, namespace = 'default') =>
    read(`clusters/${cluster}/${namespace}/${file}`);
  const binding = (name: string, namespace = 'default') => read(`bindings/${namespace}/${name}.yaml`);
  return { manifest, binding, next };
}

const deployment = (name: string, podSpec: string, metadata = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}${metadata}
spec:
  replicas: 3
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec:
${podSpec}      containers:
        - name: nginx
          image: nginx:1.19.0
          resources: {requests: {cpu: 10m}, limits: {cpu: 100m}}
`;
const volume = (source: string) => `      volumes: [{name: vol, ${source}}]\n`;
const policy = (
  name: string,
  clusters: string[],
  opts: { kind?: string; propagateDeps?: boolean; extra?: string; selects?: string } = {},
) => `apiVersion: policy.karmada.io/v1alpha1
kind: ${opts.kind ?? 'PropagationPolicy'}
metadata: {name: ${name}}
spec:
${opts.propagateDeps === false ? '' : '  propagateDeps: true\n'}${opts.extra ?? ''}  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: ${opts.selects ?? name}}]
  placement:
    clusterAffinity: {clusterNames: [${clusters.join(', ')}]}
`;
const CONFIGMAP = (data = 'karmada') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\ndata: {user: ${data}}\n`;

// dependenciesdistributor_test.go, "configmap automatically propagation testing", with a PropagationPolicy and with
// a ClusterPropagationPolicy
for (const kind of ['PropagationPolicy', 'ClusterPropagationPolicy']) {
  test(`${kind} with propagateDeps: the ConfigMap a Deployment mounts follows it to member1, then to member2 when the placement moves, and carries its new data`, async () => {
    const { manifest, next } = await fleet({
      'templates/cfg.yaml': CONFIGMAP(),
      'templates/web.yaml': deployment('web', volume('configMap: {name: cfg}')),
      'policies/pp.yaml': policy('web', ['member1'], { kind }),
    });
    assert.ok(manifest('member1', 'deployment.apps_web.yaml'));
    assert.is(manifest('member1', 'configmap_cfg.yaml')?.data.user, 'karmada');
    assert.is(manifest('member2', 'configmap_cfg.yaml'), undefined);

    await next({ 'policies/pp.yaml': policy('web', ['member2'], { kind }) });
    assert.ok(manifest('member2', 'deployment.apps_web.yaml'));
    assert.ok(manifest('member2', 'configmap_cfg.yaml'));
    assert.is(manifest('member1', 'deployment.apps_web.yaml'), undefined);
    assert.is(manifest('member1', 'configmap_cfg.yaml'), undefined);

    await next({ 'templates/cfg.yaml': CONFIGMAP('karmada-e2e') });
    assert.is(manifest('member2', 'configmap_cfg.yaml')?.data.user, 'karmada-e2e');
  });
}

// dependenciesdistributor_test.go, "secret automatically propagation testing" and
// "persistentVolumeClaim automatically propagation testing"
const DEPENDENCIES = [
  {
    what: 'Secret',
    template: 'apiVersion: v1\nkind: Secret\nmetadata: {name: dep}\ntype: Opaque\ndata: {user: a2FybWFkYQ==}\n',
    source: 'secret: {secretName: dep}',
    file: 'secret_dep.yaml',
  },
  {
    what: 'PersistentVolumeClaim',
    template:
      'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: dep}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n',
    source: 'persistentVolumeClaim: {claimName: dep, readOnly: false}',
    file: 'persistentvolumeclaim_dep.yaml',
  },
];
for (const d of DEPENDENCIES) {
  test(`a ${d.what} the Deployment mounts follows it, and leaves the member when the Deployment stops mounting it`, async () => {
    const { manifest, binding, next } = await fleet({
      'templates/dep.yaml': d.template,
      'templates/web.yaml': deployment('web', volume(d.source)),
      'policies/pp.yaml': policy('web', ['member1']),
    });
    assert.ok(manifest('member1', d.file), 'propagated with the Deployment');
    assert.is(manifest('member2', d.file), undefined);
    await next({ 'templates/web.yaml': deployment('web', volume('configMap: {name: configMap-test}')) });
    assert.ok(manifest('member1', 'deployment.apps_web.yaml'));
    assert.is(manifest('member1', d.file), undefined, 'no longer referenced: removed');
    assert.is(binding(`dep-${d.what.toLowerCase()}`), undefined, 'its attached binding is gone');
  });
}

// dependenciesdistributor_test.go, "serviceAccount automatically propagation testing"
test("the ServiceAccount a Deployment runs as follows it, and leaves the member when the Deployment goes back to 'default'", async () => {
  const { manifest, next } = await fleet({
    'templates/sa.yaml': 'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: runner}\n',
    'templates/web.yaml': deployment('web', '      serviceAccountName: runner\n'),
    'policies/pp.yaml': policy('web', ['member1']),
  });
  assert.ok(manifest('member1', 'serviceaccount_runner.yaml'));
  await next({ 'templates/web.yaml': deployment('web', '      serviceAccountName: default\n') });
  assert.is(manifest('member1', 'serviceaccount_runner.yaml'), undefined);
});

// dependenciesdistributor_test.go, "dependency policy conflict detected and resolved testing": two Deployments
// sharing one ConfigMap, each under its own policy; the attached binding takes Overwrite if any parent has it, and
// preserves if any parent preserves (pkg/dependenciesdistributor/policy_utils.go).
const two = (a: string, b: string) => ({
  'templates/cfg.yaml': CONFIGMAP(),
  'templates/a.yaml': deployment('a', volume('configMap: {name: cfg}')),
  'templates/b.yaml': deployment('b', volume('configMap: {name: cfg}')),
  'policies/a.yaml': policy('a', ['member1'], { extra: a }),
  'policies/b.yaml': policy('b', ['member1'], { extra: b }),
});
const settings = (cr: string, preserve: boolean) =>
  `  conflictResolution: ${cr}\n  preserveResourcesOnDeletion: ${preserve}\n`;
const resolved = (rb: { spec: { conflictResolution?: string; preserveResourcesOnDeletion?: boolean } }) => [
  rb.spec.conflictResolution ?? 'Abort',
  rb.spec.preserveResourcesOnDeletion ?? false,
];
for (const [name, a, b, want] of [
  ['conflict on both fields', settings('Overwrite', true), settings('Abort', false), ['Overwrite', true]],
  ['conflict on conflictResolution only', settings('Overwrite', false), settings('Abort', false), ['Overwrite', false]],
  [
    'conflict on preserveResourcesOnDeletion only',
    settings('Overwrite', true),
    settings('Overwrite', false),
    ['Overwrite', true],
  ],
] as const) {
  test(`a ConfigMap shared by two parents (${name}) is attached with Overwrite if any parent overwrites and preserved if any preserves`, async () => {
    const { binding } = await fleet(two(a, b));
    assert.equal(resolved(binding('a-deployment')), [want[0], a.includes('true')]);
    assert.equal(resolved(binding('cfg-configmap')), [...want]);
  });
}

test('a shared ConfigMap stays Overwrite and preserved when the conflicting parent policy is aligned, or deleted', async () => {
  const { binding, next } = await fleet(two(settings('Overwrite', true), settings('Abort', false)));
  await next({ 'policies/b.yaml': policy('b', ['member1'], { extra: settings('Overwrite', true) }) });
  assert.equal(resolved(binding('b-deployment')), ['Overwrite', true]);
  assert.equal(resolved(binding('cfg-configmap')), ['Overwrite', true]);

  const other = await fleet(two(settings('Overwrite', true), settings('Abort', false)));
  await other.next({ 'policies/b.yaml': null });
  assert.equal(resolved(other.binding('cfg-configmap')), ['Overwrite', true]);
});

// resourceinterpreter_test.go, "Resource interpreter customization testing" on apps/v1 Deployment
const customization = (name: string, hook: string, script: string) => `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: ${name}}
spec:
  target: {apiVersion: apps/v1, kind: Deployment}
  customizations:
    ${hook}:
      luaScript: |
${script
  .trim()
  .split('\n')
  .map((l) => `        ${l}`)
  .join('\n')}
`;

test("a Lua GetReplicas on Deployment replaces the built-in one: replicas + 1, and the first container's limits as the request", async () => {
  const { binding } = await fleet({
    'interpreters/replicas.yaml': customization(
      'replicas',
      'replicaResource',
      `function GetReplicas(desiredObj)
  replica = desiredObj.spec.replicas + 1
  requirement = {}
  requirement.nodeClaim = {}
  requirement.nodeClaim.nodeSelector = desiredObj.spec.template.spec.nodeSelector
  requirement.nodeClaim.tolerations = desiredObj.spec.template.spec.tolerations
  requirement.resourceRequest = desiredObj.spec.template.spec.containers[1].resources.limits
  return replica, requirement
end`,
    ),
    'templates/web.yaml': deployment('web', ''),
    'policies/pp.yaml': policy('web', ['member1'], { propagateDeps: false }),
  });
  const rb = binding('web-deployment');
  assert.is(rb.spec.replicas, 4);
  // Karmada's e2e also expects namespace: default, because its e2e control plane runs with AllAlpha=true; with the
  // default gates (ResourceQuotaEstimate off, pkg/detector/detector.go applyReplicaInterpretation) it is not set.
  assert.equal(rb.spec.replicaRequirements, { resourceRequest: { cpu: '100m' } });
});

test('a Lua ReviseReplica on Deployment writes each member its share plus one (static weights 1:2:3 of 6)', async () => {
  const weights = `    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
          - {targetCluster: {clusterNames: [member1]}, weight: 1}
          - {targetCluster: {clusterNames: [member2]}, weight: 2}
          - {targetCluster: {clusterNames: [member3]}, weight: 3}
`;
  const { manifest } = await fleet({
    'interpreters/revise.yaml': customization(
      'revise',
      'replicaRevision',
      `function ReviseReplica(obj, desiredReplica)
  obj.spec.replicas = desiredReplica + 1
  return obj
end`,
    ),
    'templates/web.yaml': deployment('web', '').replace('replicas: 3', 'replicas: 6'),
    'policies/pp.yaml': `${policy('web', ['member1', 'member2', 'member3'], { propagateDeps: false })}${weights}`,
  });
  assert.equal(
    ['member1', 'member2', 'member3'].map((c) => manifest(c, 'deployment.apps_web.yaml')?.spec.replicas),
    [2, 3, 4],
  );
});

test('two Lua GetDependencies customizations of Deployment add up: its ServiceAccount and its ConfigMap both follow it', async () => {
  const { manifest } = await fleet({
    'interpreters/sa.yaml': customization(
      'deps-sa',
      'dependencyInterpretation',
      `function GetDependencies(desiredObj)
  refs = {}
  local sa = desiredObj.spec.template.spec.serviceAccountName
  if sa ~= nil and sa ~= 'default' then
    refs[1] = {apiVersion = 'v1', kind = 'ServiceAccount', name = sa, namespace = desiredObj.metadata.namespace}
  end
  return refs
end`,
    ),
    'interpreters/cm.yaml': customization(
      'deps-cm',
      'dependencyInterpretation',
      `function GetDependencies(desiredObj)
  refs = {}
  if desiredObj.spec.template.spec.volumes == nil then
    return refs
  end
  local idx = 1
  for index, volume in pairs(desiredObj.spec.template.spec.volumes) do
    if volume.configMap ~= nil then
      refs[idx] = {apiVersion = 'v1', kind = 'ConfigMap', name = volume.configMap.name, namespace = desiredObj.metadata.namespace}
      idx = idx + 1
    end
  end
  return refs
end`,
    ),
    'templates/sa.yaml': 'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: runner}\n',
    'templates/cfg.yaml': CONFIGMAP(),
    'templates/web.yaml': deployment('web', `      serviceAccountName: runner\n${volume('configMap: {name: cfg}')}`),
    'policies/pp.yaml': policy('web', ['member2']),
  });
  assert.ok(manifest('member2', 'deployment.apps_web.yaml'));
  assert.ok(manifest('member2', 'serviceaccount_runner.yaml'));
  assert.ok(manifest('member2', 'configmap_cfg.yaml'));
});

// porting_workloads_test.go, "porting Deployments from legacy clusters testing"
test("a Deployment already in a member is applied under Abort until the template's conflict-resolution annotation says overwrite", async () => {
  const { manifest, next } = await fleet({
    'templates/web.yaml': deployment('web', ''),
    'policies/pp.yaml': policy('web', ['member1', 'member2', 'member3'], { propagateDeps: false }),
  });
  const resolution = () =>
    planDelivery({
      manifests: new Map([['p', manifest('member1', 'deployment.apps_web.yaml')]]),
      inventory: [],
      prune: false,
    }).rest.map((o) => o.conflictResolution);
  assert.equal(resolution(), ['abort']);
  await next({
    'templates/web.yaml': deployment('web', '', '\n  annotations: {work.karmada.io/conflict-resolution: overwrite}'),
  });
  assert.equal(resolution(), ['overwrite']);
});

// resource_deletion_protection_test.go
const PROTECTED = '\n  labels: {resourcetemplate.karmada.io/deletion-protected: Always}';
const namespace = (labels = '') => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: guarded${labels}\n`;
test('a protected Namespace is not deleted: its deletion is refused and every member keeps it', async () => {
  const { manifest, next } = await fleet({ 'templates/ns.yaml': namespace(PROTECTED) });
  const report = await next({ 'templates/ns.yaml': null });
  assert.ok(JSON.stringify(report).includes('DELETION_PROTECTED'), 'the deletion is refused with an error');
  for (const c of ['member1', 'member2', 'member3']) assert.ok(manifest(c, 'namespace_guarded.yaml', '_cluster'), c);
});

test('once the label is taken off, the Namespace can be deleted', async () => {
  const { manifest, next } = await fleet({ 'templates/ns.yaml': namespace(PROTECTED) });
  await next({ 'templates/ns.yaml': null });
  assert.ok(manifest('member1', 'namespace_guarded.yaml', '_cluster'), 'still protected');
  await next({ 'templates/ns.yaml': namespace() });
  await next({ 'templates/ns.yaml': null });
  assert.is(manifest('member1', 'namespace_guarded.yaml', '_cluster'), undefined);
});

test.run();
