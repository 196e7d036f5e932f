// The Kubernetes validation Karmada lifts into pkg/util/lifted and runs in its webhooks: a Cluster's taints
// (validateclustertaints.go ValidateClusterTaints, run by pkg/apis/cluster/validation) and the resource name of a
// FederatedHPA ContainerResource metric (validatingfhpa.go validateContainerResourceSource ->
// corehelpers.go ValidateContainerResourceName -> corevalidation.go validateResourceName, corev1helpers.go
// IsNativeResource / IsExtendedResourceName, corehelpers.go IsStandardResourceName). Cases from
// validateclustertaints_test.go, corevalidation_test.go, corehelpers_test.go and corev1helpers_test.go; each lifted
// function's input is placed in an otherwise valid object, and the expected result is what the webhook's composed
// check gives for it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatPath } from '../../src/documents/schema/formatPath.ts';
import { validateFederatedHpa } from '../../src/documents/schema/validateFederatedHpa.ts';
import { validateKarmadaDocument } from '../../src/documents/schema/validateKarmadaDocument.ts';

type Obj = Record<string, unknown>;

const taintIssues = (taints: Obj[]) =>
  validateKarmadaDocument('Cluster', {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'member1' },
    spec: { syncMode: 'Push', apiEndpoint: 'https://1.2.3.4:6443', taints },
  }).map((i) => formatPath(i.path));

test('a Cluster taint needs a label-name key and a label value; each bad part is one error', () => {
  // validateclustertaints_test.go TestValidateClusterTaints "valid taints", "invalid taint key", "invalid taint value".
  assert.equal(
    taintIssues([
      { key: 'key1', value: 'value1', effect: 'NoSchedule' },
      { key: 'key2', value: 'value2', effect: 'NoExecute' },
    ]),
    [],
  );
  assert.equal(taintIssues([{ key: 'invalid key', value: 'value1', effect: 'NoSchedule' }]), ['spec.taints[0].key']);
  assert.equal(taintIssues([{ key: 'key1', value: 'invalid value!', effect: 'NoSchedule' }]), ['spec.taints[0].value']);
});

test('a Cluster taint effect is NoSchedule or NoExecute and may not be empty', () => {
  // TestValidateClusterTaints "invalid taint effect", "empty effect"; TestValidateClusterTaintEffect "valid NoSchedule
  // effect", "valid NoExecute effect", "invalid effect", "empty effect not allowed" (the webhook never allows empty).
  assert.equal(taintIssues([{ key: 'key1', value: 'value1', effect: 'InvalidEffect' }]), ['spec.taints[0].effect']);
  assert.equal(taintIssues([{ key: 'key1', value: 'value1', effect: '' }]), ['spec.taints[0].effect']);
  assert.equal(taintIssues([{ key: 'key1', value: 'value1', effect: 'NoSchedule' }]), []);
  assert.equal(taintIssues([{ key: 'key1', value: 'value1', effect: 'NoExecute' }]), []);
});

test('two Cluster taints with the same key and effect are one duplicate, whatever their values', () => {
  // TestValidateClusterTaints "duplicate taints".
  assert.equal(
    taintIssues([
      { key: 'key1', value: 'value1', effect: 'NoSchedule' },
      { key: 'key1', value: 'value2', effect: 'NoSchedule' },
    ]),
    ['spec.taints[1]'],
  );
  // The same key under another effect is a different taint.
  assert.equal(
    taintIssues([
      { key: 'key1', value: 'value1', effect: 'NoSchedule' },
      { key: 'key1', value: 'value1', effect: 'NoExecute' },
    ]),
    [],
  );
});

test("a Cluster's taint errors are all reported: bad key, value and effect, and a later duplicate", () => {
  // TestValidateClusterTaints "multiple errors": four errors.
  const issues = taintIssues([
    { key: 'invalid key', value: 'invalid value!', effect: 'InvalidEffect' },
    { key: 'key1', value: 'value1', effect: 'NoSchedule' },
    { key: 'key1', value: 'value2', effect: 'NoSchedule' },
  ]);
  assert.equal(
    [...issues].sort(),
    ['spec.taints[0].effect', 'spec.taints[0].key', 'spec.taints[0].value', 'spec.taints[2]'].sort(),
  );
});

/** The errors a FederatedHPA gets on the resource name of its one ContainerResource metric. */
const containerResourceNameIssues = (name: string) =>
  validateFederatedHpa({
    apiVersion: 'autoscaling.karmada.io/v1alpha1',
    kind: 'FederatedHPA',
    metadata: { name: 'test-fhpa', namespace: 'default' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'test-deployment' },
      minReplicas: 1,
      maxReplicas: 10,
      metrics: [
        {
          type: 'ContainerResource',
          containerResource: { name, container: 'app', target: { type: 'Utilization', averageUtilization: 50 } },
        },
      ],
    },
  })
    .map((i) => formatPath(i.path))
    .filter((p) => p.endsWith('.containerResource.name'));

const checkNames = (cases: [name: string, valid: boolean][]) => {
  for (const [name, valid] of cases)
    assert.is(containerResourceNameIssues(name).length === 0, valid, `${JSON.stringify(name)} valid: ${valid}`);
};

test('a container resource name is a qualified name; unprefixed, only one a container can request', () => {
  // corevalidation_test.go TestValidateResourceNames, every input. validateResourceName alone admits storage,
  // requests.* and limits.*; ValidateContainerResourceName then admits, without a prefix, only cpu, memory,
  // ephemeral-storage and hugepages-*.
  checkNames([
    ['memory', true],
    ['cpu', true],
    ['storage', false],
    ['requests.cpu', false],
    ['requests.memory', false],
    ['requests.storage', false],
    ['limits.cpu', false],
    ['limits.memory', false],
    ['network', false],
    ['disk', false],
    ['', false],
    ['.', false],
    ['..', false],
    ['my.favorite.app.co/12345', true],
    ['my.favorite.app.co/_12345', false],
    ['my.favorite.app.co/12345_', false],
    ['kubernetes.io/..', false],
    [`kubernetes.io/${'a'.repeat(63)}`, true],
    [`kubernetes.io/${'a'.repeat(64)}`, false],
    ['kubernetes.io//', false],
    ['kubernetes.io', false],
    ['kubernetes.io/will/not/work/', false],
  ]);
});

test('standard resource names: cpu, memory and huge pages are; requests.hugepages-* is not a container resource', () => {
  // corehelpers_test.go TestIsStandardResource, every input, through ValidateContainerResourceName.
  checkNames([
    ['cpu', true],
    ['memory', true],
    ['disk', false],
    ['blah', false],
    ['x.y.z', false],
    ['hugepages-2Mi', true],
    ['requests.hugepages-2Mi', false],
  ]);
});

test('a prefixed container resource is native under kubernetes.io/, else it must be a valid extended resource', () => {
  // corev1helpers_test.go TestIsNativeResource: "pod.alpha.kubernetes.io/opaque-int-resource-foo" and
  // "kubernetes.io/resource-foo" are native (accepted as they are), "a/b" is not native but is a valid extended
  // resource ("requests.a/b" is a qualified name), "foo" and "" are unprefixed (handled above).
  checkNames([
    ['pod.alpha.kubernetes.io/opaque-int-resource-foo', true],
    ['kubernetes.io/resource-foo', true],
    ['a/b', true],
    ['foo', false],
  ]);
  // ValidateContainerResourceName (corehelpers.go): a prefixed name outside *kubernetes.io/ must pass
  // IsExtendedResourceName (corev1helpers.go), which refuses the quota prefix "requests.".
  checkNames([
    ['requests.example.com/gpu', false],
    ['example.com/gpu', true],
  ]);
});

test('a prefixed container resource outside kubernetes.io/ must stay a qualified name with "requests." before it', () => {
  // IsExtendedResourceName (corev1helpers.go) also refuses a name that is no qualified name once "requests." is put
  // before it: a 245-character prefix is a valid DNS subdomain (at most 253), "requests." plus it is not.
  const prefix = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(62)}`;
  assert.is(prefix.length, 245);
  checkNames([
    [`${prefix}/gpu`, false],
    [`${'a'.repeat(60)}.${'b'.repeat(60)}/gpu`, true],
  ]);
});

test.run();
