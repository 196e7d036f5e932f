import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyText } from './helpers/classifyText.ts';
import { KIND_TYPES } from '../../src/api/apiFields.generated.ts';
import { REMOVED_APIS, unservedApi } from '../../src/api/servedApis.ts';
import { installedClientNode, kindOperations } from '../../scripts/apiFields/apiFieldsModule.ts';
import path from 'node:path';

test('a built-in apiVersion Kubernetes removed is an error at its apiVersion naming the one to use, and the template is held', () => {
  const file = classifyText(
    'templates/old.yaml',
    `apiVersion: autoscaling/v2beta2
kind: HorizontalPodAutoscaler
metadata: {name: h, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 3
---
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata: {name: p, namespace: default}
spec: {minAvailable: 1, selector: {matchLabels: {a: b}}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: ok, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 3
`,
  );
  assert.equal(
    file.problems.map((p) => `${p.line}:${p.column} ${p.severity} ${p.code}`),
    ['1:13 error INVALID_VALUE', '8:13 error INVALID_VALUE'],
  );
  assert.match(
    file.problems[0]!.message,
    'autoscaling/v2beta2 HorizontalPodAutoscaler was removed in Kubernetes 1.26; use autoscaling/v2',
  );
  assert.match(
    file.problems[1]!.message,
    'policy/v1beta1 PodDisruptionBudget was removed in Kubernetes 1.25; use policy/v1',
  );
  assert.match(file.problems[0]!.fix, 'set apiVersion: autoscaling/v2');
  assert.equal(
    file.templates.map((t) => t.ref.name),
    ['ok'],
  );
  assert.equal(
    file.broken.map((b) => `${b.apiVersion} ${b.namespace}/${b.name}`),
    ['autoscaling/v2beta2 default/h', 'policy/v1beta1 default/p'],
  );
});

test('every removed apiVersion names a replacement kube-apiserver serves today', () => {
  assert.is(REMOVED_APIS.size, 49);
  for (const [key, removal] of REMOVED_APIS) {
    assert.is(KIND_TYPES[key], undefined, key);
    if (typeof removal.use !== 'string') continue;
    const kind = key.slice(key.lastIndexOf('/') + 1);
    assert.ok(KIND_TYPES[`${removal.use}/${kind}`], `${key} → ${removal.use}`);
  }
  assert.match(unservedApi('policy/v1beta1', 'PodSecurityPolicy')!.message, 'use Pod Security Admission');
  assert.match(
    unservedApi('flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchema')!.message,
    'removed in Kubernetes 1.32',
  );
});

test('a built-in group at a version or kind kube-apiserver does not serve is refused; other groups are left to their CRD', () => {
  const old = unservedApi('batch/v2alpha1', 'CronJob')!;
  assert.match(old.message, 'serves no CronJob in batch/v2alpha1; CronJob is served as batch/v1');
  assert.is(old.fix, 'set apiVersion: batch/v1');
  assert.is(unservedApi('apps/v1', 'CronJob')!.fix, 'set apiVersion: batch/v1');
  assert.is(unservedApi('apps/v1', 'deployment')!.fix, 'write kind: Deployment');
  assert.ok(unservedApi('v2', 'ConfigMap'));
  assert.ok(unservedApi('extensions/v1beta1', 'Ingress'));
  for (const [apiVersion, kind] of [
    ['autoscaling/v1', 'HorizontalPodAutoscaler'],
    ['v1', 'ConfigMap'],
    ['example.io/v1', 'Widget'],
    ['gateway.networking.k8s.io/v1', 'HTTPRoute'],
    ['policy.karmada.io/v1alpha1', 'PropagationPolicy'],
  ] as const)
    assert.is(unservedApi(apiVersion, kind), undefined, `${apiVersion} ${kind}`);
});

// Karmada's detector watches only resources it can list, watch and delete; a kind kube-apiserver answers without
// keeping (a review, a Binding) or never lets anyone create (ComponentStatus) is no template there.
test('a kind kube-apiserver never stores is an error at its apiVersion, and the template is held', async () => {
  const file = classifyText(
    'templates/review.yaml',
    `apiVersion: authorization.k8s.io/v1
kind: SubjectAccessReview
metadata: {name: can-alice-read}
spec:
  user: alice
  resourceAttributes: {verb: get, resource: pods}
`,
  );
  assert.equal(
    file.problems.map((p) => `${p.line}:${p.column} ${p.severity} ${p.code}`),
    ['1:13 error INVALID_VALUE'],
  );
  assert.match(
    file.problems[0]!.message,
    'kube-apiserver answers a SubjectAccessReview (whether the access is allowed) and keeps nothing',
  );
  assert.equal(file.templates, []);
  // What the installed client's API offers no delete for, kube-apiserver keeps no object of.
  const { apiFiles } = await installedClientNode(path.resolve(import.meta.dirname, '../..'));
  const stored = (key: string) => {
    const operations = kindOperations(apiFiles, key);
    return operations.has('delete') || operations.has('deleteNamespaced');
  };
  const notStored = Object.keys(KIND_TYPES).filter((key) => kindOperations(apiFiles, key).size > 0 && !stored(key));
  assert.ok(notStored.includes('v1/Binding'));
  for (const key of notStored) {
    const slash = key.lastIndexOf('/');
    assert.ok(unservedApi(key.slice(0, slash), key.slice(slash + 1)), key);
  }
  assert.is(unservedApi('v1', 'ConfigMap'), undefined);
});

test.run();
