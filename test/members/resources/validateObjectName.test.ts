import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nameInvalidReason } from '../../../src/members/resources/validateObjectName.ts';

test('a name is valid or not by the rule of its kind, as kube-apiserver validates it', () => {
  const rbac = 'rbac.authorization.k8s.io';
  assert.is(nameInvalidReason(rbac, 'ClusterRole', 'system:controller:job-controller'), undefined);
  assert.is(nameInvalidReason(rbac, 'RoleBinding', 'Mixed_Case@x'), undefined);
  assert.is(nameInvalidReason(rbac, 'Role', '..'), "may not be '..'");
  assert.is(nameInvalidReason(rbac, 'ClusterRoleBinding', 'a/b'), "may not contain '/'");
  assert.match(nameInvalidReason('', 'ConfigMap', 'system:x') ?? '', 'RFC 1123 subdomain');
  assert.is(nameInvalidReason('', 'ConfigMap', 'a.b-c'), undefined);
  assert.match(nameInvalidReason('', 'Namespace', 'team.a') ?? '', 'RFC 1123 label');
  assert.match(nameInvalidReason('', 'Service', '1web') ?? '', 'DNS-1035 label');
  assert.is(nameInvalidReason('', 'Service', 'web-1'), undefined);
  assert.is(nameInvalidReason('', 'Namespace', 'n'.repeat(64)), 'must be no more than 63 characters');
  assert.is(nameInvalidReason('apps', 'Deployment', 'd'.repeat(254)), 'must be no more than 253 characters');
});

test.run();
