// How several ResourceInterpreterCustomizations of one kind combine, which ones Karmada's webhook refuses, and which
// dependency references its interpreter rejects: Karmada's configmanager, webhook and VerifyDependencies cases.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceInterpreterCustomization } from '../../src/api/interpreterCustomization.ts';
import type { FileObjects, Located } from '../../src/api/model.ts';
import { checkLuaScripts } from '../../src/documents/checkLuaScripts.ts';
import { validateLuaCustomization } from '../../src/documents/schema/validateExtensionKinds.ts';
import { customDependencies, interpreterSet } from '../../src/interpreters/customizations.ts';
import { loadLuaRuntime } from '../../src/interpreters/lua/luaRuntime.ts';

type Hooks = Record<string, string>;

const ric = (
  name: string,
  hooks: Hooks,
  target = { apiVersion: 'apps/v1', kind: 'Deployment' },
): Located<ResourceInterpreterCustomization> => ({
  object: {
    apiVersion: 'config.karmada.io/v1alpha1',
    kind: 'ResourceInterpreterCustomization',
    metadata: { name },
    spec: {
      target,
      customizations: Object.fromEntries(Object.entries(hooks).map(([h, luaScript]) => [h, { luaScript }])),
    },
  } as unknown as ResourceInterpreterCustomization,
  source: { file: `interpreters/${name}.yaml`, line: 1, column: 1 },
});

const luaOf = (list: Located<ResourceInterpreterCustomization>[], kind = 'Deployment') =>
  interpreterSet(list).get(`apps/v1/${kind}`)?.lua;

// configmanager/manager_test.go Test_interpreterConfigManager_LuaScriptAccessors
const c01 = ric('customization01', { retention: 'a=0', replicaResource: 'b=0' });
const c02 = ric('customization02', { replicaRevision: 'c=0', statusReflection: 'd=0' });
const c03 = ric('customization03', { replicaResource: 'b=1', replicaRevision: 'c=1' });

test('one customization gives its kind exactly the operations it sets', () => {
  assert.equal(luaOf([c01]), { retention: 'a=0', replicaResource: 'b=0' });
});

test('customizations of one kind setting different operations add up', () => {
  assert.equal(luaOf([c01, c02]), {
    retention: 'a=0',
    replicaResource: 'b=0',
    replicaRevision: 'c=0',
    statusReflection: 'd=0',
  });
});

test('an operation two customizations set is taken from the first by name, whatever order they come in', () => {
  assert.equal(luaOf([c03, c02, c01]), {
    retention: 'a=0',
    replicaResource: 'b=0',
    replicaRevision: 'c=0',
    statusReflection: 'd=0',
  });
});

// manager_test.go Test_interpreterConfigManager_LoadConfig
test('no customizations: no kind is customized, only the bundled third-party kinds have interpreters', () => {
  const set = interpreterSet([]);
  assert.ok(set.size > 0);
  for (const kind of set.values()) assert.equal(Object.keys(kind), ['thirdParty']);
  assert.is(set.get('apps/v1/Deployment'), undefined);
});

test('customizations of different kinds stay apart', () => {
  const set = interpreterSet([
    ric('a', { retention: 'deployment-retention' }),
    ric('b', { replicaResource: 'statefulset-replica' }, { apiVersion: 'apps/v1', kind: 'StatefulSet' }),
  ]);
  assert.equal(set.get('apps/v1/Deployment')?.lua, { retention: 'deployment-retention' });
  assert.equal(set.get('apps/v1/StatefulSet')?.lua, { replicaResource: 'statefulset-replica' });
  assert.is(set.size, interpreterSet([]).size + 2);
});

test('the same operation in two customizations: the earlier name wins even when listed second', () => {
  assert.equal(
    luaOf([ric('customization-b', { retention: 'second' }), ric('customization-a', { retention: 'first' })]),
    {
      retention: 'first',
    },
  );
});

test('overlapping customizations: the first name keeps its operations, the second adds only the ones it alone sets', () => {
  assert.equal(
    luaOf([
      ric('customization01', { retention: 'first-retention', replicaResource: 'first-replica' }),
      ric('customization02', { retention: 'second-retention', statusReflection: 'second-status' }),
    ]),
    { retention: 'first-retention', replicaResource: 'first-replica', statusReflection: 'second-status' },
  );
});

// configmanager/accessor_test.go TestMerge: an empty script does not hold the operation; dependency scripts append
test('an empty script leaves the operation to a later customization; dependency scripts of all are kept in order', () => {
  assert.equal(
    luaOf([
      ric('a', {
        retention: '',
        statusAggregation: '',
        healthInterpretation: 'existing',
        dependencyInterpretation: 'existing',
      }),
      ric('b', {
        retention: 'new',
        statusAggregation: 'new-agg',
        healthInterpretation: 'new-health',
        dependencyInterpretation: 'new',
      }),
    ]),
    {
      retention: 'new',
      statusAggregation: 'new-agg',
      healthInterpretation: 'existing',
      dependencyInterpretation: ['existing', 'new'],
    },
  );
});

// webhook/resourceinterpretercustomization/helper_test.go Test_validateCustomizationRule and
// Test_checkCustomizationsRule, through the check run on every commit's files.
const files = (list: Located<ResourceInterpreterCustomization>[]): FileObjects[] =>
  list.map(
    (c) =>
      ({
        file: c.source.file,
        templates: [],
        propagationPolicies: [],
        overridePolicies: [],
        clusterTaintPolicies: [],
        clusters: [],
        rebalancers: [],
        interpreterCustomizations: [c],
        broken: [],
        problems: [],
      }) as unknown as FileObjects,
  );
const refused = async (list: Located<ResourceInterpreterCustomization>[]) =>
  (await checkLuaScripts(files(list))).filter((f) => f.problems.length > 0).map((f) => f.file);

const RETAIN = 'function Retain(desiredObj, observedObj)\n  return desiredObj\nend';
const SCRIPTS: Hooks = {
  retention: RETAIN,
  replicaResource: 'function GetReplicas(obj)\n  return obj.spec.replicas, {}\nend',
  // Not run by Flotilla (Karmada's alpha gate is off), but compiled and checked for conflicts like the others.
  componentResource: 'function GetComponents(desiredObj)\n  return {}\nend',
  replicaRevision:
    'function ReviseReplica(obj, desiredReplica)\n  obj.spec.replicas = desiredReplica\n  return obj\nend',
  statusReflection: 'function ReflectStatus(observedObj)\n  return observedObj.status\nend',
  statusAggregation: 'function AggregateStatus(desiredObj, statusItems)\n  return desiredObj\nend',
  healthInterpretation: 'function InterpretHealth(observedObj)\n  return true\nend',
  dependencyInterpretation: 'function GetDependencies(desiredObj)\n  return {}\nend',
};

test('the same operation for another kind or another apiVersion is no conflict', async () => {
  await loadLuaRuntime();
  assert.equal(
    await refused([
      ric('a', { retention: RETAIN }),
      ric('b', { retention: RETAIN }, { apiVersion: 'apps/v1', kind: 'StatefulSet' }),
      ric('c', { retention: RETAIN }, { apiVersion: 'apps/v2', kind: 'Deployment' }),
    ]),
    [],
  );
});

for (const hook of Object.keys(SCRIPTS).filter((h) => h !== 'dependencyInterpretation'))
  test(`a second customization setting ${hook} for the same kind is refused`, async () => {
    assert.equal(await refused([ric('a', { [hook]: SCRIPTS[hook]! }), ric('b', { [hook]: SCRIPTS[hook]! })]), [
      'interpreters/b.yaml',
    ]);
  });

test('two customizations may each set a dependencyInterpretation for the same kind', async () => {
  assert.equal(
    await refused([
      ric('a', { dependencyInterpretation: SCRIPTS.dependencyInterpretation! }),
      ric('b', { dependencyInterpretation: SCRIPTS.dependencyInterpretation! }),
    ]),
    [],
  );
});

test('a refused customization holds no operation: the next one setting it is admitted', async () => {
  // The webhook compares a new customization with the stored ones only; one it refused was never stored.
  assert.equal(
    await refused([
      ric('a', { retention: 'function Retain(desiredObj, observedObj)' }),
      ric('b', { retention: RETAIN }),
      ric('c', { statusReflection: SCRIPTS.statusReflection!, replicaResource: SCRIPTS.replicaResource! }),
      ric('d', { statusReflection: SCRIPTS.statusReflection!, healthInterpretation: SCRIPTS.healthInterpretation! }),
      ric('e', { healthInterpretation: SCRIPTS.healthInterpretation! }),
    ]),
    ['interpreters/a.yaml', 'interpreters/d.yaml'],
  );
});

test('a customization whose every script compiles is accepted', async () => {
  assert.equal(await refused([ric('correct', SCRIPTS)]), []);
});

for (const hook of Object.keys(SCRIPTS))
  test(`a ${hook} script that does not compile is refused`, async () => {
    const [file] = await checkLuaScripts(files([ric('wrong', { [hook]: 'function Retain(desiredObj, observedObj)' })]));
    assert.equal(file!.interpreterCustomizations, []);
    assert.equal(file!.broken.length, 1);
    assert.match(file!.problems[0]!.message, `the ${hook} luaScript does not compile`);
  });

test('a target whose apiVersion and kind are "" is admitted, as the CRD only requires the keys, and customizes no kind', () => {
  const empty = ric('empty', { retention: RETAIN }, { apiVersion: '', kind: '' });
  assert.equal(validateLuaCustomization(empty.object as unknown as Record<string, unknown>), []);
  assert.is(luaOf([empty]), undefined);
  assert.equal(
    validateLuaCustomization({ ...empty.object, spec: { customizations: {} } } as unknown as Record<
      string,
      unknown
    >).map((i) => i.code),
    ['MISSING_FIELD'],
  );
});

// util/interpreter/validation/validation_test.go TestVerifyDependencies: Karmada's GetDependencies fails on any
// invalid reference (configurable.go GetDependencies → validation.VerifyDependencies), and nothing is propagated.
const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx', namespace: 'default' } };
const dependencies = (refs: string) =>
  customDependencies(
    interpreterSet([
      ric('deps', { dependencyInterpretation: `function GetDependencies(desiredObj)\n  return ${refs}\nend` }),
    ]).get('apps/v1/Deployment')!,
    deployment,
    'default',
  );

test('references by name, by labelSelector, by both, and with matchExpressions are valid', () => {
  assert.equal(
    dependencies(`{
      {apiVersion = "v1", kind = "ConfigMap", name = "cm"},
      {apiVersion = "v1", kind = "Secret", labelSelector = {matchLabels = {app = "nginx"}}},
      {apiVersion = "v1", kind = "ServiceAccount", name = "sa", labelSelector = {matchLabels = {app = "nginx"}}},
      {apiVersion = "v1", kind = "Service", labelSelector = {matchExpressions = {{key = "app", operator = "In", values = {"nginx"}}}}},
    }`)?.map((d) => `${d.kind}/${d.name}`),
    ['ConfigMap/cm', 'ServiceAccount/sa'],
  );
});

test('a reference without a namespace names a cluster-scoped object; the script reads the template in its namespace, as stored', () => {
  const refs = customDependencies(
    interpreterSet([
      ric('deps', {
        dependencyInterpretation: `function GetDependencies(desiredObj)
  return {
    {apiVersion = "v1", kind = "ConfigMap", name = "no-namespace"},
    {apiVersion = "rbac.authorization.k8s.io/v1", kind = "ClusterRole", name = "reader"},
    {apiVersion = "v1", kind = "ConfigMap", namespace = desiredObj.metadata.namespace, name = "own"},
  }
end`,
      }),
    ]).get('apps/v1/Deployment')!,
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx' } },
    'team-a',
  );
  assert.equal(
    refs?.map((d) => `${d.kind} ${d.namespace || '(cluster)'}/${d.name}`),
    ['ClusterRole (cluster)/reader', 'ConfigMap (cluster)/no-namespace', 'ConfigMap team-a/own'],
  );
});

// configurable.go GetDependencies sorts what the scripts name by apiVersion, kind, namespace, name: the order the
// binding's dependencies annotation records.
test('references come ordered by apiVersion, kind, namespace and name, each named once', () => {
  assert.equal(
    dependencies(`{
      {apiVersion = "v1", kind = "Secret", namespace = "default", name = "a"},
      {apiVersion = "v1", kind = "ConfigMap", namespace = "default", name = "z"},
      {apiVersion = "v1", kind = "ConfigMap", namespace = "b-team", name = "z"},
      {apiVersion = "apps/v1", kind = "StatefulSet", namespace = "default", name = "db"},
      {apiVersion = "v1", kind = "ConfigMap", namespace = "default", name = "c"},
      {apiVersion = "v1", kind = "Secret", namespace = "default", name = "a"},
    }`)?.map((d) => `${d.apiVersion} ${d.kind} ${d.namespace}/${d.name}`),
    [
      'apps/v1 StatefulSet default/db',
      'v1 ConfigMap b-team/z',
      'v1 ConfigMap default/c',
      'v1 ConfigMap default/z',
      'v1 Secret default/a',
    ],
  );
});

const INVALID: [string, string][] = [
  ['without apiVersion', '{kind = "ConfigMap", name = "cm"}'],
  ['without kind', '{apiVersion = "v1", name = "cm"}'],
  ['with neither name nor labelSelector', '{apiVersion = "v1", kind = "ConfigMap"}'],
  [
    'with an invalid label key in matchLabels',
    '{apiVersion = "v1", kind = "ConfigMap", labelSelector = {matchLabels = {["-bad"] = "x"}}}',
  ],
  [
    'with an invalid label value in matchLabels',
    '{apiVersion = "v1", kind = "ConfigMap", labelSelector = {matchLabels = {app = "-bad-"}}}',
  ],
  [
    'with an invalid operator',
    '{apiVersion = "v1", kind = "ConfigMap", labelSelector = {matchExpressions = {{key = "app", operator = "Like", values = {"x"}}}}}',
  ],
  [
    'with operator In and no values',
    '{apiVersion = "v1", kind = "ConfigMap", labelSelector = {matchExpressions = {{key = "app", operator = "In"}}}}',
  ],
  [
    'with operator Exists and values',
    '{apiVersion = "v1", kind = "ConfigMap", labelSelector = {matchExpressions = {{key = "app", operator = "Exists", values = {"x"}}}}}',
  ],
  [
    'with an invalid label key in matchExpressions',
    '{apiVersion = "v1", kind = "ConfigMap", labelSelector = {matchExpressions = {{key = "-bad", operator = "Exists"}}}}',
  ],
  [
    'with a label value longer than 63 characters',
    `{apiVersion = "v1", kind = "ConfigMap", labelSelector = {matchLabels = {app = "${'a'.repeat(64)}"}}}`,
  ],
];
for (const [what, ref] of INVALID)
  test(`a dependency reference ${what} fails the interpretation, valid references beside it included`, () => {
    assert.throws(() => dependencies(`{{apiVersion = "v1", kind = "ConfigMap", name = "good"}, ${ref}}`));
  });

test.run();
