// `flotilla interpret`, case by case as karmadactl interpret prints them (cases after
// pkg/karmadactl/interpret/check_test.go TestOptions_runCheck and execute_test.go TestOptions_runExecute at f8fdd02;
// inputs written here, reduced to what each case needs).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { interpretCommand, type InterpretOptions } from '../../src/commands/interpretCommand.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'flotilla-karmadactl-interpret-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};

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

/** Every operation set, each a small script over a Deployment. */
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
        function Retain(desiredObj, runtimeObj)
          desiredObj.metadata.annotations.cluster = runtimeObj.metadata.annotations.cluster
          return desiredObj
        end
    replicaResource:
      luaScript: |
        function GetReplicas(obj)
          local requirement = {
            resourceRequest = obj.spec.template.spec.containers[1].resources.limits,
            nodeClaim = {nodeSelector = obj.spec.template.spec.nodeSelector, tolerations = obj.spec.template.spec.tolerations}
          }
          return obj.spec.replicas, requirement
        end
    componentResource:
      luaScript: |
        function GetComponents(obj)
          local components = {}
          table.insert(components, {
            name = "master",
            replicas = obj.spec.replicas,
            replicaRequirements = {resourceRequest = obj.spec.template.spec.containers[1].resources.limits}
          })
          return components
        end
    replicaRevision:
      luaScript: |
        function ReviseReplica(obj, desiredReplica)
          obj.spec.replicas = desiredReplica
          return obj
        end
    statusReflection:
      luaScript: |
        function ReflectStatus(observedObj)
          return observedObj.status
        end
    statusAggregation:
      luaScript: |
        function AggregateStatus(desiredObj, items)
          desiredObj.status.readyReplicas = 0
          for i = 1, #items do
            desiredObj.status.readyReplicas = desiredObj.status.readyReplicas + items[i].status.readyReplicas
          end
          return desiredObj
        end
    healthInterpretation:
      luaScript: |
        function InterpretHealth(observedObj)
          return observedObj.status.readyReplicas == observedObj.spec.replicas
        end
    dependencyInterpretation:
      luaScript: |
        function GetDependencies(desiredObj)
          local dependencies = {}
          dependencies[1] = {apiVersion = "v1", kind = "ServiceAccount", name = desiredObj.metadata.name, namespace = desiredObj.metadata.namespace}
          return dependencies
        end
`,
);

const DESIRED = file(
  'desired.yaml',
  `apiVersion: apps/v1
kind: Deployment
metadata: {name: nginx, annotations: {}}
spec:
  replicas: 3
  template:
    spec:
      containers: [{name: nginx, image: nginx:alpine}]
status: {}
`,
);
const OBSERVED = file(
  'observed.yaml',
  `apiVersion: apps/v1
kind: Deployment
metadata: {name: nginx, annotations: {cluster: cluster1}}
spec:
  replicas: 3
  template:
    spec:
      containers: [{name: nginx, image: nginx:alpine, resources: {limits: {cpu: 100m}}}]
status: {readyReplicas: 3}
`,
);
const observedWith = (replicas: number, ready: number) => `---
# [1/1] ${'%NAME%'}:
apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    cluster: cluster1
  name: nginx
spec:
  replicas: ${replicas}
  template:
    spec:
      containers:
      - image: nginx:alpine
        name: nginx
        resources:
          limits:
            cpu: 100m
status:
  readyReplicas: ${ready}
`;

// check_test.go "Has errors in file": a document of another kind, and a target without apiVersion or kind.
test('--check names each document that is no customization, or whose target lacks apiVersion or kind', async () => {
  const errors = file(
    'errors.yaml',
    `apiVersion: v1
kind: Pod
metadata: {name: not-customization}
---
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: api-version-unset}
spec:
  target: {kind: Deployment}
---
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: kind-unset}
spec:
  target: {apiVersion: apps/v1}
`,
  );
  const r = await interpret({ filenames: [errors], check: true });
  assert.is(r.status, 1);
  assert.is(
    r.stdout,
    `-----------------------------------
SOURCE: not-customization
not a ResourceInterpreterCustomization, got /v1, Kind=Pod
-----------------------------------
SOURCE: api-version-unset
target.apiVersion no set
-----------------------------------
SOURCE: kind-unset
target.kind no set
`,
  );
});

// check_test.go "customization has error": gopher-lua's parse error of `bad format`, with line and column.
// Karmada prints gopher-lua's `<string> line:1(column:10) near 'format':   parse error`; Flotilla's Lua gives no column
// (README, `flotilla interpret`), so the line and the token are what it names.
test('--check reports a script that does not parse with its line and the token it stopped at', async () => {
  const broken = file(
    'broken.yaml',
    `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: customization-check}
spec:
  target: {apiVersion: apps/v1, kind: Deployment}
  customizations:
    retention:
      luaScript: |
        function Retain(desiredObj, runtimeObj)
          return desiredObj
        end
    replicaResource:
      luaScript: bad format
`,
  );
  const r = await interpret({ filenames: [broken], check: true });
  assert.is(r.status, 1);
  assert.is(
    r.stdout,
    `-----------------------------------
SOURCE: customization-check
TARGET: apps/v1 Deployment   
RULERS:
    Retain:                  PASS
    InterpretReplica:        ERROR: <string> line:1 syntax error near 'format'   
    InterpretComponent:      UNSET
    ReviseReplica:           UNSET
    InterpretStatus:         UNSET
    AggregateStatus:         UNSET
    InterpretHealth:         UNSET
    InterpretDependency:     UNSET
`,
  );
});

// check_test.go "customization has no error": every operation, InterpretComponent included, compiles.
test('--check passes every operation of a customization that sets them all', async () => {
  const r = await interpret({ filenames: [CUSTOMIZATION], check: true });
  assert.is(r.status, 0);
  assert.is(
    r.stdout,
    `-----------------------------------
SOURCE: customization
TARGET: apps/v1 Deployment   
RULERS:
    Retain:                  PASS
    InterpretReplica:        PASS
    InterpretComponent:      PASS
    ReviseReplica:           PASS
    InterpretStatus:         PASS
    AggregateStatus:         PASS
    InterpretHealth:         PASS
    InterpretDependency:     PASS
`,
  );
});

// execute_test.go "execute retain".
test('retain keeps what the script takes from the observed object', async () => {
  const r = await interpret({
    filenames: [CUSTOMIZATION],
    operation: 'retain',
    desiredFile: DESIRED,
    observedFile: OBSERVED,
  });
  assert.is(r.stderr, '');
  assert.is(
    r.stdout,
    `---
# [1/1] retained:
apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    cluster: cluster1
  name: nginx
spec:
  replicas: 3
  template:
    spec:
      containers:
      - image: nginx:alpine
        name: nginx
status: {}
`,
  );
});

// execute_test.go "execute interpretReplica": an empty nodeClaim is left out of the requirements.
test('interpretReplica prints the replicas and the requirements, without an empty nodeClaim', async () => {
  const r = await interpret({ filenames: [CUSTOMIZATION], operation: 'interpretReplica', observedFile: OBSERVED });
  assert.is(r.stderr, '');
  assert.is(r.stdout, '---\n# [1/2] replica:\n3\n---\n# [2/2] requires:\nresourceRequest:\n  cpu: 100m\n');
});

// execute_test.go "execute interpretComponent": karmadactl runs GetComponents (no feature gate on the command).
test('interpretComponent prints the components the script returns', async () => {
  const r = await interpret({ filenames: [CUSTOMIZATION], operation: 'interpretComponent', observedFile: OBSERVED });
  assert.is(r.stderr, '');
  assert.is(
    r.stdout,
    `---
# [1/1] components:
- name: master
  replicaRequirements:
    resourceRequest:
      cpu: 100m
  replicas: 3
`,
  );
});

// execute_test.go "execute reviseReplica".
test('reviseReplica prints the object with the replicas asked for', async () => {
  const r = await interpret({
    filenames: [CUSTOMIZATION],
    operation: 'reviseReplica',
    observedFile: OBSERVED,
    desiredReplica: '2',
  });
  assert.is(r.stderr, '');
  assert.is(r.stdout, observedWith(2, 3).replace('%NAME%', 'revised'));
});

// execute_test.go "execute interpretStatus".
test('interpretStatus prints the reflected status', async () => {
  const r = await interpret({ filenames: [CUSTOMIZATION], operation: 'interpretStatus', observedFile: OBSERVED });
  assert.is(r.stderr, '');
  assert.is(r.stdout, '---\n# [1/1] status:\nreadyReplicas: 3\n');
});

// execute_test.go "execute interpretHealth".
test('interpretHealth prints true when the script finds the object healthy', async () => {
  const r = await interpret({ filenames: [CUSTOMIZATION], operation: 'interpretHealth', observedFile: OBSERVED });
  assert.is(r.stderr, '');
  assert.is(r.stdout, '---\n# [1/1] healthy:\ntrue\n');
});

// execute_test.go "execute interpretDependency": a nil namespace is left out of the reference.
test('interpretDependency prints the references, without a namespace the object does not have', async () => {
  const r = await interpret({ filenames: [CUSTOMIZATION], operation: 'interpretDependency', observedFile: OBSERVED });
  assert.is(r.stderr, '');
  assert.is(r.stdout, '---\n# [1/1] dependencies:\n- apiVersion: v1\n  kind: ServiceAccount\n  name: nginx\n');
});

// execute_test.go "execute aggregateStatus": status items as separate documents, summed by the script.
test('aggregateStatus sums the status items of a multi-document status file', async () => {
  const items = file(
    'status.yaml',
    'clusterName: cluster1\nstatus: {readyReplicas: 2}\napplied: true\n---\nclusterName: cluster2\nstatus: {readyReplicas: 3}\napplied: true\n',
  );
  const r = await interpret({
    filenames: [CUSTOMIZATION],
    operation: 'aggregateStatus',
    observedFile: OBSERVED,
    statusFile: items,
  });
  assert.is(r.stderr, '');
  assert.is(r.stdout, observedWith(3, 5).replace('%NAME%', 'aggregatedStatus'));
});

/** A file of one ResourceInterpreterCustomization of apps/v1 Deployments with one Lua hook (the script as under `luaScript: |`). */
const deploymentHook = (name: string, hook: string, script: string) =>
  file(
    `${name}.yaml`,
    `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: ${name}}
spec:
  target: {apiVersion: apps/v1, kind: Deployment}
  customizations:
    ${hook}:
      luaScript: |
${script}`,
  );

// interpret.go getAggregatedStatusItems: no --status-file is a nil slice, which reaches the script as nil (the
// third-party customizations' "nil status items" cases, e.g. kyverno.io/v1 ClusterPolicy, return the object as it is).
test('aggregateStatus without a status file gives the script nil statusItems, and an empty file an empty list', async () => {
  const customization = deploymentHook(
    'nil-items',
    'statusAggregation',
    `        function AggregateStatus(desiredObj, statusItems)
          if statusItems == nil then return desiredObj end
          desiredObj.status = {items = #statusItems}
          return desiredObj
        end
`,
  );
  const none = await interpret({ filenames: [customization], operation: 'aggregateStatus', desiredFile: DESIRED });
  assert.is(none.stderr, '');
  assert.is(
    none.stdout,
    '---\n# [1/1] aggregatedStatus:\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nginx\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - image: nginx:alpine\n        name: nginx\n',
  );
  const empty = await interpret({
    filenames: [customization],
    operation: 'aggregateStatus',
    desiredFile: DESIRED,
    statusFile: file('no-items.yaml', '[]\n'),
  });
  assert.is(empty.stderr, '');
  assert.match(empty.stdout, '\nstatus:\n  items: 0\n');
});

// The third-party GitRepository, Bucket, HelmChart, HelmRepository and SparkApplication cases give items with a status
// only: AggregatedStatusItem.clusterName has no omitempty, so each reaches the script with clusterName "".
test('aggregateStatus takes status items without clusterName, each named "" as karmadactl decodes it', async () => {
  const customization = deploymentHook(
    'names',
    'statusAggregation',
    `        function AggregateStatus(desiredObj, statusItems)
          local names = {}
          for i = 1, #statusItems do names[i] = "[" .. statusItems[i].clusterName .. "]" end
          desiredObj.status = {names = table.concat(names, ",")}
          return desiredObj
        end
`,
  );
  const r = await interpret({
    filenames: [customization],
    operation: 'aggregateStatus',
    desiredFile: DESIRED,
    statusFile: file('unnamed.yaml', '- status: {readyReplicas: 1}\n- clusterName: member2\n'),
  });
  assert.is(r.stderr, '');
  assert.match(r.stdout, '\nstatus:\n  names: "[],[member2]"\n');
  const wrong = await interpret({
    filenames: [customization],
    operation: 'aggregateStatus',
    desiredFile: DESIRED,
    statusFile: file('numbered.yaml', '- clusterName: 3\n'),
  });
  assert.is(wrong.status, 1);
  assert.match(wrong.stderr, 'clusterName must be a string');
});

// configurable.go GetDependencies sorts what the scripts return by apiVersion, kind, namespace and name; karmadactl
// prints that list (as the third-party HelmRelease case's Secrets, ServiceAccount and ConfigMap come out).
test('interpretDependency prints the references sorted as the configurable interpreter sorts them', async () => {
  const customization = deploymentHook(
    'deps',
    'dependencyInterpretation',
    `        function GetDependencies(desiredObj)
          local ns = desiredObj.metadata.namespace
          return {
            {apiVersion = "v1", kind = "Secret", name = "values", namespace = ns},
            {apiVersion = "v1", kind = "ServiceAccount", name = "runner", namespace = ns},
            {apiVersion = "v1", kind = "ConfigMap", name = "values", namespace = ns},
            {apiVersion = "v1", kind = "Secret", name = "kubeconfig", namespace = ns},
            {apiVersion = "v1", kind = "Secret", name = "values", namespace = ns},
          }
        end
`,
  );
  const r = await interpret({
    filenames: [customization],
    operation: 'interpretDependency',
    desiredFile: file(
      'namespaced.yaml',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: apps}\n',
    ),
  });
  assert.is(r.stderr, '');
  const names = [...r.stdout.matchAll(/kind: (\w+)\n  name: (\w+)/g)].map((m) => `${m[1]}/${m[2]}`);
  assert.equal(names, ['ConfigMap/values', 'Secret/kubeconfig', 'Secret/values', 'ServiceAccount/runner']);
});

test.run();
