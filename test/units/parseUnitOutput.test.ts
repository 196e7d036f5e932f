import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isReservedKey, MAX_UNIT_OBJECTS, parseUnitOutput } from '../../src/units/parseUnitOutput.ts';

const helm = { dir: 'charts/web', tool: 'helm' as const, marker: 'charts/web/Chart.yaml', namespace: 'web' };
const bytes = (text: string) => new TextEncoder().encode(text);

test("Helm's output: each object a template of the chart, its origin the file `# Source:` names, in the release's namespace", () => {
  const out = parseUnitOutput(
    helm,
    bytes(`---
# Source: web/templates/service.yaml
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports: [{port: 80}]
---
# Source: web/templates/role.yaml
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: web-reader
---
# Source: web/templates/cm.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: elsewhere
`),
  );
  assert.equal(out.problems, []);
  assert.equal(
    out.templates.map((t) => [t.ref.kind, t.ref.namespace, t.source.file, t.origin?.file, t.origin?.line]),
    [
      ['Service', 'web', 'charts/web/Chart.yaml', 'charts/web/templates/service.yaml', 1],
      ['ClusterRole', 'web', 'charts/web/Chart.yaml', 'charts/web/templates/role.yaml', 1],
      ['ConfigMap', 'elsewhere', 'charts/web/Chart.yaml', 'charts/web/templates/cm.yaml', 1],
    ],
  );
});

test("a problem in Helm's output is at the line of the template file that rendered it, a template's later documents after its earlier ones", () => {
  // As helm template prints a chart whose templates/app.yaml holds two documents and templates/cm.yaml one.
  const out = parseUnitOutput(
    helm,
    bytes(`---
# Source: web/templates/cm.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
---
# Source: web/templates/app.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: web
---
# Source: web/templates/app.yaml
apiVersion: v1
kind: ServiceAccount
metadata:
  name: ../../escape
`),
  );
  assert.equal(
    out.problems.map((p) => [p.file, p.line, p.column, p.code]),
    [['charts/web/templates/app.yaml', 9, 9, 'INVALID_NAME']],
  );
});

test('an output holding a policy, a bad name or a reserved annotation holds the whole unit, each problem at the file Helm named', () => {
  const out = parseUnitOutput(
    helm,
    bytes(`---
# Source: web/templates/policy.yaml
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: sneaky
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]
  placement: {}
---
# Source: web/templates/fine.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: fine
  labels:
    karmada.io/managed: "true"
`),
  );
  assert.ok(out.unreadable);
  assert.equal(out.templates, []);
  assert.equal(
    out.problems.map((p) => [p.file, p.code]),
    [
      ['charts/web/templates/policy.yaml', 'INVALID_VALUE'],
      ['charts/web/templates/fine.yaml', 'INVALID_VALUE'],
    ],
  );
});

test("Flotilla's own and the binding controller's keys are reserved; Karmada's template annotations are not", () => {
  for (const key of [
    'flotilla.io/source-commit',
    'emulator.flotilla.io/x',
    'karmada.io/managed',
    'resourcebinding.karmada.io/name',
  ])
    assert.ok(isReservedKey(key), key);
  for (const key of ['work.karmada.io/conflict-resolution', 'app', 'example.io/flotilla.io'])
    assert.not.ok(isReservedKey(key), key);
});

test("a template that writes its own `# Source:` line cannot place its objects or errors in a file outside the chart's folder", () => {
  const source = '# Source: web/../../clusters/member1.yaml';
  const held = parseUnitOutput(
    helm,
    bytes(`---\n${source}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n  labels:\n    flotilla.io/x: y\n`),
  );
  assert.equal(
    held.problems.map((p) => p.file),
    ['charts/web/helm template output'],
  );
  const rendered = parseUnitOutput(
    helm,
    bytes(`---\n${source}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n`),
  );
  assert.equal(
    rendered.templates.map((t) => t.origin?.file),
    ['charts/web/helm template output'],
  );
});

test('an output of more documents than one render takes is held before any is parsed, whatever its style', () => {
  const flow = (i: number) =>
    `---\n# Source: web/templates/cm.yaml\n{apiVersion: v1, kind: ConfigMap, metadata: {name: c${i}}}\n`;
  const many = Array.from({ length: MAX_UNIT_OBJECTS + 1 }, (_, i) => flow(i)).join('');
  const out = parseUnitOutput(helm, bytes(many));
  assert.is(out.unreadable, true);
  assert.is(out.templates.length, 0);
  assert.equal(
    out.problems.map((p) => [p.file, p.code]),
    [['charts/web/Chart.yaml', 'COMMIT_TOO_LARGE']],
  );
  assert.match(out.problems[0]!.message, `helm template output holds ${MAX_UNIT_OBJECTS + 2} documents`);
  // At the limit, every one is read.
  const enough = Array.from({ length: 3 }, (_, i) => flow(i)).join('');
  assert.is(parseUnitOutput(helm, bytes(enough)).templates.length, 3);
});

test.run();
