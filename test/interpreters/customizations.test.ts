// Declarative interpreter customization: a CRD-based Workload kind divided across clusters and aggregated,
// with no code run from the config repo; and Karmada's Lua form reported by validate.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { ClusterDelivery } from '../../src/deliveries/applyRendered.ts';
import { parseFieldPath, read, readAll, remove, write } from '../../src/interpreters/fieldPath.ts';
import { interpreterSet } from '../../src/interpreters/customizations.ts';
import { buildStatusFiles } from '../../src/statuses/buildStatusFiles.ts';
import { templateStatusPath } from '../../src/branches/status/statusFiles.ts';
import type { InterpreterCustomization } from '../../src/api/interpreterCustomization.ts';
import { clusterYaml, makeConfigRepo } from '../helpers/fleet.ts';
import { WORKLOAD_CRD } from '../helpers/customWorkload.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const flotilla = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

const CUSTOMIZATION = `apiVersion: flotilla.io/v1alpha1
kind: InterpreterCustomization
metadata: {name: workload}
spec:
  target: {apiVersion: apps.example.io/v1alpha1, kind: Workload}
  customizations:
    replicaResource: {replicasPath: spec.replicas, podTemplatePath: spec.template}
    replicaRevision: {replicasPath: spec.replicas}
    dependencyInterpretation:
      dependencies:
        - {apiVersion: v1, kind: ConfigMap, namePath: spec.configRef.name}
        - {apiVersion: v1, kind: Secret, namePath: "spec.secrets[*].name"}
    retention: {paths: [spec.paused]}
    healthInterpretation:
      rules:
        - {field: status.readyReplicas, op: ">=", valueFrom: spec.replicas}
        - {condition: Available, status: "True"}
    statusReflection: {paths: [status.readyReplicas, status.replicas, status.conditions]}
    statusAggregation: {sum: [status.readyReplicas, status.replicas]}
`;

const WORKLOAD = `apiVersion: apps.example.io/v1alpha1
kind: Workload
metadata: {name: shop}
spec:
  replicas: 6
  paused: false
  configRef: {name: shop-config}
  secrets: [{name: shop-tls}]
  template:
    metadata: {labels: {app: shop}}
    spec: {containers: [{name: shop, image: shop:1, resources: {requests: {cpu: "1"}}}]}
`;

const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: shop}
spec:
  propagateDeps: true
  resourceSelectors: [{apiVersion: apps.example.io/v1alpha1, kind: Workload, name: shop}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Weighted, weightPreference: {dynamicWeight: AvailableReplicas}}
`;

const status = (name: string, cpu: number) => `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: ${name}}
status:
  apiEnablements: [{groupVersion: apps.example.io/v1alpha1, resources: [{name: workloads, kind: Workload}]}]
  resourceSummary: {allocatable: {cpu: "${cpu}", pods: "110"}}
`;

test('field paths: parse, read through lists, write and remove without touching the input', () => {
  assert.type(parseFieldPath('spec.a[0].b[*]'), 'object');
  assert.match(parseFieldPath('spec..a') as string, 'is not a field name');
  assert.match(parseFieldPath('spec.a; os.exit()') as string, 'is not a field name');
  const obj = { spec: { list: [{ n: 'a' }, { n: 'b' }], x: 1 } };
  assert.equal(readAll(obj, 'spec.list[*].n'), ['a', 'b']);
  assert.is(read(obj, 'spec.list[1].n'), 'b');
  assert.equal(write(obj, 'spec.y.z', 2), { spec: { list: [{ n: 'a' }, { n: 'b' }], x: 1, y: { z: 2 } } });
  assert.equal(remove(obj, 'spec.x'), { spec: { list: [{ n: 'a' }, { n: 'b' }] } });
  assert.is(obj.spec.x, 1);
});

test("field paths read and remove an object's own fields only: constructor and __proto__ are names like any other", () => {
  const spec = JSON.parse('{"spec":{"__proto__":{"replicas":3},"size":1}}') as Record<string, unknown>;
  assert.is(read({ spec: {} }, 'spec.constructor'), undefined);
  assert.is(read({ spec: {} }, 'spec.toString'), undefined);
  assert.is(read(spec, 'spec.__proto__.replicas'), 3);
  assert.equal(remove({ spec: { size: 1 } }, 'spec.constructor.name'), { spec: { size: 1 } });
  const removed = remove(spec, 'spec.__proto__.replicas');
  assert.equal(JSON.stringify(removed), '{"spec":{"__proto__":{},"size":1}}');
});

test('a custom Workload is divided by its pod template requests, revised per cluster, and drags its ConfigMap and Secret', () => {
  const r = makeConfigRepo();
  try {
    r.commit({
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'crds/workload.yaml': WORKLOAD_CRD,
      'interpreters/workload.yaml': CUSTOMIZATION,
      'policies/shop.yaml': POLICY,
      'templates/shop.yaml': WORKLOAD,
      'templates/config.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shop-config}\ndata: {a: b}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: shop-tls}\ntype: Opaque\n',
    });
    const statusFile = path.join(r.dir, '..', 'status.yaml');
    writeFileSync(statusFile, `${status('member1', 2)}---\n${status('member2', 4)}`);
    const out = path.join(r.dir, '..', 'out');
    const res = flotilla('render', '--repo', r.dir, '--out-dir', out, '--cluster-status', statusFile);
    assert.is(res.status, 0, res.stderr);
    const binding = parse(readFileSync(path.join(out, 'bindings/default/shop-workload.yaml'), 'utf8'));
    assert.is(binding.spec.replicas, 6);
    assert.equal(binding.spec.replicaRequirements, { resourceRequest: { cpu: '1' } });
    assert.equal(
      binding.spec.clusters,
      [
        { name: 'member1', replicas: 2 },
        { name: 'member2', replicas: 4 },
      ],
      'divided 2:4 by free cpu',
    );
    for (const [cluster, n] of [
      ['member1', 2],
      ['member2', 4],
    ] as const) {
      const m = parse(
        readFileSync(path.join(out, `clusters/${cluster}/default/workload.apps.example.io_shop.yaml`), 'utf8'),
      );
      assert.is(m.spec.replicas, n, `${cluster} revised`);
      assert.is(m.spec.paused, undefined, 'retained fields are left to the member');
      assert.ok(
        readFileSync(path.join(out, `clusters/${cluster}/default/configmap_shop-config.yaml`), 'utf8'),
        'ConfigMap follows',
      );
      assert.ok(
        readFileSync(path.join(out, `clusters/${cluster}/default/secret_shop-tls.yaml`), 'utf8'),
        'Secret follows',
      );
    }
  } finally {
    r.cleanup();
  }
});

test('status: the declared health rules and sums replace the built-in ones for the custom kind only', () => {
  const set = interpreterSet([
    { object: parse(CUSTOMIZATION) as InterpreterCustomization, source: { file: 'x.yaml', line: 1, column: 1 } },
  ]);
  const ref = { apiVersion: 'apps.example.io/v1alpha1', kind: 'Workload', namespace: 'default', name: 'shop' };
  const live = (replicas: number, ready: number, available: string) => ({
    apiVersion: ref.apiVersion,
    kind: ref.kind,
    metadata: { name: 'shop', namespace: 'default' },
    spec: { replicas },
    status: {
      replicas,
      readyReplicas: ready,
      observedGeneration: 9,
      conditions: [{ type: 'Available', status: available }],
    },
  });
  const report = (cluster: string, l: Record<string, unknown>) => ({
    cluster,
    delivery: {
      cluster,
      results: [{ ref, action: 'unchanged' as const, message: 'x', live: l }],
      inventory: [ref],
      previousInventory: [ref],
      writes: 0,
      notes: [],
      durationMs: 0,
    } satisfies ClusterDelivery,
  });
  const edits = buildStatusFiles(
    new Map(),
    [report('member1', live(2, 2, 'True')), report('member2', live(4, 3, 'True'))],
    new Date(0),
    set,
  );
  const file = parse(edits.get(templateStatusPath(ref))!);
  assert.equal(file.status, { readyReplicas: 5, replicas: 6 });
  assert.equal(
    file.aggregatedStatus.map((i: { health: string }) => i.health),
    ['Healthy', 'Unhealthy'],
  );
  assert.equal(
    file.aggregatedStatus[0].status,
    { readyReplicas: 2, replicas: 2, conditions: [{ type: 'Available', status: 'True' }] },
    'only the reflected paths',
  );
  // Without the customization the kind has no rules: Healthy, whole status, no aggregate.
  const plain = parse(
    buildStatusFiles(new Map(), [report('member2', live(4, 3, 'False'))], new Date(0)).get(templateStatusPath(ref))!,
  );
  assert.is(plain.aggregatedStatus[0].health, 'Healthy');
  assert.is(plain.status, undefined);
});

test('validate: a Lua ResourceInterpreterCustomization is accepted; one that does not compile is an error naming its line; bad paths too', () => {
  const r = makeConfigRepo();
  try {
    r.commit({
      'clusters/member1.yaml': clusterYaml('member1'),
      'interpreters/lua.yaml': `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: workload}
spec:
  target: {apiVersion: apps.example.io/v1alpha1, kind: Workload}
  customizations:
    replicaResource:
      luaScript: |
        function GetReplicas(obj) return obj.spec.replicas, {} end
`,
      'interpreters/broken.yaml': `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: gadget}
spec:
  target: {apiVersion: apps.example.io/v1alpha1, kind: Gadget}
  customizations:
    healthInterpretation:
      luaScript: |
        function InterpretHealth(obj)
          return obj.status.ready ==
        end
`,
      'interpreters/bad.yaml': CUSTOMIZATION.replace(
        'replicasPath: spec.replicas, podTemplatePath',
        'replicasPath: "spec.replicas()", podTemplatePath',
      ),
    });
    const res = flotilla('validate', '--repo', r.dir);
    assert.is(res.status, 1);
    const out = res.stdout + res.stderr;
    assert.not.match(out, 'interpreters/lua.yaml');
    assert.match(
      out,
      /interpreters\/broken\.yaml:1:1\s+error\s+INVALID_VALUE\s+ResourceInterpreterCustomization gadget: the healthInterpretation luaScript does not compile \(its line 3\)/,
    );
    assert.match(out, /interpreters\/bad\.yaml:\d+:\d+\s+error\s+INVALID_VALUE/);
  } finally {
    r.cleanup();
  }
});

test('validate: status reflection, aggregation or health rules on Secrets are errors at their line, and the customization does nothing', () => {
  const r = makeConfigRepo();
  try {
    r.commit({
      'clusters/member1.yaml': clusterYaml('member1'),
      'interpreters/secret.yaml': `apiVersion: flotilla.io/v1alpha1
kind: InterpreterCustomization
metadata: {name: secrets}
spec:
  target: {apiVersion: v1, kind: Secret}
  customizations:
    retention: {paths: [metadata.labels]}
    statusReflection: {paths: [data]}
    healthInterpretation:
      rules: [{field: data.password, op: "==", value: aHVudGVyMg==}]
`,
      'interpreters/configmap.yaml': `apiVersion: flotilla.io/v1alpha1
kind: InterpreterCustomization
metadata: {name: configmaps}
spec:
  target: {apiVersion: v1, kind: ConfigMap}
  customizations:
    statusReflection: {paths: [data]}
`,
    });
    const res = flotilla('validate', '--repo', r.dir);
    const out = res.stdout + res.stderr;
    assert.is(res.status, 1);
    assert.match(
      out,
      /interpreters\/secret\.yaml:8:\d+\s+error\s+INVALID_VALUE\s+statusReflection on Secrets would carry/,
    );
    assert.match(out, /interpreters\/secret\.yaml:10:\d+\s+error\s+INVALID_VALUE\s+healthInterpretation on Secrets/);
    // Reflecting data of any other kind is allowed.
    assert.not.match(out, /configmap\.yaml/);
  } finally {
    r.cleanup();
  }
});

test.run();
