// What a workload depends on, as Karmada's native GetDependencies finds it (cases after
// pkg/resourceinterpreter/default/native/dependencies_test.go, default_test.go TestGetDependencies and
// pkg/util/lifted/visitpod_test.go). Karmada's tests compare with reflect.DeepEqual: the kinds come in
// GetDependenciesFromPodTemplate's order (ConfigMap, Secret, ServiceAccount, PersistentVolumeClaim); within a kind
// Karmada iterates a set, so its cases name one of each.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { interpretDependencies } from '../../src/interpreters/interpretDependencies.ts';

type Obj = Record<string, unknown>;
const namespace = 'karmada-test';

const ref = (kind: string, name: string) => ({ apiVersion: 'v1', kind, namespace, name });

// The three pod specs of dependencies_test.go's testPairs, with what each depends on.
const pairs: { spec: Obj; deps: ReturnType<typeof ref>[] }[] = [
  {
    spec: {
      serviceAccountName: 'test-serviceaccount',
      volumes: [
        { name: 'initcontainer-volume-mount', configMap: { name: 'test-configmap' } },
        { name: 'cloud-secret-volume', secret: { secretName: 'cloud-secret' } },
        { name: 'container-volume-mount', persistentVolumeClaim: { claimName: 'test-pvc' } },
      ],
    },
    deps: [
      ref('ConfigMap', 'test-configmap'),
      ref('Secret', 'cloud-secret'),
      ref('ServiceAccount', 'test-serviceaccount'),
      ref('PersistentVolumeClaim', 'test-pvc'),
    ],
  },
  {
    spec: {
      serviceAccountName: 'test-serviceaccount',
      imagePullSecrets: [{ name: 'test-secret' }],
      initContainers: [
        {
          envFrom: [{ configMapRef: { name: 'initcontainer-envfrom-configmap' }, secretRef: { name: 'test-secret' } }],
          env: [{ valueFrom: { secretKeyRef: { name: 'test-secret' } } }],
        },
      ],
    },
    deps: [
      ref('ConfigMap', 'initcontainer-envfrom-configmap'),
      ref('Secret', 'test-secret'),
      ref('ServiceAccount', 'test-serviceaccount'),
    ],
  },
  {
    spec: {
      containers: [
        {
          envFrom: [{ configMapRef: { name: 'test-configmap' } }],
          env: [{ valueFrom: { configMapKeyRef: { name: 'test-configmap' } } }],
        },
      ],
      volumes: [
        {
          name: 'container-volume-mount',
          persistentVolumeClaim: { claimName: 'test-pvc' },
          azureFile: { secretName: 'test-secret' },
        },
      ],
    },
    deps: [ref('ConfigMap', 'test-configmap'), ref('Secret', 'test-secret'), ref('PersistentVolumeClaim', 'test-pvc')],
  },
];

const metadata = { name: 'fake', namespace };
// Where each kind keeps its pod spec, as the Karmada cases build them.
const shapes: [string, string, (spec?: Obj) => Obj][] = [
  ['apps/v1', 'Deployment', (spec) => ({ replicas: 3, ...(spec ? { template: { spec } } : {}) })],
  ['apps/v1', 'ReplicaSet', (spec) => ({ replicas: 3, ...(spec ? { template: { spec } } : {}) })],
  ['batch/v1', 'Job', (spec) => (spec ? { template: { spec } } : {})],
  [
    'batch/v1',
    'CronJob',
    (spec) => ({ schedule: '*/1 * * * *', ...(spec ? { jobTemplate: { spec: { template: { spec } } } } : {}) }),
  ],
  [
    'apps/v1',
    'DaemonSet',
    (spec) => ({ selector: { matchLabels: { app: 'fake' } }, ...(spec ? { template: { spec } } : {}) }),
  ],
  [
    'apps/v1',
    'StatefulSet',
    (spec) => ({
      serviceName: 'fake-service',
      selector: { matchLabels: { app: 'fake' } },
      ...(spec ? { template: { spec } } : {}),
    }),
  ],
];

// Test_get{Deployment,ReplicaSet,Job,CronJob,DaemonSet,StatefulSet}Dependencies: "without dependencies" and "with
// dependencies 1, 2, 3". (The CronJob cases call the CronJob function with batch/v1beta1; Karmada registers it for
// batch/v1, which is what is used here.)
test('every workload kind depends on what its pod template names, and on nothing without one', () => {
  for (const [apiVersion, kind, spec] of shapes) {
    assert.equal(interpretDependencies({ apiVersion, kind, metadata, spec: spec() }, namespace), [], `${kind} without`);
    pairs.forEach((pair, i) => {
      assert.equal(
        interpretDependencies({ apiVersion, kind, metadata, spec: spec(pair.spec) }, namespace),
        pair.deps,
        `${kind} with dependencies ${i + 1}`,
      );
    });
  }
});

// Test_getPodDependencies: "pod without dependencies" and "pod with dependencies 1, 2, 3".
test('a Pod depends on what its own spec names', () => {
  assert.equal(
    interpretDependencies(
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata,
        spec: { containers: [{ name: 'example-container', image: 'busybox', command: ['echo', 'Hello, World!'] }] },
      },
      namespace,
    ),
    [],
  );
  pairs.forEach((pair, i) => {
    assert.equal(
      interpretDependencies({ apiVersion: 'v1', kind: 'Pod', metadata, spec: pair.spec }, namespace),
      pair.deps,
      `pod with dependencies ${i + 1}`,
    );
  });
});

// Test_getStatefulSetDependencies "statefulset with partial dependencies 4".
test('a StatefulSet does not depend on the claim its volumeClaimTemplates create', () => {
  assert.equal(
    interpretDependencies(
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata,
        spec: {
          serviceName: 'fake-service',
          selector: { matchLabels: { app: 'fake' } },
          template: { spec: pairs[0]!.spec },
          volumeClaimTemplates: [{ metadata: { name: 'test-pvc' } }],
        },
      },
      namespace,
    ),
    pairs[0]!.deps.slice(0, 3),
  );
});

// Test_getAllDefaultDependenciesInterpreter and default_test.go "can not get dependencies of given kind and apiversion"
// (an apps/v1 CronJob): kinds outside the nine have no dependencies.
test('only the nine kinds Karmada registers have dependencies', () => {
  const withTemplate = {
    replicas: 3,
    template: { spec: pairs[1]!.spec },
    jobTemplate: { spec: { template: { spec: pairs[1]!.spec } } },
  };
  for (const [apiVersion, kind] of [
    ['apps/v1', 'CronJob'],
    ['batch/v1beta1', 'CronJob'],
    ['apps/v1beta2', 'Deployment'],
    ['extensions/v1beta1', 'Ingress'],
    ['v1', 'ReplicationController'],
  ])
    assert.equal(
      interpretDependencies(
        { apiVersion, kind, metadata, spec: { ...withTemplate, tls: [{ secretName: 's' }] } },
        namespace,
      ),
      [],
      `${apiVersion} ${kind}`,
    );
});

// visitpod_test.go TestPodSecrets / TestPodConfigmaps, their empty-name stubs: an empty name is never a dependency.
test('references with empty names are not dependencies', () => {
  const emptyNames = {
    containers: [
      {
        envFrom: [{ secretRef: { name: '' }, configMapRef: { name: '' } }],
        env: [{ valueFrom: { secretKeyRef: { name: '' }, configMapKeyRef: { name: '' } } }],
      },
    ],
    imagePullSecrets: [{ name: '' }],
    volumes: [
      { name: 'v', secret: { secretName: '' }, configMap: { name: '' }, persistentVolumeClaim: { claimName: '' } },
    ],
    serviceAccountName: '',
  };
  assert.equal(interpretDependencies({ apiVersion: 'v1', kind: 'Pod', metadata, spec: emptyNames }, namespace), []);
});

test.run();
