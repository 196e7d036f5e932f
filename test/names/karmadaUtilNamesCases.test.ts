// Generated names, case by case, as Karmada's pkg/util/names decides them (cases after pkg/util/names/names_test.go at
// f8fdd02): binding names (TestGenerateBindingName), binding reference keys (TestGenerateBindingReferenceKey), the
// multi-cluster services names (TestGenerateDerivedServiceName, TestGenerateEndpointSliceName) and the reserved
// namespaces (TestIsReservedNamespace).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isSkippedNamespace } from '../../src/bindings/matchPolicy.ts';
import { bindingName, bindingReferenceKey } from '../../src/names/bindingName.ts';
import { derivedServiceName, importedEndpointSliceName } from '../../src/names/serviceImportNames.ts';

test('a binding is named <name>-<kind>, lowercased, with every ":" of an RBAC name made "."', () => {
  const cases: [string, string, string, string][] = [
    ['uppercase kind', 'Pods', 'pod', 'pod-pods'],
    ['uppercase name', 'pods', 'Pod', 'pod-pods'],
    ['lowercase name', 'pods', 'Pod', 'pod-pods'],
    ['Role', 'Role', 'system:controller:tom', 'system.controller.tom-role'],
    ['ClusterRole', 'ClusterRole', 'system::tom', 'system..tom-clusterrole'],
    ['RoleBinding', 'RoleBinding', 'system::tt:tom', 'system..tt.tom-rolebinding'],
    ['ClusterRoleBinding', 'ClusterRoleBinding', 'system:tt:tom', 'system.tt.tom-clusterrolebinding'],
  ];
  for (const [name, kind, objectName, want] of cases) assert.is(bindingName(kind, objectName), want, name);
});

test('binding reference keys differ whenever the namespace/name pair differs, even when the joined text would not', () => {
  const pairs: [string, string][] = [
    ['prod-xxx', 'mytest-deployment'],
    ['qa-xxx', 'mytest-deployment'],
    ['', 'mytest-deployment'],
    ['a', 'b-c'],
    ['a-b', 'c'],
  ];
  const keys = pairs.map(([namespace, name]) => bindingReferenceKey(namespace, name));
  assert.is(new Set(keys).size, pairs.length, keys.join(' '));
  for (const key of keys) assert.match(key, /^[bcdfghjklmnpqrstvwxz2456789]+$/);
});

test('an imported Service is derived-<name> and an imported EndpointSlice imported-<cluster>-<slice>', () => {
  assert.is(derivedServiceName('service'), 'derived-service');
  assert.is(importedEndpointSliceName('endpoint', 'cluster'), 'imported-cluster-endpoint');
});

test("Karmada's reserved namespaces are never propagated from; an ordinary namespace is", () => {
  const cases: [string, boolean][] = [
    ['karmada-system', true],
    ['karmada-cluster', true],
    ['karmada-es-', true],
    ['test-A', false],
  ];
  for (const [namespace, reserved] of cases) assert.is(isSkippedNamespace(namespace), reserved, namespace);
});

test.run();
