// Karmada's ResourceInterpreterCustomization runs as Karmada runs it: Lua hooks, sandboxed, for a custom Workload kind
// divided across clusters, revised per cluster, dragging its dependencies, retained, and reported on the status branch.
// A hook that fails or never ends holds only its own template.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { ClusterDelivery } from '../../src/deliveries/applyRendered.ts';
import type { ApplyResult } from '../../src/deliveries/types.ts';
import { customizationFor, customRetainLive, interpreterSet } from '../../src/interpreters/customizations.ts';
import { loadLuaRuntime } from '../../src/interpreters/lua/luaRuntime.ts';
import { buildStatusFiles } from '../../src/statuses/buildStatusFiles.ts';
import { templateStatusPath } from '../../src/branches/status/statusFiles.ts';
import type { ResourceInterpreterCustomization } from '../../src/api/interpreterCustomization.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { interpretersOfRendered } from '../../src/outputs/interpretersOfRendered.ts';
import { readRef } from '../../src/commits/readRef.ts';
import { clusterYaml, makeConfigRepo } from '../helpers/fleet.ts';
import { WORKLOAD_CRD } from '../helpers/customWorkload.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const flotilla = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

const indent = (script: string) =>
  script
    .trim()
    .split('\n')
    .map((l) => `        ${l}`)
    .join('\n');
const customization = (hooks: Record<string, string>, name = 'workload') => `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: ${name}}
spec:
  target: {apiVersion: apps.example.io/v1alpha1, kind: Workload}
  customizations:
${Object.entries(hooks)
  .map(([hook, script]) => `    ${hook}:\n      luaScript: |\n${indent(script)}`)
  .join('\n')}
`;

const HOOKS = {
  replicaResource: `
local kube = require("kube")
function GetReplicas(obj)
  local requirement = kube.accuratePodRequirements(obj.spec.template)
  return obj.spec.replicas, requirement
end`,
  replicaRevision: `
function ReviseReplica(obj, desiredReplica)
  obj.spec.replicas = desiredReplica
  return obj
end`,
  dependencyInterpretation: `
function GetDependencies(desiredObj)
  local refs = {}
  refs[1] = {apiVersion = "v1", kind = "ConfigMap", namespace = desiredObj.metadata.namespace, name = desiredObj.spec.configRef.name}
  for i, s in ipairs(desiredObj.spec.secrets or {}) do
    refs[#refs + 1] = {apiVersion = "v1", kind = "Secret", namespace = desiredObj.metadata.namespace, name = s.name}
  end
  return refs
end`,
  retention: `
function Retain(desiredObj, observedObj)
  if observedObj.spec.paused ~= nil then
    desiredObj.spec.paused = observedObj.spec.paused
  end
  return desiredObj
end`,
  healthInterpretation: `
function InterpretHealth(observedObj)
  return observedObj.status ~= nil and observedObj.status.readyReplicas == observedObj.spec.replicas
end`,
  statusReflection: `
function ReflectStatus(observedObj)
  if observedObj.status == nil then return {} end
  return {replicas = observedObj.status.replicas, readyReplicas = observedObj.status.readyReplicas}
end`,
  statusAggregation: `
function AggregateStatus(desiredObj, statusItems)
  local replicas, ready = 0, 0
  for i = 1, #statusItems do
    if statusItems[i].status ~= nil then
      replicas = replicas + (statusItems[i].status.replicas or 0)
      ready = ready + (statusItems[i].status.readyReplicas or 0)
    end
  end
  desiredObj.status = {replicas = replicas, readyReplicas = ready}
  return desiredObj
end`,
};

const workload = (name: string, replicas: number) => `apiVersion: apps.example.io/v1alpha1
kind: Workload
metadata: {name: ${name}}
spec:
  replicas: ${replicas}
  configRef: {name: ${name}-config}
  secrets: [{name: ${name}-tls}]
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: ${name}, image: ${name}:1, resources: {requests: {cpu: "1"}}}]}
`;
const dependencies = (name: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}-config}\ndata: {a: b}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: ${name}-tls}\ntype: Opaque\n`;

const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: workloads}
spec:
  propagateDeps: true
  resourceSelectors: [{apiVersion: apps.example.io/v1alpha1, kind: Workload}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Weighted, weightPreference: {dynamicWeight: AvailableReplicas}}
`;
const clusterStatus = (name: string, cpu: number) => `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: ${name}}
status:
  apiEnablements: [{groupVersion: apps.example.io/v1alpha1, resources: [{name: workloads, kind: Workload}]}]
  resourceSummary: {allocatable: {cpu: "${cpu}", pods: "110"}}
`;

const repos: ReturnType<typeof makeConfigRepo>[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

function render(files: Record<string, string>) {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit({
    'clusters/member1.yaml': clusterYaml('member1'),
    'clusters/member2.yaml': clusterYaml('member2'),
    'crds/workload.yaml': WORKLOAD_CRD,
    'policies/workloads.yaml': POLICY,
    ...files,
  });
  const statusFile = path.join(r.dir, '..', 'status.yaml');
  writeFileSync(statusFile, `${clusterStatus('member1', 2)}---\n${clusterStatus('member2', 4)}`);
  const out = path.join(r.dir, '..', 'out');
  const res = flotilla('render', '--repo', r.dir, '--out-dir', out, '--cluster-status', statusFile);
  const read = (p: string) => {
    try {
      return parse(readFileSync(path.join(out, p), 'utf8'));
    } catch {
      return undefined;
    }
  };
  return { res, read };
}

test('a custom Workload is divided by the requests its Lua GetReplicas reads, revised by ReviseReplica, and drags what GetDependencies names', () => {
  const { res, read } = render({
    'interpreters/workload.yaml': customization(HOOKS),
    'templates/shop.yaml': workload('shop', 6),
    'templates/shop-deps.yaml': dependencies('shop'),
  });
  assert.is(res.status, 0, res.stderr + res.stdout);
  const binding = read('bindings/default/shop-workload.yaml');
  assert.is(binding.spec.replicas, 6);
  assert.equal(binding.spec.replicaRequirements, { resourceRequest: { cpu: '1' } });
  assert.equal(binding.spec.clusters, [
    { name: 'member1', replicas: 2 },
    { name: 'member2', replicas: 4 },
  ]);
  for (const [cluster, n] of [
    ['member1', 2],
    ['member2', 4],
  ] as const) {
    assert.is(read(`clusters/${cluster}/default/workload.apps.example.io_shop.yaml`).spec.replicas, n, cluster);
    assert.ok(read(`clusters/${cluster}/default/configmap_shop-config.yaml`), `${cluster}: ConfigMap follows`);
    assert.ok(read(`clusters/${cluster}/default/secret_shop-tls.yaml`), `${cluster}: Secret follows`);
  }
});

test('a hook that fails, or runs past its second, holds its own template with the error; the others render', () => {
  const { res, read } = render({
    'interpreters/workload.yaml': customization({
      ...HOOKS,
      replicaResource: `
function GetReplicas(obj)
  if string.sub(obj.metadata.name, 1, 4) == "spin" then while true do end end
  if obj.spec.replicas > 5 then error("too many replicas for this kind") end
  return obj.spec.replicas, nil
end`,
    }),
    'templates/shop.yaml': workload('shop', 6),
    'templates/spin.yaml': workload('spin', 2),
    'templates/spin2.yaml': workload('spin2', 2),
    'templates/small.yaml': workload('small', 2),
    'templates/deps.yaml': [
      dependencies('shop'),
      dependencies('spin'),
      dependencies('spin2'),
      dependencies('small'),
    ].join('---\n'),
  });
  const out = res.stdout + res.stderr;
  assert.match(
    out,
    /templates\/shop\.yaml:1:1\s+error\s+INTERPRETER_FAILED\s+Workload default\/shop: the GetReplicas hook/,
  );
  assert.match(out, 'too many replicas for this kind');
  assert.match(out, /templates\/spin\.yaml:1:1\s+error\s+INTERPRETER_FAILED.*context deadline exceeded/);
  // A script that ran out of its second once is not run again: the next template fails at once.
  assert.match(
    out,
    /templates\/spin2\.yaml:1:1\s+error\s+INTERPRETER_FAILED.*it is not run again for a minute, or until it changes/,
  );
  assert.is(read('bindings/default/shop-workload.yaml'), undefined);
  assert.is(read('bindings/default/spin-workload.yaml'), undefined);
  assert.equal(read('bindings/default/small-workload.yaml').spec.replicas, 2);
});

const set = async (hooks: Record<string, string>) => {
  await loadLuaRuntime();
  return interpreterSet([
    {
      object: parse(customization(hooks)) as ResourceInterpreterCustomization,
      source: { file: 'x.yaml', line: 1, column: 1 },
    },
  ]);
};
const REF = { apiVersion: 'apps.example.io/v1alpha1', kind: 'Workload', namespace: 'default', name: 'shop' };

test("the applier's Retain runs the Lua hook with the member's object: the member keeps its paused flag", async () => {
  const custom = customizationFor(await set(HOOKS), REF);
  const desired = { ...REF, metadata: { name: 'shop', namespace: 'default' }, spec: { replicas: 2 } };
  const observed = { ...desired, spec: { replicas: 2, paused: true } };
  assert.equal(customRetainLive(custom, desired, observed)?.spec, { replicas: 2, paused: true });
  assert.is(customRetainLive(undefined, desired, observed), undefined, 'no customization: the built-in rule');
});

test('status: the Lua health, reflection and aggregation hooks replace the built-in ones', async () => {
  const interpreters = await set(HOOKS);
  const live = (replicas: number, ready: number) => ({
    ...REF,
    metadata: { name: 'shop', namespace: 'default' },
    spec: { replicas },
    status: { replicas, readyReplicas: ready, observedGeneration: 3 },
  });
  const report = (cluster: string, l: Record<string, unknown>) => ({
    cluster,
    delivery: {
      cluster,
      results: [{ ref: REF, action: 'unchanged' as const, message: 'x', live: l }],
      inventory: [REF],
      previousInventory: [REF],
      writes: 0,
      notes: [],
      durationMs: 0,
    } satisfies ClusterDelivery,
  });
  const edits = buildStatusFiles(
    new Map(),
    [report('member1', live(2, 2)), report('member2', live(4, 3))],
    new Date(0),
    interpreters,
  );
  const file = parse(edits.get(templateStatusPath(REF))!);
  assert.equal(file.status, { replicas: 6, readyReplicas: 5 });
  assert.equal(
    file.aggregatedStatus.map((i: { health: string; status: unknown }) => [i.health, i.status]),
    [
      ['Healthy', { replicas: 2, readyReplicas: 2 }],
      ['Unhealthy', { replicas: 4, readyReplicas: 3 }],
    ],
  );
});

test('status: a health hook that fails reads as Unknown, as Karmada reads it', async () => {
  const interpreters = await set({ healthInterpretation: 'function InterpretHealth(obj) return obj.status.x.y end' });
  const report = {
    cluster: 'member1',
    delivery: {
      cluster: 'member1',
      results: [
        {
          ref: REF,
          action: 'unchanged' as const,
          message: 'x',
          live: { ...REF, metadata: { name: 'shop', namespace: 'default' }, spec: {} },
        },
      ],
      inventory: [REF],
      previousInventory: [REF],
      writes: 0,
      notes: [],
      durationMs: 0,
    } satisfies ClusterDelivery,
  };
  const file = parse(buildStatusFiles(new Map(), [report], new Date(0), interpreters).get(templateStatusPath(REF))!);
  assert.is(file.aggregatedStatus[0].health, 'Unknown');
});

// work_status_controller.go reflectStatus: a ReflectStatus error returns before the Work is updated, so its manifest
// status (reflected status and health) stays what it was, and an applied Work without one aggregates as Unknown.
test('status: a reflection hook that fails leaves what the member last reflected; with nothing before, Unknown and no status', async () => {
  const interpreters = await set({
    statusReflection: `function ReflectStatus(obj)
  if obj.status.broken then error("cannot reflect") end
  return {replicas = obj.status.replicas}
end`,
  });
  const live = (status: Record<string, unknown>) => ({
    ...REF,
    metadata: { name: 'shop', namespace: 'default' },
    spec: {},
    status,
  });
  const delivery = (l: Record<string, unknown>) => ({
    cluster: 'member1',
    delivery: {
      cluster: 'member1',
      results: [{ ref: REF, action: 'configured' as const, message: 'x', live: l }],
      inventory: [REF],
      previousInventory: [REF],
      writes: 1,
      notes: [],
      durationMs: 0,
    } satisfies ClusterDelivery,
  });
  const path = templateStatusPath(REF);
  const first = buildStatusFiles(new Map(), [delivery(live({ broken: true }))], new Date(0), interpreters).get(path)!;
  assert.equal(parse(first).aggregatedStatus, [{ clusterName: 'member1', applied: true, health: 'Unknown' }]);
  const good = buildStatusFiles(new Map(), [delivery(live({ replicas: 2 }))], new Date(0), interpreters).get(path)!;
  assert.equal(parse(good).aggregatedStatus, [
    { clusterName: 'member1', applied: true, health: 'Healthy', status: { replicas: 2 } },
  ]);
  // Applied again, and then read back by a status pass, while the hook fails: nothing of the entry moves.
  const again = buildStatusFiles(
    new Map([[path, good]]),
    [delivery(live({ broken: true }))],
    new Date(0),
    interpreters,
  );
  assert.is(again.has(path), false, 'the file stays as it was');
  const observed = buildStatusFiles(
    new Map([[path, good]]),
    [{ cluster: 'member1', observed: [{ ref: REF, live: live({ broken: true, replicas: 5 }) }] }],
    new Date(0),
    interpreters,
  );
  assert.is(observed.has(path), false, 'a status pass changes nothing either');
});

// helper/workstatus.go assembleWorkStatus copies a failed Work's Applied condition message into the binding's item,
// and that item is what interpreter.AggregateStatus hands the Lua hook.
test("status: the aggregation hook sees a failed member's appliedMessage as the binding's aggregatedStatus shows it", async () => {
  const interpreters = await set({
    statusAggregation: `function AggregateStatus(desiredObj, statusItems)
  local seen = {}
  for i = 1, #statusItems do
    table.insert(seen, statusItems[i].clusterName .. "=" .. tostring(statusItems[i].appliedMessage))
  end
  desiredObj.status = {seen = table.concat(seen, ";")}
  return desiredObj
end`,
  });
  const report = (cluster: string, result: Pick<ApplyResult, 'action' | 'message'>) => ({
    cluster,
    delivery: {
      cluster,
      results: [{ ref: REF, ...result }],
      inventory: [REF],
      previousInventory: [],
      writes: 0,
      notes: [],
      durationMs: 0,
    } satisfies ClusterDelivery,
  });
  const edits = buildStatusFiles(
    new Map(),
    [
      report('member1', { action: 'created', message: 'created' }),
      report('member2', { action: 'failed', message: 'server-side apply failed: boom' }),
    ],
    new Date(0),
    interpreters,
  );
  const file = parse(edits.get(templateStatusPath(REF))!);
  assert.is(
    file.status.seen,
    'member1=nil;member2=Failed to apply all manifests (0/1): failed: server-side apply failed: boom',
  );
});

test("a second customization setting an operation its kind already has is refused at its file, as Karmada's webhook refuses it; dependency scripts add up", async () => {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit({
    'clusters/member1.yaml': clusterYaml('member1'),
    'interpreters/a.yaml': customization({ healthInterpretation: HOOKS.healthInterpretation }, 'a-health'),
    'interpreters/b.yaml': customization(
      { healthInterpretation: HOOKS.healthInterpretation, dependencyInterpretation: HOOKS.dependencyInterpretation },
      'b-health',
    ),
    'interpreters/c.yaml': customization({ dependencyInterpretation: HOOKS.dependencyInterpretation }, 'c-deps'),
  });
  const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(
    model.problems.map((p) => `${p.file} ${p.code}`),
    ['interpreters/b.yaml INVALID_VALUE'],
  );
  assert.match(
    model.problems[0]!.message,
    'its healthInterpretation is conflicting with the same operation of ResourceInterpreterCustomization a-health',
  );
  assert.equal(
    model.interpreterCustomizations.map((c) => c.object.metadata.name),
    ['a-health', 'c-deps'],
  );
});

test('an empty luaScript leaves its operation uncustomized, so another customization of the kind may set it', () => {
  const empty = `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: a-empty}
spec:
  target: {apiVersion: apps.example.io/v1alpha1, kind: Workload}
  customizations:
    replicaResource: {luaScript: ""}
`;
  const { res, read } = render({
    'interpreters/a.yaml': empty,
    'interpreters/b.yaml': customization({ replicaResource: HOOKS.replicaResource }, 'b-replicas'),
    'templates/shop.yaml': workload('shop', 6),
  });
  assert.is(res.status, 0, res.stderr + res.stdout);
  assert.not.match(res.stdout + res.stderr, 'luaScript');
  const binding = read('bindings/default/shop-workload.yaml');
  assert.is(binding.spec.replicas, 6, "b-replicas' GetReplicas runs");
  assert.equal(binding.spec.replicaRequirements, { resourceRequest: { cpu: '1' } });
});

test('a customization whose new script does not compile keeps its last good one, in the render and for the status pass', async () => {
  const r = makeConfigRepo();
  repos.push(r);
  const revise = (body: string) =>
    customization({
      replicaResource: HOOKS.replicaResource,
      replicaRevision: `function ReviseReplica(obj, n)\n  ${body}\n  return obj\nend`,
    });
  r.commit({
    'clusters/member1.yaml': clusterYaml('member1'),
    'crds/workload.yaml': WORKLOAD_CRD,
    'policies/workloads.yaml': POLICY.replace('[member1, member2]', '[member1]'),
    'templates/shop.yaml': workload('shop', 2),
    'templates/shop-deps.yaml': dependencies('shop'),
    'interpreters/workload.yaml': revise('obj.spec.revisedBy = "lua"; obj.spec.replicas = n'),
  });
  const repo = await openRepo(r.dir);
  const sync = async () =>
    (await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' })).reports.flatMap(
      (x) => x.problems,
    );
  const manifest = () =>
    parse(r.show('flotilla/rendered', 'clusters/member1/default/workload.apps.example.io_shop.yaml'));
  await sync();
  assert.is(manifest().spec.revisedBy, 'lua');
  r.commit(
    { 'interpreters/workload.yaml': revise('obj.spec.revisedBy = ('), 'templates/shop.yaml': workload('shop', 3) },
    'a broken script, and more replicas',
  );
  const problems = await sync();
  assert.match(problems.map((p) => p.message).join('\n'), 'the replicaRevision luaScript does not compile');
  assert.equal(
    manifest().spec,
    { ...manifest().spec, replicas: 3, revisedBy: 'lua' },
    'revised by the last good script',
  );
  const status = await interpretersOfRendered(repo, (await readRef(repo, 'refs/heads/flotilla/rendered'))!);
  assert.match(status?.get('apps.example.io/v1alpha1/Workload')?.lua?.replicaRevision ?? '', 'revisedBy = "lua"');
});

test.run();
