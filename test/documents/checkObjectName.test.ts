import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { refKey } from '../../src/api/kinds.ts';
import { assembleModel } from '../../src/documents/assembleModel.ts';
import { classifyDocuments } from '../../src/documents/classifyDocuments.ts';
import { parseDocuments } from '../../src/documents/parseDocuments.ts';
import {
  checkApiVersion,
  checkKind,
  checkObjectIdentity,
  checkObjectName,
  nameRuleOf,
} from '../../src/documents/checkObjectName.ts';

test('every built-in and custom kind passes; a kind with a dot, slash, dots or a space is refused', () => {
  for (const kind of ['Deployment', 'ConfigMap', 'HorizontalPodAutoscaler', 'CronTab', 'Foo-Bar', 'V1Thing'])
    assert.equal(checkKind(kind), [], kind);
  for (const kind of [
    '..',
    '../x',
    'a..b',
    'a/b',
    'Deployment.apps',
    'x y',
    '1Thing',
    '',
    'a'.repeat(64),
    'Foo-',
    'Foo_Bar',
  ]) {
    assert.is(checkKind(kind).length, 1, kind);
  }
});

test('a kind written as kubectl names a resource type says where the group goes', () => {
  const [p] = checkKind('Deployment.apps');
  assert.match(p!.fix, 'write kind: Deployment and put the group in apiVersion (apiVersion: apps/<version>)');
});

test('apiVersion is [group/]version with a DNS group and a label version', () => {
  for (const v of ['v1', 'apps/v1', 'networking.k8s.io/v1', 'example.com/v1alpha1'])
    assert.equal(checkApiVersion(v), [], v);
  for (const v of ['a/b/v1', '../v1', 'apps/', '/v1', 'Apps/v1', 'apps/V1', 'apps/1', 'a..b/v1', 'x y/v1'])
    assert.is(checkApiVersion(v).length, 1, v);
});

test('names follow the rule of their kind: Service a DNS-1035 label, Namespace a label, RBAC a path segment, others a subdomain', () => {
  assert.is(nameRuleOf('v1', 'Service'), 'dns1035');
  assert.is(nameRuleOf('v1', 'Namespace'), 'label');
  assert.is(nameRuleOf('rbac.authorization.k8s.io/v1', 'ClusterRole'), 'rbac');
  assert.is(nameRuleOf('apps/v1', 'Deployment'), 'subdomain');
  assert.equal(checkObjectIdentity({ apiVersion: 'v1', kind: 'ConfigMap', name: 'a.b-c', namespace: 'shop' }), []);
  assert.equal(
    checkObjectIdentity({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      name: 'system:controller:x',
    }),
    [],
  );
  assert.is(checkObjectIdentity({ apiVersion: 'v1', kind: 'Service', name: '1web' }).length, 1);
  assert.is(checkObjectIdentity({ apiVersion: 'v1', kind: 'Service', name: 'web.x' }).length, 1);
  assert.is(checkObjectIdentity({ apiVersion: 'v1', kind: 'ConfigMap', name: 'Web' }).length, 1);
  assert.is(checkObjectIdentity({ apiVersion: 'v1', kind: 'ConfigMap', name: 'web', namespace: 'a.b' }).length, 1);
  assert.is(checkObjectIdentity({ apiVersion: 'v1', kind: 'ConfigMap', name: 'a:b' }).length, 1);
});

test('a name that could leave its folder is never path safe; a merely invalid one is, so its old output is held', () => {
  for (const name of ['..', '../etc', '/etc', 'a\\b', 'a\0b', 'a%2f', 'a'.repeat(300)]) {
    const problems = checkObjectName(name, 'metadata.name');
    assert.ok(problems.length > 0 && problems.every((p) => !p.pathSafe), name);
  }
  assert.ok(checkObjectName('MyConfig', 'metadata.name')[0]!.pathSafe);
  assert.ok(checkObjectName('a/b', 'metadata.namespace', true).every((p) => !p.pathSafe));
  assert.equal(checkObjectName('MyConfig', 'metadata.name')[0]!.path, ['metadata', 'name']);
});

test('classifyDocuments: a kind with a path in it is a located INVALID_VALUE; a name Kubernetes refuses but a path can hold is held, an unsafe one is not', async () => {
  const text =
    'apiVersion: v1\nkind: "../x"\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: MyConfig\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ../etc\n';
  const { documents, problems } = parseDocuments('templates/t.yaml', new TextEncoder().encode(text));
  const file = classifyDocuments('templates/t.yaml', documents, problems);
  assert.equal(
    file.problems.map((p) => `${p.line}:${p.code}`),
    ['2:INVALID_VALUE', '9:INVALID_NAME', '14:INVALID_NAME'],
  );
  assert.equal(file.templates, []);
  assert.equal(file.broken.map(refKey), ['v1/ConfigMap/default/MyConfig', 'v1/ConfigMap//MyConfig']);
  const model = await assembleModel([file]);
  assert.ok(model.held.has('v1/ConfigMap/default/MyConfig'));
});

test("classifyDocuments: an object with generateName and no name is refused at its generateName, saying why, and the file's other objects stay", () => {
  const text =
    'apiVersion: batch/v1\nkind: Job\nmetadata:\n  generateName: upgrade-sql-schema\n  annotations: {helm.sh/hook: pre-install}\nspec: {}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kept\n';
  const { documents, problems } = parseDocuments('templates/hooks.yaml', new TextEncoder().encode(text));
  const file = classifyDocuments('templates/hooks.yaml', documents, problems);
  assert.equal(
    file.problems.map((p) => `${p.line}:${p.column}:${p.code}`),
    ['4:17:MISSING_FIELD'],
  );
  assert.match(file.problems[0]!.message, 'has metadata.generateName (upgrade-sql-schema) but no metadata.name');
  assert.match(file.problems[0]!.fix, 'give it a fixed metadata.name');
  assert.equal(
    file.templates.map((t) => t.ref.name),
    ['kept'],
  );
});

test('classifyDocuments: a document with neither apiVersion nor kind (a ytt overlay) says to list its file in .flotillaignore', () => {
  const text = '#@overlay/match by=overlay.subset({"kind": "Deployment"})\n---\nspec:\n  replicas: 2\n';
  const { documents, problems } = parseDocuments('config/ytt/replicas.yaml', new TextEncoder().encode(text));
  const file = classifyDocuments('config/ytt/replicas.yaml', documents, problems);
  assert.equal(
    file.problems.map((p) => p.code),
    ['MISSING_FIELD'],
  );
  assert.match(file.problems[0]!.fix, 'list it in .flotillaignore');
  const named = parseDocuments('templates/x.yaml', new TextEncoder().encode('apiVersion: v1\nkind: ConfigMap\n'));
  assert.not.match(
    classifyDocuments('templates/x.yaml', named.documents, named.problems).problems[0]!.fix,
    'flotillaignore',
  );
});

test('classifyDocuments: an env value YAML reads as a boolean or a number is refused at the value, as every API server would refuse it', () => {
  const text = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      initContainers:
        - name: init
          env:
            - {name: OK, value: "true"}
      containers:
        - name: app
          env:
            - name: DEBUG
              value: true
            - name: PORT
              value: 8080
            - name: FROM_FIELD
              valueFrom: {fieldRef: {fieldPath: metadata.name}}
---
apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
spec:
  schedule: "0 0 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: job
              env: [{name: RATIO, value: 1.5}]
`;
  const { documents, problems } = parseDocuments('templates/web.yaml', new TextEncoder().encode(text));
  const file = classifyDocuments('templates/web.yaml', documents, problems);
  assert.equal(
    file.problems.map((p) => `${p.line}:${p.code}`),
    ['16:INVALID_VALUE', '18:INVALID_VALUE', '35:INVALID_VALUE'],
  );
  assert.match(file.problems[0]!.message, 'env DEBUG of container app has the boolean true as its value');
  assert.is(file.problems[1]!.fix, 'quote it: value: "8080"');
  assert.equal(file.templates, [], 'both held, as any template Kubernetes would refuse');
});

test.run();
