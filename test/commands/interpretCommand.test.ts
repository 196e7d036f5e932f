// flotilla interpret: karmadactl interpret without a control plane, on ResourceInterpreterCustomization files:
// --check compiles each hook and prints karmadactl's report; --operation runs one hook on the objects given.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { interpretCommand, type InterpretOptions } from '../../src/commands/interpretCommand.ts';
import { UsageError } from '../../src/errors/UsageError.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'flotilla-interpret-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};
const flotilla = (...args: string[]) => spawnSync(process.execPath, [BIN, 'interpret', ...args], { encoding: 'utf8' });

/** The command in this process, as the CLI calls it: its exit code and what it printed. */
async function interpret(o: Partial<InterpretOptions>) {
  let stdout = '';
  let stderr = '';
  const status = await interpretCommand({
    filenames: [],
    check: false,
    operation: undefined,
    desiredFile: undefined,
    observedFile: undefined,
    statusFile: undefined,
    desiredReplica: undefined,
    out: (s) => {
      stdout += s;
    },
    err: (s) => {
      stderr += s;
    },
    ...o,
  });
  return { status, stdout, stderr };
}

const CUSTOMIZATION = file(
  'customization.yaml',
  `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: customization}
spec:
  target: {apiVersion: apps/v1, kind: Deployment}
  customizations:
    retention:
      luaScript: |
        function Retain(desiredObj, observedObj)
          desiredObj.spec.paused = observedObj.spec.paused
          return desiredObj
        end
    replicaResource:
      luaScript: |
        local kube = require("kube")
        function GetReplicas(obj)
          return obj.spec.replicas, kube.accuratePodRequirements(obj.spec.template)
        end
    healthInterpretation:
      luaScript: |
        function InterpretHealth(observedObj)
          return observedObj.status.readyReplicas == observedObj.spec.replicas
        end
    statusAggregation:
      luaScript: |
        function AggregateStatus(desiredObj, statusItems)
          local ready = 0
          for i = 1, #statusItems do ready = ready + statusItems[i].status.readyReplicas end
          desiredObj.status = {readyReplicas = ready}
          return desiredObj
        end
`,
);
const DEPLOYMENT = (extra = '') =>
  file(
    `deployment${extra ? '-observed' : ''}.yaml`,
    `apiVersion: apps/v1
kind: Deployment
metadata: {name: nginx, namespace: default}
spec:
  replicas: 3
  template:
    spec:
      containers: [{name: nginx, image: nginx, resources: {requests: {cpu: 250m}}}]
${extra}`,
  );

test('--check prints each operation PASS, UNSET or ERROR with its line, aligned as karmadactl aligns it, and fails on an error', async () => {
  const broken = file(
    'broken.yaml',
    `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: customization-check}
spec:
  target: {apiVersion: apps/v1, kind: Deployment}
  customizations:
    replicaResource:
      luaScript: |
        function GetReplicas(obj)
          return obj.spec.replicas,
        end
---
apiVersion: v1
kind: Pod
metadata: {name: not-customization}
`,
  );
  const ok = flotilla('-f', CUSTOMIZATION, '--check');
  assert.is(ok.status, 0, ok.stderr);
  assert.is(
    ok.stdout,
    `-----------------------------------
SOURCE: customization
TARGET: apps/v1 Deployment   
RULERS:
    Retain:                  PASS
    InterpretReplica:        PASS
    InterpretComponent:      UNSET
    ReviseReplica:           UNSET
    InterpretStatus:         UNSET
    AggregateStatus:         PASS
    InterpretHealth:         PASS
    InterpretDependency:     UNSET
`,
  );
  const bad = await interpret({ filenames: [broken], check: true });
  assert.is(bad.status, 1);
  assert.match(bad.stdout, /    InterpretReplica:        ERROR: <string> line:3 unexpected symbol near 'end'/);
  assert.match(bad.stdout, 'SOURCE: not-customization\nnot a ResourceInterpreterCustomization, got /v1, Kind=Pod');
});

test('--operation runs one hook on the object given and prints each result as karmadactl does', async () => {
  const replica = await interpret({
    filenames: [CUSTOMIZATION],
    operation: 'interpretReplica',
    observedFile: DEPLOYMENT(),
  });
  assert.is(replica.status, 0, replica.stderr);
  assert.is(replica.stdout, '---\n# [1/2] replica:\n3\n---\n# [2/2] requires:\nresourceRequest:\n  cpu: 250m\n');

  const observed = DEPLOYMENT('  paused: true\nstatus: {readyReplicas: 2}\n');
  const health = await interpret({ filenames: [CUSTOMIZATION], operation: 'InterpretHealth', observedFile: observed });
  assert.is(health.stdout, '---\n# [1/1] healthy:\nfalse\n');

  const items = file(
    'status.yaml',
    '- {clusterName: member1, applied: true, status: {readyReplicas: 2}}\n- {clusterName: member2, applied: true, status: {readyReplicas: 1}}\n',
  );
  const aggregated = await interpret({
    filenames: [CUSTOMIZATION],
    operation: 'aggregateStatus',
    observedFile: DEPLOYMENT(),
    statusFile: items,
  });
  assert.is(aggregated.status, 0, aggregated.stderr);
  assert.match(aggregated.stdout, '# [1/1] aggregatedStatus:\n');
  assert.match(aggregated.stdout, 'status:\n  readyReplicas: 3\n');
});

test('--operation says what is missing: the objects Retain needs, or a hook the customization does not set', async () => {
  const retain = await interpret({ filenames: [CUSTOMIZATION], operation: 'retain', observedFile: DEPLOYMENT() });
  assert.is(retain.status, 1);
  assert.match(retain.stderr, 'Execute Retain error: desired, desired-file options are not set');
  const unset = await interpret({ filenames: [CUSTOMIZATION], operation: 'reviseReplica', observedFile: DEPLOYMENT() });
  assert.is(unset.status, 1);
  assert.match(unset.stderr, 'Execute ReviseReplica error: rule is not enabled');
  try {
    await interpret({ filenames: [CUSTOMIZATION], operation: 'prune', observedFile: DEPLOYMENT() });
    assert.unreachable('an unknown operation is a usage error');
  } catch (err) {
    assert.instance(err, UsageError);
    assert.match((err as Error).message, 'operation prune is not supported');
  }
});

test.run();
