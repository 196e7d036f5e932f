import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultObject } from '../../../src/members/resources/defaultObject.ts';
import type { KubeObject } from '../../../src/members/types.ts';

// The API server's defaults as clients read them back: Go's zero-value rule (empty strings and nil pointers
// are defaulted, explicit values are kept) and the defaults nested inside pod templates.

let nextPort = 30000;
const allocators = { clusterIP: () => '10.96.0.50', nodePort: () => nextPort++ };
function defaulted(kind: string, object: Partial<KubeObject>): KubeObject {
  const copy = structuredClone({ metadata: { name: 'x', namespace: 'ns' }, ...object }) as KubeObject;
  defaultObject(kind, copy, allocators);
  return copy;
}

test('empty strings are defaulted like missing ones, explicit zero values are kept', () => {
  const pod = defaulted('Pod', {
    spec: {
      restartPolicy: '',
      dnsPolicy: null,
      terminationGracePeriodSeconds: 0,
      containers: [{ name: 'c', image: 'nginx:1.27', imagePullPolicy: '' }],
    },
  });
  assert.is(pod.spec.restartPolicy, 'Always');
  assert.is(pod.spec.dnsPolicy, 'ClusterFirst');
  assert.is(pod.spec.terminationGracePeriodSeconds, 0);
  assert.is(pod.spec.containers[0].imagePullPolicy, 'IfNotPresent');
  assert.is(defaulted('Secret', { type: '' }).type, 'Opaque');
  assert.is(defaulted('Deployment', { spec: { replicas: 0 } }).spec.replicas, 0);
});

test('image pull policy: no tag or :latest pulls Always, a registry port is not a tag, a digest is IfNotPresent', () => {
  const policy = (image: string) =>
    defaulted('Pod', { spec: { containers: [{ name: 'c', image }] } }).spec.containers[0].imagePullPolicy;
  assert.is(policy('nginx'), 'Always');
  assert.is(policy('nginx:latest'), 'Always');
  assert.is(policy('registry:5000/nginx'), 'Always');
  assert.is(policy('registry:5000/nginx:1.27'), 'IfNotPresent');
  assert.is(policy('nginx@sha256:abc'), 'IfNotPresent');
});

test('a partial Deployment strategy gets its missing parts, a Recreate one gets no rollingUpdate', () => {
  const partial = defaulted('Deployment', { spec: { strategy: { rollingUpdate: { maxSurge: 1 } } } });
  assert.equal(partial.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } });
  assert.equal(defaulted('Deployment', { spec: { strategy: { type: 'Recreate' } } }).spec.strategy, {
    type: 'Recreate',
  });
});

test('StatefulSet and DaemonSet update strategies and the StatefulSet PVC retention policy', () => {
  const sts = defaulted('StatefulSet', {
    spec: { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }] },
  });
  assert.equal(sts.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
  assert.equal(sts.spec.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
  assert.is(sts.spec.volumeClaimTemplates[0].spec.volumeMode, 'Filesystem');
  // An explicit RollingUpdate without a rollingUpdate block stays without one.
  assert.equal(defaulted('StatefulSet', { spec: { updateStrategy: { type: 'RollingUpdate' } } }).spec.updateStrategy, {
    type: 'RollingUpdate',
  });
  assert.equal(
    defaulted('DaemonSet', { spec: { updateStrategy: { rollingUpdate: { maxUnavailable: 2 } } } }).spec.updateStrategy,
    { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2, maxSurge: 0 } },
  );
});

test('Job: completions only default with parallelism, plus podReplacementPolicy, manualSelector and template labels', () => {
  const plain = defaulted('Job', {
    spec: {
      template: { metadata: { labels: { app: 'batch' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    },
  });
  assert.is(plain.spec.completions, 1);
  assert.is(plain.spec.parallelism, 1);
  assert.is(plain.spec.podReplacementPolicy, 'TerminatingOrFailed');
  assert.is(plain.spec.manualSelector, false);
  assert.equal(plain.metadata.labels, { app: 'batch' });
  const queue = defaulted('Job', { spec: { parallelism: 3, podFailurePolicy: { rules: [] } } });
  assert.is(queue.spec.completions, undefined);
  assert.is(queue.spec.podReplacementPolicy, 'Failed');
});

test('pod templates get container, probe, volume and env defaults; only Pods get requests from limits', () => {
  const template = {
    spec: {
      containers: [
        {
          name: 'c',
          image: 'app:1',
          resources: { limits: { cpu: '1' } },
          readinessProbe: { httpGet: { port: 8080 } },
          livenessProbe: { exec: { command: ['true'] }, periodSeconds: 5 },
          env: [{ name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
          ports: [{ containerPort: 80 }],
        },
      ],
      volumes: [
        { name: 'scratch' },
        { name: 'cfg', configMap: { name: 'cfg' } },
        { name: 'host', hostPath: { path: '/tmp' } },
      ],
      serviceAccount: 'legacy',
    },
  };
  const deployment = defaulted('Deployment', { spec: { template: structuredClone(template) } });
  const spec = deployment.spec.template.spec;
  assert.equal(spec.containers[0].readinessProbe, {
    httpGet: { port: 8080, path: '/', scheme: 'HTTP' },
    timeoutSeconds: 1,
    periodSeconds: 10,
    successThreshold: 1,
    failureThreshold: 3,
  });
  assert.is(spec.containers[0].livenessProbe.periodSeconds, 5);
  assert.is(spec.containers[0].env[0].valueFrom.fieldRef.apiVersion, 'v1');
  assert.is(spec.containers[0].ports[0].protocol, 'TCP');
  assert.equal(spec.volumes, [
    { name: 'scratch', emptyDir: {} },
    { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420 } },
    { name: 'host', hostPath: { path: '/tmp', type: '' } },
  ]);
  assert.is(spec.serviceAccountName, 'legacy');
  assert.is(spec.serviceAccount, 'legacy');
  assert.equal(spec.containers[0].resources, { limits: { cpu: '1' } });
  assert.is(spec.enableServiceLinks, undefined);
  const pod = defaulted('Pod', { spec: structuredClone(template.spec) });
  assert.equal(pod.spec.containers[0].resources, { limits: { cpu: '1' }, requests: { cpu: '1' } });
  assert.is(pod.spec.enableServiceLinks, true);
  // CronJob templates are pod templates too.
  const cron = defaulted('CronJob', {
    spec: { schedule: '* * * * *', jobTemplate: { spec: { template: structuredClone(template) } } },
  });
  assert.is(cron.spec.jobTemplate.spec.template.spec.restartPolicy, 'Always');
});

test('a pod keeps its own NoExecute tolerations and gets only the missing default ones', () => {
  const pod = defaulted('Pod', {
    spec: {
      containers: [],
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 },
        { key: 'gpu', operator: 'Exists' },
      ],
    },
  });
  assert.equal(pod.spec.tolerations, [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 },
    { key: 'gpu', operator: 'Exists' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ]);
  const tolerant = defaulted('Pod', { spec: { containers: [], tolerations: [{ operator: 'Exists' }] } });
  assert.equal(tolerant.spec.tolerations, [{ operator: 'Exists' }]);
});

test('Services by type: ExternalName gets no address, headless keeps None, NodePort and LoadBalancer get node ports', () => {
  const external = defaulted('Service', { spec: { type: 'ExternalName', externalName: 'example.com' } });
  assert.equal(external.spec, { type: 'ExternalName', externalName: 'example.com', sessionAffinity: 'None' });
  const headless = defaulted('Service', { spec: { clusterIP: 'None', ports: [{ port: 80 }] } });
  assert.equal(headless.spec.clusterIPs, ['None']);
  assert.equal(headless.spec.ports, [{ port: 80, protocol: 'TCP', targetPort: 80 }]);
  nextPort = 30000;
  const lb = defaulted('Service', {
    spec: {
      type: 'LoadBalancer',
      ports: [
        { name: 'http', port: 80 },
        { name: 'https', port: 443, nodePort: 31443 },
      ],
    },
  });
  assert.equal(
    lb.spec.ports.map((p: { nodePort: number }) => p.nodePort),
    [30000, 31443],
  );
  assert.is(lb.spec.externalTrafficPolicy, 'Cluster');
  assert.is(lb.spec.allocateLoadBalancerNodePorts, true);
  assert.equal(lb.spec.clusterIPs, ['10.96.0.50']);
  const sticky = defaulted('Service', { spec: { sessionAffinity: 'ClientIP' } });
  assert.equal(sticky.spec.sessionAffinityConfig, { clientIP: { timeoutSeconds: 10800 } });
});

test('a Service is defaulted as the registry leaves it before validation: clusterIPs alone allocate nothing, external IPs make only a ClusterIP Service externally accessible', () => {
  const plural = defaulted('Service', { spec: { clusterIPs: ['10.96.0.7'], ports: [{ port: 80 }] } });
  assert.is(plural.spec.clusterIP, undefined);
  assert.equal(plural.spec.clusterIPs, ['10.96.0.7']);
  const external = defaulted('Service', {
    spec: { type: 'ExternalName', externalName: 'example.com', externalIPs: ['192.0.2.1'] },
  });
  assert.is(external.spec.externalTrafficPolicy, undefined);
  const clusterIP = defaulted('Service', { spec: { externalIPs: ['192.0.2.1'], ports: [{ port: 80 }] } });
  assert.is(clusterIP.spec.externalTrafficPolicy, 'Cluster');
  assert.equal([clusterIP.spec.ipFamilyPolicy, clusterIP.spec.ipFamilies], ['SingleStack', ['IPv4']]);
  // initIPFamilyFields' special case: headless and selectorless is dual-stack, on any cluster.
  const headless = defaulted('Service', { spec: { clusterIP: 'None' } });
  assert.equal([headless.spec.ipFamilyPolicy, headless.spec.ipFamilies], ['RequireDualStack', ['IPv4', 'IPv6']]);
  const selecting = defaulted('Service', { spec: { clusterIP: 'None', selector: { app: 'db' } } });
  assert.equal([selecting.spec.ipFamilyPolicy, selecting.spec.ipFamilies], ['SingleStack', ['IPv4']]);
});

test('RBAC subjects, NetworkPolicy types, HPA v2, StorageClass, PriorityClass and volumes get their defaults', () => {
  const binding = defaulted('RoleBinding', {
    roleRef: { kind: 'Role', name: 'r' },
    subjects: [
      { kind: 'User', name: 'u' },
      { kind: 'ServiceAccount', name: 's', namespace: 'ns' },
    ],
  });
  assert.is(binding.roleRef.apiGroup, 'rbac.authorization.k8s.io');
  assert.equal(
    binding.subjects.map((s: { apiGroup: string }) => s.apiGroup),
    ['rbac.authorization.k8s.io', ''],
  );
  const policy = defaulted('NetworkPolicy', { spec: { podSelector: {}, egress: [{ ports: [{ port: 53 }] }] } });
  assert.equal(policy.spec.policyTypes, ['Ingress', 'Egress']);
  assert.is(policy.spec.egress[0].ports[0].protocol, 'TCP');
  const hpa = defaulted('HorizontalPodAutoscaler', {
    spec: { maxReplicas: 5, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } },
  });
  assert.is(hpa.spec.minReplicas, 1);
  assert.equal(hpa.spec.metrics, [
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
  ]);
  assert.equal(hpa.spec.behavior.scaleDown, {
    stabilizationWindowSeconds: 60,
    selectPolicy: 'Max',
    policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
  });
  assert.is(hpa.spec.behavior.scaleUp.policies.length, 2);
  const sc = defaulted('StorageClass', { provisioner: 'x' });
  assert.equal([sc.reclaimPolicy, sc.volumeBindingMode], ['Delete', 'Immediate']);
  assert.is(defaulted('PriorityClass', { value: 10 }).preemptionPolicy, 'PreemptLowerPriority');
  assert.is(
    defaulted('PersistentVolumeClaim', { spec: { accessModes: ['ReadWriteOnce'] } }).spec.volumeMode,
    'Filesystem',
  );
});

test.run();
