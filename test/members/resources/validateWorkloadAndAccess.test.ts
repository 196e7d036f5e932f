// The API server's checks of Deployments, PodDisruptionBudgets, RBAC objects, Service ports, claims and class kinds,
// as the member answers them: each mistake is named with its field path and the API server's words.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateWorkloadAndAccess } from '../../../src/members/resources/validateWorkloadAndAccess.ts';

const messages = (group: string, kind: string, object: unknown) =>
  validateWorkloadAndAccess(group, kind, object).map((e) => `${e.field}: ${e.body}`);

const deployment = (patch: (d: any) => void = () => {}) => {
  const d = {
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          restartPolicy: 'Always',
          containers: [
            {
              name: 'web',
              image: 'nginx',
              ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
              env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
              volumeMounts: [{ name: 'data', mountPath: '/data' }],
              livenessProbe: { httpGet: { path: '/healthz', port: 'http' }, successThreshold: 1 },
              resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '128Mi' } },
            },
          ],
          volumes: [{ name: 'data', emptyDir: {} }],
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'kubernetes.io/hostname',
              whenUnsatisfiable: 'DoNotSchedule',
              labelSelector: { matchLabels: { app: 'web' } },
              matchLabelKeys: ['pod-template-hash'],
            },
          ],
        },
      },
    },
  };
  patch(d);
  return d;
};

test('a well-formed Deployment has no errors', () => {
  assert.equal(messages('apps', 'Deployment', deployment()), []);
});

test('a Deployment: selector, template labels, strategy and the pod template are checked as the API server does', () => {
  assert.equal(
    messages(
      'apps',
      'Deployment',
      deployment((d) => {
        d.spec.template.metadata.labels = { app: 'api' };
        d.spec.strategy.rollingUpdate.maxSurge = '0%';
      }),
    ),
    [
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"api"}: `selector` does not match template `labels`',
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0',
    ],
  );
  const c = (d: any) => d.spec.template.spec.containers[0];
  assert.equal(
    messages(
      'apps',
      'Deployment',
      deployment((d) => {
        c(d).ports[0].name = 'metrics-and-webhooks';
        c(d).volumeMounts[0].name = 'cache';
        c(d).env[0].valueFrom.fieldRef.fieldPath = 'metadata.generation';
        c(d).resources.limits.cpu = '50m';
        d.spec.template.spec.topologySpreadConstraints[0].whenUnsatisfiable = 'Never';
      }),
    ),
    [
      'spec.template.spec.containers[0].ports[0].name: Invalid value: "metrics-and-webhooks": must be no more than 15 characters',
      'spec.template.spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.generation": error converting fieldPath: field label not supported: metadata.generation',
      'spec.template.spec.containers[0].volumeMounts[0].name: Not found: "cache"',
      'spec.template.spec.containers[0].resources.requests: Invalid value: "100m": must be less than or equal to cpu limit of 50m',
      'spec.template.spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Never": supported values: "DoNotSchedule", "ScheduleAnyway"',
    ],
  );
  assert.equal(
    messages(
      'apps',
      'Deployment',
      deployment((d) => delete d.spec.selector),
    ),
    // No selector selects nothing: the pod labels do not match it either.
    [
      'spec.selector: Required value',
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    ],
  );
});

test('a StatefulSet is refused by the member for its strategy and pod restarts, not for mounts of its claims', () => {
  const statefulSet: any = deployment((d) => {
    delete d.spec.strategy;
    d.spec.template.spec.volumes = [];
  });
  assert.equal(messages('apps', 'StatefulSet', statefulSet), []);
  statefulSet.spec.updateStrategy = { type: 'OnDelete', rollingUpdate: {} };
  statefulSet.spec.template.spec.restartPolicy = 'Never';
  assert.equal(messages('apps', 'StatefulSet', statefulSet), [
    "spec.updateStrategy.rollingUpdate: Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:0, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'",
    'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
  ]);
});

test('a ReplicationController selects its pods by a non-empty map, restarts them always and keeps counts non-negative', () => {
  const pod = { containers: [{ name: 'web', image: 'nginx' }] };
  const rc = (spec: Record<string, unknown>) => messages('', 'ReplicationController', { spec });
  assert.equal(
    rc({ replicas: 2, selector: { app: 'web' }, template: { metadata: { labels: { app: 'web' } }, spec: pod } }),
    [],
  );
  // An empty selector is the template's labels.
  assert.equal(rc({ template: { metadata: { labels: { app: 'web' } }, spec: pod } }), []);
  assert.equal(
    rc({
      replicas: -1,
      minReadySeconds: -5,
      selector: { app: 'api' },
      template: {
        metadata: { labels: { app: 'web', tier: 'front' } },
        spec: { ...pod, restartPolicy: 'OnFailure', activeDeadlineSeconds: 30 },
      },
    }),
    [
      'spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0',
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web", "tier":"front"}: `selector` does not match template `labels`',
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported',
    ],
  );
  assert.equal(rc({ template: { spec: pod } }), ['spec.selector: Required value']);
  assert.equal(rc({ selector: { app: 'web' } }), ['spec.template: Required value']);
});

test('a PodDisruptionBudget takes minAvailable or maxUnavailable, not both, and a known eviction policy', () => {
  assert.equal(
    messages('policy', 'PodDisruptionBudget', {
      spec: { maxUnavailable: 1, unhealthyPodEvictionPolicy: 'AlwaysAllow' },
    }),
    [],
  );
  assert.equal(messages('policy', 'PodDisruptionBudget', { spec: { minAvailable: '150%', maxUnavailable: 1 } }), [
    'spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0x…), Selector:(*v1.LabelSelector)(nil), MaxUnavailable:(*intstr.IntOrString)(0x…), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set',
    'spec.minAvailable: Invalid value: "150%": must not be greater than 100%',
  ]);
});

test('RBAC: a rule needs verbs, groups and resources; a binding a known role kind and subject kind', () => {
  const rbac = 'rbac.authorization.k8s.io';
  assert.equal(
    messages(rbac, 'Role', { rules: [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get'] }] }),
    [],
  );
  assert.equal(
    messages(rbac, 'Role', { rules: [{ resources: ['leases'] }, { nonResourceURLs: ['/healthz'], verbs: ['get'] }] }),
    [
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[1].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs',
    ],
  );
  assert.equal(
    messages(rbac, 'RoleBinding', {
      roleRef: { apiGroup: rbac, kind: 'Role', name: 'leases' },
      subjects: [{ kind: 'ServiceAccount', name: 'flotilla', namespace: 'flotilla-system' }],
    }),
    [],
  );
  assert.equal(
    messages(rbac, 'ClusterRoleBinding', {
      roleRef: { apiGroup: rbac, kind: 'Role', name: 'leases' },
      subjects: [
        { kind: 'ServiceAccount', name: 'flotilla' },
        { kind: 'Robot', name: 'r2' },
      ],
    }),
    [
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      'subjects[0].namespace: Required value',
      'subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
    ],
  );
});

// A Service as the API server validates it: after SetDefaults_Service (each port's protocol and targetPort too).
const defaulted = { type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster' };

test('Service ports: named when there are several, each name once, numbers and target ports in range', () => {
  assert.equal(
    messages('', 'Service', {
      spec: { ...defaulted, ports: [{ name: 'http', port: 9464, protocol: 'TCP', targetPort: 'http' }] },
    }),
    [],
  );
  assert.equal(
    messages('', 'Service', {
      spec: {
        ...defaulted,
        ports: [
          { port: 80, protocol: 'TCP', targetPort: 80 },
          { name: 'http', port: 70000, protocol: 'TCP', targetPort: 'web-and-metrics-port' },
        ],
      },
    }),
    [
      'spec.ports[0].name: Required value',
      'spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.ports[1].targetPort: Invalid value: "web-and-metrics-port": must be no more than 15 characters',
    ],
  );
});

test('Ingresses and NetworkPolicies are refused as kube-apiserver refuses them, and a Service without ports', () => {
  const backend = { service: { name: 'web', port: { name: 'http' } } };
  assert.equal(
    messages('networking.k8s.io', 'Ingress', { spec: { rules: [{ http: { paths: [{ path: '/', backend }] } }] } }),
    ['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified'],
  );
  assert.equal(
    messages('networking.k8s.io', 'NetworkPolicy', {
      spec: { podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.0.0.0/8'] } }] }] },
    }),
    ['spec.egress[0].to[0].ipBlock.except[0]: Invalid value: "10.0.0.0/8": must be a strict subset of `cidr`'],
  );
  assert.equal(messages('', 'Service', { spec: { ...defaulted } }), ['spec.ports: Required value']);
});

test('a claim is refused as the API server refuses it; a class or Namespace update is not checked again', () => {
  assert.equal(messages('', 'PersistentVolumeClaim', { spec: { resources: { requests: { storage: '1Gi' } } } }), [
    'spec.accessModes: Required value: at least 1 access mode is required',
  ]);
  const storageClass = { metadata: { name: 'fast' }, provisioner: '', volumeBindingMode: 'Immediate' };
  assert.equal(messages('storage.k8s.io', 'StorageClass', storageClass), ['provisioner: Required value']);
  // ValidateStorageClassUpdate checks immutability and metadata only, as do the PriorityClass and Namespace updates.
  assert.equal(validateWorkloadAndAccess('storage.k8s.io', 'StorageClass', storageClass, storageClass), []);
  const namespace = { metadata: { name: 'a' }, spec: { finalizers: ['custom'] } };
  assert.equal(validateWorkloadAndAccess('', 'Namespace', namespace, namespace), []);
  const priorityClass = { metadata: { name: 'system-x' }, value: 1 };
  assert.equal(validateWorkloadAndAccess('scheduling.k8s.io', 'PriorityClass', priorityClass, priorityClass), []);
});

test.run();
