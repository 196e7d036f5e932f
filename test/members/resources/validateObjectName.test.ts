import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nameInvalidReasons } from '../../../src/members/resources/validateObjectName.ts';

test('a name is valid or not by the rule of its kind, as kube-apiserver validates it', () => {
  const rbac = 'rbac.authorization.k8s.io';
  assert.equal(nameInvalidReasons(rbac, 'ClusterRole', 'system:controller:job-controller'), []);
  assert.equal(nameInvalidReasons(rbac, 'RoleBinding', 'Mixed_Case@x'), []);
  assert.equal(nameInvalidReasons(rbac, 'Role', '..'), ["may not be '..'"]);
  assert.equal(nameInvalidReasons(rbac, 'ClusterRoleBinding', 'a/b'), ["may not contain '/'"]);
  assert.match(nameInvalidReasons('', 'ConfigMap', 'system:x').join(), 'RFC 1123 subdomain');
  assert.equal(nameInvalidReasons('', 'ConfigMap', 'a.b-c'), []);
  assert.match(nameInvalidReasons('', 'Namespace', 'team.a').join(), 'RFC 1123 label');
  assert.match(nameInvalidReasons('', 'Service', '1web').join(), 'DNS-1035 label');
  assert.equal(nameInvalidReasons('', 'Service', 'web-1'), []);
  assert.equal(nameInvalidReasons('', 'Namespace', 'n'.repeat(64)), ['must be no more than 63 characters']);
  assert.equal(nameInvalidReasons('apps', 'Deployment', 'd'.repeat(254)), ['must be no more than 253 characters']);
});

test("each refusal is apimachinery's message with its example and regex; a name both too long and malformed has both", () => {
  assert.equal(nameInvalidReasons('coordination.k8s.io', 'Lease', 'Bad_Name'), [
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  ]);
  assert.equal(nameInvalidReasons('', 'Namespace', 'team.a'), [
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
  ]);
  assert.equal(nameInvalidReasons('', 'Service', '1web'), [
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  ]);
  assert.equal(nameInvalidReasons('', 'Service', `W${'w'.repeat(63)}`).length, 2);
  assert.equal(nameInvalidReasons('', 'ConfigMap', `${'c'.repeat(253)}-`)[0], 'must be no more than 253 characters');
});

test.run();
