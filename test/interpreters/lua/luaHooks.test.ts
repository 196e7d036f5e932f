import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  luaAggregateStatus,
  luaGetDependencies,
  luaGetReplicas,
  luaInterpretHealth,
  luaReflectStatus,
  luaRetain,
  luaReviseReplica,
} from '../../../src/interpreters/lua/luaHooks.ts';
import { loadLuaRuntime } from '../../../src/interpreters/lua/luaRuntime.ts';

await loadLuaRuntime();

const deployment = (replicas: number, namespace = 'foo') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'bar', ...(namespace ? { namespace } : {}) },
  spec: {
    replicas,
    template: {
      spec: {
        serviceAccountName: 'test',
        nodeSelector: { foo: 'foo1' },
        tolerations: [{ key: 'bar', operator: 'Exists' }],
        containers: [
          { resources: { limits: { cpu: '100m', memory: '100M' } } },
          { resources: { limits: { cpu: '1.2', memory: '1.2G' } } },
        ],
      },
    },
  },
});

test('GetReplicas with kube.accuratePodRequirements', () => {
  const script = `local kube = require("kube")
function GetReplicas(desiredObj)
  return desiredObj.spec.replicas, kube.accuratePodRequirements(desiredObj.spec.template)
end`;
  const { replicas, requirements } = luaGetReplicas(script, deployment(1));
  assert.is(replicas, 1);
  assert.equal(requirements, {
    nodeClaim: { nodeSelector: { foo: 'foo1' }, tolerations: [{ key: 'bar', operator: 'Exists' }] },
    resourceRequest: { cpu: '1300m', memory: '1300M' },
  });
});

test("GetReplicas: the node claim a script returns is held as Karmada's typed binding holds it, without empty omitempty fields", () => {
  const script = `function GetReplicas(o)
  local tolerations = o.spec.template.spec.tolerations
  tolerations[1].value = ""
  tolerations[1].effect = ""
  table.insert(tolerations, { key = "", operator = "Equal", value = "x", effect = "" })
  return 1, { nodeClaim = { tolerations = tolerations, hardNodeAffinity = { nodeSelectorTerms = {
    { matchExpressions = { { key = "zone", operator = "In", values = { "a" } } } },
  } } } }
end`;
  assert.equal(luaGetReplicas(script, deployment(1)).requirements, {
    nodeClaim: {
      hardNodeAffinity: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] },
      tolerations: [
        { key: 'bar', operator: 'Exists' },
        { operator: 'Equal', value: 'x' },
      ],
    },
  });
});

test('GetReplicas with kube.resourceAdd, and nil requirements', () => {
  const script = `local kube = require("kube")
function GetReplicas(o)
  local r = { resourceRequest = {} }
  for i = 1, #o.spec.template.spec.containers do
    local limits = o.spec.template.spec.containers[i].resources.limits
    r.resourceRequest.cpu = kube.resourceAdd(r.resourceRequest.cpu, limits.cpu)
    r.resourceRequest.memory = kube.resourceAdd(r.resourceRequest.memory, limits.memory)
  end
  return o.spec.replicas, r
end`;
  assert.equal(luaGetReplicas(script, deployment(2)).requirements, {
    resourceRequest: { cpu: '1300m', memory: '1300M' },
  });
  assert.equal(luaGetReplicas('function GetReplicas(o) return 3.7 end', {}), { replicas: 3 });
});

test("GetReplicas: bad results fail with Karmada's messages", () => {
  assert.throws(() => luaGetReplicas('function Other() end', {}), /^not found function GetReplicas$/);
  assert.throws(() => luaGetReplicas('GetReplicas = 1', {}), /GetReplicas is not a function: number/);
  assert.throws(() => luaGetReplicas('function GetReplicas() return "1" end', {}), /result type string is not number/);
  assert.throws(
    () => luaGetReplicas('function GetReplicas() return 1, "x" end', {}),
    /expect the returned requires type is table but got string/,
  );
  assert.throws(() => luaGetReplicas('function GetReplicas(o) return o.a.b end', {}), /<string>:1: attempt to index/);
});

test('kube.resourceAdd, getResourceQuantity and argument checks', () => {
  const status = luaReflectStatus(
    `local kube = require("kube")
function ReflectStatus(o)
  return { sum = kube.resourceAdd("1Gi", "512Mi", nil), milli = kube.resourceAdd("100m", "900m"),
    q = kube.getResourceQuantity("1500m"), zero = kube.resourceAdd() }
end`,
    {},
  );
  assert.equal(status, { milli: '1', q: 1.5, sum: '1536Mi', zero: '0' });
  assert.throws(
    () =>
      luaReflectStatus('local kube = require("kube") function ReflectStatus() return { kube.resourceAdd(1) } end', {}),
    /bad argument #1 to resourceAdd \(string expected, got number\)/,
  );
  assert.throws(
    () => luaReflectStatus('function ReflectStatus() return { require("kube").resourceAdd("lots") } end', {}),
    /cannot parse 'lots': quantities must match/,
  );
  assert.throws(
    () => luaReflectStatus('function ReflectStatus() return { require("kube").accuratePodRequirements() } end', {}),
    /getPodRequirements only accepts one argument/,
  );
});

test('ReviseReplica sets the replicas; a result without kind is refused', () => {
  const script =
    'function ReviseReplica(desiredObj, desiredReplica) desiredObj.spec.replicas = desiredReplica return desiredObj end';
  assert.equal(luaReviseReplica(script, deployment(1), 3).spec, { ...deployment(1).spec, replicas: 3 });
  assert.throws(
    () => luaReviseReplica('function ReviseReplica(o, r) return { spec = { replicas = r } } end', {}, 3),
    /Object 'Kind' is missing/,
  );
  assert.throws(
    () => luaReviseReplica('function ReviseReplica(o, r) return nil end', {}, 3),
    /expect the returned requires type is table but got nil/,
  );
});

test('ReviseReplica: numbers a script turns into text read as gopher-lua prints them (Go fmt, shortest digits)', () => {
  const script = `
function ReviseReplica(obj, replicas)
  obj.spec.replicas = replicas
  obj.metadata.annotations = {
    fraction = 'x' .. replicas / 3,
    percent = tostring(replicas / 3 * 100) .. '%',
    sum = string.format('%s', 0.1 + 0.2),
    list = table.concat({ 2^53, 1e15, 1e14 + 0.5, 1234567.5, 0.00001, 2^63, -0.0, 100.0 }, ' '),
    odd = table.concat({ 1/0, -1/0, 0/0, math.huge }, ' '),
  }
  return obj
end`;
  const revised = luaReviseReplica(script, deployment(1), 2) as { metadata: { annotations: unknown } };
  // gopher-lua v1.1.1 through Karmada's luavm prints exactly these.
  assert.equal(revised.metadata.annotations, {
    fraction: 'x0.6666666666666666',
    percent: '66.66666666666666%',
    sum: '0.30000000000000004',
    list: '9007199254740992 1000000000000000 1.000000000000005e+14 1.2345675e+06 1e-05 9.223372036854776e+18 0 100',
    odd: '+Inf -Inf NaN 1.7976931348623157e+308',
  });
});

test('Retain returns the observed object when the script says so', () => {
  const desired = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 1 } };
  const observed = { ...desired, spec: { replicas: 2 }, status: {} };
  assert.equal(
    luaRetain(
      'function Retain(desiredObj, observedObj) desiredObj = observedObj return desiredObj end',
      desired,
      observed,
    ),
    observed,
  );
});

test("AggregateStatus sums the members' statuses; items carry clusterName, status, applied, health", () => {
  const status = { replicas: 0, readyReplicas: 1 };
  const script = `function AggregateStatus(desiredObj, statusItems)
  for i = 1, #statusItems do
    desiredObj.status.readyReplicas = desiredObj.status.readyReplicas + statusItems[i].status.readyReplicas
  end
  desiredObj.status.clusters = statusItems[1].clusterName .. tostring(statusItems[1].applied) .. tostring(statusItems[2].applied)
  return desiredObj
end`;
  const result = luaAggregateStatus(
    script,
    { apiVersion: 'apps/v1', kind: 'Deployment', status: { readyReplicas: 1 } },
    [
      { clusterName: 'member1', status, applied: true, health: 'Healthy' },
      { clusterName: 'member2', status, applied: false },
    ],
  );
  assert.equal(result.status, { readyReplicas: 3, clusters: 'member1truenil' });
  assert.equal(
    luaAggregateStatus(
      'function AggregateStatus(o, items) o.status = { none = items == nil, count = #items } return o end',
      { kind: 'K' },
      [],
    ),
    // No items are an empty table (karmadactl interpret; Karmada's AdvancedCronJob testdata "empty statusItems list").
    { kind: 'K', status: { none: false, count: 0 } },
  );
});

test('InterpretHealth: a boolean, anything else is an error', () => {
  const observed = {
    metadata: { generation: 1 },
    spec: { replicas: 2 },
    status: { updatedReplicas: 2, observedGeneration: 1 },
  };
  const script = `function InterpretHealth(observedObj)
  return (observedObj.status.updatedReplicas == observedObj.spec.replicas) and (observedObj.metadata.generation == observedObj.status.observedGeneration)
end`;
  assert.is(luaInterpretHealth(script, observed), true);
  assert.throws(
    () => luaInterpretHealth('function InterpretHealth() return nil end', {}),
    /result type nil is not bool/,
  );
});

test('ReflectStatus returns the status; nil is an error as in Karmada', () => {
  const script =
    'function ReflectStatus(observedObj) if observedObj.status == nil then return nil end return observedObj.status end';
  assert.equal(luaReflectStatus(script, { status: { key: 'value' } }), { key: 'value' });
  assert.throws(() => luaReflectStatus(script, {}), /expect the returned replica type is table but got nil/);
});

test('GetDependencies: a script-built list, kube.getPodDependencies with and without a namespace', () => {
  const own = `function GetDependencies(desiredObj)
  local refs = {}
  local sa = desiredObj.spec.template.spec.serviceAccountName
  if sa ~= nil and sa ~= 'default' then
    refs[1] = { apiVersion = 'v1', kind = 'ServiceAccount', name = sa, namespace = desiredObj.metadata.namespace }
  end
  return refs
end`;
  const want = [{ apiVersion: 'v1', kind: 'ServiceAccount', namespace: 'foo', name: 'test' }];
  assert.equal(luaGetDependencies(own, deployment(1)), want);
  const kube = `local kube = require("kube")
function GetDependencies(desiredObj)
  return kube.getPodDependencies(desiredObj.spec.template, desiredObj.metadata.namespace)
end`;
  assert.equal(luaGetDependencies(kube, deployment(1)), want);
  assert.equal(luaGetDependencies(kube, deployment(1, '')), [{ ...want[0], namespace: 'default' }]);
  assert.equal(luaGetDependencies('function GetDependencies() return {} end', {}), []);
});

test('a customization in the style of the thirdparty ones: health from conditions, status from fields', () => {
  const health = `function InterpretHealth(observedObj)
  if observedObj.status == nil or observedObj.status.conditions == nil then return false end
  for _, c in ipairs(observedObj.status.conditions) do
    if c.type == 'Ready' then return c.status == 'True' end
  end
  return false
end`;
  assert.is(luaInterpretHealth(health, { status: { conditions: [{ type: 'Ready', status: 'True' }] } }), true);
  assert.is(luaInterpretHealth(health, { status: {} }), false);
  const reflect = `function ReflectStatus(observedObj)
  local status = {}
  if observedObj == nil or observedObj.status == nil then return status end
  status.replicas = observedObj.status.replicas
  status.observedGeneration = observedObj.metadata.generation
  return status
end`;
  assert.equal(luaReflectStatus(reflect, { metadata: { generation: 4 }, status: { replicas: 2, other: 1 } }), {
    observedGeneration: 4,
    replicas: 2,
  });
  assert.equal(luaReflectStatus(reflect, {}), {});
});

test('strings a hook returns keep every byte, NUL included, and invalid UTF-8 reads as Go encodes it to JSON', () => {
  const named = { ...deployment(1), metadata: { name: 'a\0b', namespace: 'foo' } };
  const revised = luaReviseReplica(
    `function ReviseReplica(o, n)
  o.metadata.annotations = { nul = 'a\\0b', char = string.char(0), name = o.metadata.name, ['k\\0y'] = 'v',
    invalid = '\\255\\226\\130x', surrogate = '\\237\\160\\128', cut = '\\240\\159\\152\\128\\240\\159' }
  return o
end`,
    named,
    2,
  );
  assert.equal((revised.metadata as Record<string, unknown>).annotations, {
    nul: 'a\0b',
    char: '\0',
    name: 'a\0b',
    'k\0y': 'v',
    invalid: '\uFFFD\uFFFD\uFFFDx',
    surrogate: '\uFFFD\uFFFD\uFFFD',
    cut: '\u{1F600}\uFFFD\uFFFD',
  });
  assert.is((revised.metadata as Record<string, unknown>).name, 'a\0b');
  const retained = luaRetain('function Retain(d, o) d.spec.note = o.metadata.name .. "\\0" return d end', named, named);
  assert.is((retained.spec as Record<string, unknown>).note, 'a\0b\0');
  const aggregated = luaAggregateStatus(
    "function AggregateStatus(d, items) d.status = { s = 'x\\0' } return d end",
    named,
    [],
  );
  assert.equal(aggregated.status, { s: 'x\0' });
  assert.equal(
    luaGetDependencies(
      "function GetDependencies(o) return { { apiVersion = 'v1', kind = 'ConfigMap', namespace = 'foo', name = 'c\\0m' } } end",
      named,
    ),
    [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'foo', name: 'c\0m' }],
  );
  assert.throws(() => luaInterpretHealth("function InterpretHealth(o) error('bad\\0tail') end", named), /bad\0tail/);
});

test.run();
