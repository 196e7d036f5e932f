// `flotilla interpret` run on karmadactl interpret's own test data (pkg/karmadactl/interpret/testdata/*.yml, at
// Karmada f8fdd02): --check's report and --operation's output are byte for byte what karmadactl prints.
// From pkg/karmadactl/interpret/check_test.go (TestOptions_runCheck) and execute_test.go (TestOptions_runExecute).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { interpretCommand, type InterpretOptions } from '../../src/commands/interpretCommand.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'flotilla-karmada-interpret-'));
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

const CUSTOMIZATION = file(
  'customization.yml',
  `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: customization
spec:
  target:
    apiVersion: apps/v1
    kind: Deployment
  customizations:
    retention:
      luaScript: >
        function Retain(desiredObj, runtimeObj)
          desiredObj.metadata.annotations.cluster = runtimeObj.metadata.annotations.cluster
          return desiredObj
        end
    replicaResource:
      luaScript: >
        function GetReplicas(obj)
          replica = obj.spec.replicas
          requirement = {
            resourceRequest = obj.spec.template.spec.containers[1].resources.limits,
            nodeClaim = {
              nodeSelector = obj.spec.template.spec.nodeSelector,
              tolerations = obj.spec.template.spec.tolerations
            }
          }
          return replica, requirement
        end
    componentResource:
      luaScript: >
        function GetComponents(obj)
          local components = {}
          local replica = obj.spec.replicas
          local requirement = {
            resourceRequest = obj.spec.template.spec.containers[1].resources.limits,
            nodeClaim = {
              nodeSelector = obj.spec.template.spec.nodeSelector,
              tolerations = obj.spec.template.spec.tolerations
            }
          }
          table.insert(components, {
            name = "master",
            replicas = replica,
            replicaRequirements = requirement
          })
          return components
        end
    replicaRevision:
      luaScript: >
        function ReviseReplica(obj, desiredReplica)
          obj.spec.replicas = desiredReplica
          return obj
        end
    statusReflection:
      luaScript: >
        function ReflectStatus(observedObj)
          return observedObj.status
        end
    statusAggregation:
      luaScript: >
        function AggregateStatus(desiredObj, items)
          desiredObj.status.readyReplicas = 0
          for i = 1, #items do
            desiredObj.status.readyReplicas = desiredObj.status.readyReplicas + items[i].status.readyReplicas
          end
          return desiredObj
        end
    healthInterpretation:
      luaScript: >
        function InterpretHealth(observedObj)
          return observedObj.status.readyReplicas == observedObj.spec.replicas
        end
    dependencyInterpretation:
      luaScript: >
        function GetDependencies(desiredObj)
          dependencies = {}
          dependencies[1] = {
            apiVersion = "v1",
            kind       = "ServiceAccount",
            name       = desiredObj.metadata.name,
            namespace  = desiredObj.metadata.namespace,
          }
          return dependencies
        end
`,
);
const CUSTOMIZATION_CHECK = file(
  'customization_check.yml',
  `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: customization-check
spec:
  target:
    apiVersion: apps/v1
    kind: Deployment
  customizations:
    retention:
      luaScript: >
        function Retain(desiredObj, runtimeObj)
          return desiredObj
        end
    replicaResource:
      luaScript: >
        bad format
`,
);
const CUSTOMIZATION_ERROR = file(
  'customization_error.yml',
  `---
apiVersion: v1
kind: Pod
metadata:
  name: not-customization
---
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: api-version-unset
spec:
  target:
    kind: Deployment
---
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: kind-unset
spec:
  target:
    apiVersion: apps/v1


`,
);
const DESIRED = file(
  'desired.yml',
  `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
  annotations: {}
spec:
  replicas: 3
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
        - image: nginx:alpine
          name: nginx
status: {}
`,
);
const OBSERVED = file(
  'observed.yml',
  `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
  annotations:
    cluster: cluster1
spec:
  replicas: 3
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
        - image: nginx:alpine
          name: nginx
          resources:
            limits:
              cpu: 100m
status:
  readyReplicas: 3
`,
);
const STATUS = file(
  'status.yml',
  `clusterName: cluster1
status:
  readyReplicas: 2
applied: true
---
clusterName: cluster2
status:
  readyReplicas: 3
applied: true
`,
);

// check_test.go "Has errors in file"
test('--check reports a document that is not a customization, and one without target.apiVersion or target.kind, and fails', async () => {
  const r = await interpret({ filenames: [CUSTOMIZATION_ERROR], check: true });
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

// check_test.go "customization has error". The compiler's own words differ (gopher-lua's "line:1(column:10) near
// 'format':   parse error" against Lua 5.4's "line:1 syntax error near 'format'"), a difference the README lists: the
// report is compared with the message of the ERROR line cut after its line number.
test('--check passes the good script and reports the one that does not parse with its line, and fails', async () => {
  const r = await interpret({ filenames: [CUSTOMIZATION_CHECK], check: true });
  assert.is(r.status, 1);
  assert.match(r.stdout, /InterpretReplica: {8}ERROR: <string> line:1\b.*near 'format'/);
  assert.is(
    r.stdout.replace(/(ERROR: <string> line:1)\S*.*/, '$1'),
    `-----------------------------------
SOURCE: customization-check
TARGET: apps/v1 Deployment   
RULERS:
    Retain:                  PASS
    InterpretReplica:        ERROR: <string> line:1
    InterpretComponent:      UNSET
    ReviseReplica:           UNSET
    InterpretStatus:         UNSET
    AggregateStatus:         UNSET
    InterpretHealth:         UNSET
    InterpretDependency:     UNSET
`,
  );
});

// check_test.go "customization has no error"
test('--check passes every operation of a customization whose eight scripts compile, componentResource included', async () => {
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

const OBSERVED_DEPLOYMENT = (status: string, extra = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    cluster: cluster1
  name: nginx
spec:
  replicas: ${extra || '3'}
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - image: nginx:alpine
        name: nginx
        resources:
          limits:
            cpu: 100m
${status}
`;

// execute_test.go "execute retain"
test('--operation retain (any case) gives the desired object with what Retain kept of the observed one', async () => {
  const r = await interpret({
    filenames: [CUSTOMIZATION],
    operation: 'retain',
    desiredFile: DESIRED,
    observedFile: OBSERVED,
  });
  assert.is(r.stderr, '');
  assert.is(r.status, 0);
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
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - image: nginx:alpine
        name: nginx
status: {}
`,
  );
});

// execute_test.go "execute interpretReplica": an empty nodeClaim (nil selector and tolerations) is left out
test('--operation interpretReplica prints the replicas and the requirements GetReplicas returns, without an empty nodeClaim', async () => {
  const r = await interpret({ filenames: [CUSTOMIZATION], operation: 'interpretReplica', observedFile: OBSERVED });
  assert.is(r.stderr, '');
  assert.is(r.status, 0);
  assert.is(
    r.stdout,
    `---
# [1/2] replica:
3
---
# [2/2] requires:
resourceRequest:
  cpu: 100m
`,
  );
});

// execute_test.go "execute reviseReplica"
test('--operation reviseReplica sets the desired replica count on the object', async () => {
  const r = await interpret({
    filenames: [CUSTOMIZATION],
    operation: 'reviseReplica',
    observedFile: OBSERVED,
    desiredReplica: '2',
  });
  assert.is(r.stderr, '');
  assert.is(r.status, 0);
  assert.is(r.stdout, `---\n# [1/1] revised:\n${OBSERVED_DEPLOYMENT('status:\n  readyReplicas: 3', '2')}`);
});

// execute_test.go "execute interpretStatus"
test('--operation interpretStatus prints what ReflectStatus returns', async () => {
  const r = await interpret({ filenames: [CUSTOMIZATION], operation: 'interpretStatus', observedFile: OBSERVED });
  assert.is(r.status, 0);
  assert.is(r.stdout, '---\n# [1/1] status:\nreadyReplicas: 3\n');
});

// execute_test.go "execute interpretHealth"
test('--operation interpretHealth prints whether the observed object is healthy', async () => {
  const r = await interpret({ filenames: [CUSTOMIZATION], operation: 'interpretHealth', observedFile: OBSERVED });
  assert.is(r.status, 0);
  assert.is(r.stdout, '---\n# [1/1] healthy:\ntrue\n');
});

// execute_test.go "execute interpretDependency": the object has no namespace, so the reference has none
test('--operation interpretDependency prints the references GetDependencies returns, an unset namespace left out', async () => {
  const r = await interpret({ filenames: [CUSTOMIZATION], operation: 'interpretDependency', observedFile: OBSERVED });
  assert.is(r.stderr, '');
  assert.is(r.status, 0);
  assert.is(r.stdout, '---\n# [1/1] dependencies:\n- apiVersion: v1\n  kind: ServiceAccount\n  name: nginx\n');
});

// execute_test.go "execute aggregateStatus"
test('--operation aggregateStatus sums the status items of the status file into the object', async () => {
  const r = await interpret({
    filenames: [CUSTOMIZATION],
    operation: 'aggregateStatus',
    observedFile: OBSERVED,
    statusFile: STATUS,
  });
  assert.is(r.stderr, '');
  assert.is(r.status, 0);
  assert.is(r.stdout, `---\n# [1/1] aggregatedStatus:\n${OBSERVED_DEPLOYMENT('status:\n  readyReplicas: 5')}`);
});

// util/interpreter/validation/validation_test.go TestVerifyDependencies "empty kind", as karmadactl runs it:
// rule.go dependencyInterpretationRule.Run → ConfigurableInterpreter.GetDependencies → VerifyDependencies fails.
test('--operation interpretDependency fails on a reference without kind, as the interpreter verifies every reference', async () => {
  const customization = file(
    'deps-without-kind.yml',
    `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: deps-without-kind
spec:
  target:
    apiVersion: apps/v1
    kind: Deployment
  customizations:
    dependencyInterpretation:
      luaScript: >
        function GetDependencies(desiredObj)
          return {{apiVersion = "v1", name = "nginx"}}
        end
`,
  );
  const r = await interpret({ filenames: [customization], operation: 'interpretDependency', observedFile: OBSERVED });
  assert.is(r.stdout, '');
  assert.match(r.stderr, /^Execute InterpretDependency error: .*kind/);
});

test.run();
