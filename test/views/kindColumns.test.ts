// The columns `flotilla get <kind>` prints for a template, cell by cell as kubectl's printers (pkg/printers/
// internalversion/printers.go) print the same object with the same status.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { kindColumns } from '../../src/views/kindColumns.ts';

type Obj = Record<string, unknown>;
const NOW = new Date('2026-02-01T12:00:00Z');
const row = (kind: string, m: Obj, s?: Obj, wide = false) => {
  const cols = kindColumns(kind);
  return [...cols.cells(m, s, { wide, now: NOW }), ...(wide ? cols.wideCells(m, s, { wide, now: NOW }) : [])];
};
const podTemplate = { template: { spec: { containers: [{ name: 'app', image: 'app:1' }] } } };

test('Service columns: each type is reached at what getServiceExternalIP says, the selector sorted', () => {
  const svc = (spec: Obj, status?: Obj) => row('Service', { spec }, status, true);
  assert.equal(svc({ selector: { z: '1', app: 'web' }, ports: [{ port: 80 }] }), [
    'ClusterIP',
    '<none>',
    '<none>',
    '80/TCP',
    'app=web,z=1',
  ]);
  assert.equal(svc({ type: 'ExternalName', externalName: 'db.example.com' }), [
    'ExternalName',
    '<none>',
    'db.example.com',
    '<none>',
    '<none>',
  ]);
  assert.equal(
    svc({
      type: 'NodePort',
      clusterIPs: ['10.0.0.9'],
      externalIPs: ['1.2.3.4'],
      ports: [{ port: 80, nodePort: 30080 }],
    }).slice(0, 4),
    ['NodePort', '10.0.0.9', '1.2.3.4', '80:30080/TCP'],
  );
  assert.is(svc({ type: 'LoadBalancer' })[2], '<pending>');
  const balanced = {
    loadBalancer: { ingress: [{ hostname: 'lb.example.com' }, { ip: '9.9.9.9' }, { ip: '9.9.9.9' }] },
  };
  assert.is(svc({ type: 'LoadBalancer', externalIPs: ['1.2.3.4'] }, balanced)[2], '9.9.9.9,lb.example.com,1.2.3.4');
  // Not clipped without -o wide either: kubectl reads a Table the API server generates wide (its TableConvertor's
  // GenerateOptions{Wide: true}), so the 16-character clip of a client-side printer never applies.
  assert.is(row('Service', { spec: { type: 'LoadBalancer' } }, balanced)[2], '9.9.9.9,lb.example.com');
  assert.is(svc({ type: 'Other' })[2], '<unknown>');
});

test('Deployment and DaemonSet selectors print as metav1.FormatLabelSelector and labels.FormatLabels do', () => {
  const selector = {
    matchLabels: { tier: 'front', app: 'web' },
    matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }],
  };
  assert.is(
    row('Deployment', { spec: { selector, ...podTemplate } }, undefined, true)[5],
    'app=web,env in (dev,prod),tier=front',
  );
  const ds = row(
    'DaemonSet',
    {
      spec: {
        selector: { matchLabels: { b: '2', a: '1' } },
        template: { spec: { nodeSelector: { zz: 'x', 'kubernetes.io/os': 'linux' }, containers: [] } },
      },
    },
    undefined,
    true,
  );
  assert.is(ds[5], 'kubernetes.io/os=linux,zz=x');
  assert.is(ds[8], 'a=1,b=2');
});

test('Job columns: STATUS from its conditions, COMPLETIONS from completions or parallelism, DURATION from its start', () => {
  const job = (spec: Obj, status?: Obj) => row('Job', { spec: { ...spec, ...podTemplate } }, status);
  assert.equal(job({ parallelism: 3 }), ['Running', '0/1 of 3', '']);
  assert.equal(job({}, { succeeded: 1 }), ['Running', '1/1', '']);
  assert.equal(
    job(
      { completions: 5 },
      {
        succeeded: 5,
        startTime: '2026-02-01T11:00:00Z',
        completionTime: '2026-02-01T11:03:10Z',
        conditions: [{ type: 'Complete', status: 'True' }],
      },
    ),
    ['Complete', '5/5', '3m10s'],
  );
  assert.equal(job({}, { startTime: '2026-02-01T09:00:00Z', conditions: [{ type: 'Failed', status: 'True' }] }), [
    'Failed',
    '0/1',
    '3h',
  ]);
  assert.is(job({}, { conditions: [{ type: 'Suspended', status: 'True' }] })[0], 'Suspended');
  assert.equal(kindColumns('Job').headers, ['STATUS', 'COMPLETIONS', 'DURATION']);
});

test('CronJob, Ingress and PodDisruptionBudget have their kubectl columns', () => {
  const cronJob = kindColumns('CronJob');
  assert.equal(cronJob.headers, ['SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE']);
  assert.equal(row('CronJob', { spec: { schedule: '0 2 * * *', jobTemplate: { spec: podTemplate } } }), [
    '0 2 * * *',
    '<none>',
    'False',
    '0',
    '<none>',
  ]);
  assert.equal(
    row(
      'CronJob',
      { spec: { schedule: '@hourly', timeZone: 'Etc/UTC', suspend: true } },
      { active: [{ name: 'j' }], lastScheduleTime: '2026-02-01T11:55:00Z' },
    ),
    ['@hourly', 'Etc/UTC', 'True', '1', '5m'],
  );
  assert.equal(kindColumns('Ingress').headers, ['CLASS', 'HOSTS', 'ADDRESS', 'PORTS']);
  const rules = [{ host: 'a' }, { host: 'b' }, {}, { host: 'c' }, { host: 'd' }];
  assert.equal(
    row(
      'Ingress',
      { spec: { ingressClassName: 'nginx', rules, tls: [{}] } },
      { loadBalancer: { ingress: [{ ip: '5.6.7.8' }] } },
    ),
    ['nginx', 'a,b,c + 2 more...', '5.6.7.8', '80, 443'],
  );
  assert.equal(row('Ingress', { spec: { rules: [{}] } }), ['<none>', '*', '', '80']);
  assert.equal(kindColumns('PodDisruptionBudget').headers, ['MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS']);
  assert.equal(row('PodDisruptionBudget', { spec: { maxUnavailable: '25%' } }, { disruptionsAllowed: 2 }), [
    'N/A',
    '25%',
    '2',
  ]);
});

const headers = (kind: string, wide = false) => {
  const cols = kindColumns(kind);
  const at = cols.ageIndex ?? cols.headers.length;
  return [
    'NAME',
    ...cols.headers.slice(0, at),
    cols.ageHeader ?? 'AGE',
    ...cols.headers.slice(at),
    ...(wide ? cols.wideHeaders : []),
  ];
};

test("kinds kubectl prints with their own columns beyond the common workloads: the API server's Table columns, over the template as it stores it", () => {
  assert.equal(headers('ReplicationController', true), [
    'NAME',
    'DESIRED',
    'CURRENT',
    'READY',
    'AGE',
    'CONTAINERS',
    'IMAGES',
    'SELECTOR',
  ]);
  // The API server defaults the replica count to 1; the selector is a plain map.
  assert.equal(
    row('ReplicationController', { spec: { selector: { app: 'web' }, ...podTemplate } }, { replicas: 1 }, true),
    ['1', '1', '0', 'app', 'app:1', 'app=web'],
  );
  assert.equal(headers('PersistentVolume'), [
    'NAME',
    'CAPACITY',
    'ACCESS MODES',
    'RECLAIM POLICY',
    'STATUS',
    'CLAIM',
    'STORAGECLASS',
    'VOLUMEATTRIBUTESCLASS',
    'REASON',
    'AGE',
  ]);
  // A volume a user made: Retain and Pending as the API server defaults them, until its status says more.
  assert.equal(row('PersistentVolume', { spec: { capacity: { storage: '1024Mi' }, accessModes: ['ReadOnlyMany'] } }), [
    '1Gi',
    'ROX',
    'Retain',
    'Pending',
    '',
    '',
    '<unset>',
    '',
  ]);
  assert.equal(headers('PriorityClass', true), ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY']);
  assert.equal(row('PriorityClass', { value: 1000000000 }, undefined, true), [
    '1000000000',
    'false',
    'PreemptLowerPriority',
  ]);
  // A ResourceQuota's AGE comes second, before what it holds.
  assert.equal(headers('ResourceQuota'), ['NAME', 'AGE', 'REQUEST', 'LIMIT']);
  assert.equal(row('ResourceQuota', { spec: { hard: { pods: '10', 'limits.cpu': '4' } } }), [
    'pods: 0/10',
    'limits.cpu: 0/4',
  ]);
  assert.equal(headers('Pod'), ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
  assert.equal(headers('IngressClass'), ['NAME', 'CONTROLLER', 'PARAMETERS', 'AGE']);
});

test('HorizontalPodAutoscaler columns: REFERENCE, TARGETS, MINPODS, MAXPODS and REPLICAS as the API server defaults them', () => {
  assert.equal(headers('HorizontalPodAutoscaler'), [
    'NAME',
    'REFERENCE',
    'TARGETS',
    'MINPODS',
    'MAXPODS',
    'REPLICAS',
    'AGE',
  ]);
  const ref = { kind: 'Deployment', name: 'web' };
  // autoscaling/v2 defaults minReplicas to 1 and, with no metric, a CPU utilization target of 80%.
  assert.equal(
    row('HorizontalPodAutoscaler', { apiVersion: 'autoscaling/v2', spec: { scaleTargetRef: ref, maxReplicas: 5 } }),
    ['Deployment/web', 'cpu: <unknown>/80%', '1', '5', '0'],
  );
  const memory = {
    type: 'Resource',
    resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } },
  };
  assert.equal(
    row(
      'HorizontalPodAutoscaler',
      {
        apiVersion: 'autoscaling/v2',
        spec: { scaleTargetRef: ref, minReplicas: 2, maxReplicas: 10, metrics: [memory] },
      },
      {
        currentReplicas: 3,
        currentMetrics: [{ type: 'Resource', resource: { name: 'memory', current: { averageValue: '512Mi' } } }],
      },
    ),
    ['Deployment/web', 'memory: 512Mi/1Gi', '2', '10', '3'],
  );
  // autoscaling/v1's CPU percentages are the Resource metric the API server converts them to.
  assert.equal(
    row(
      'HorizontalPodAutoscaler',
      {
        apiVersion: 'autoscaling/v1',
        spec: { scaleTargetRef: ref, maxReplicas: 4, targetCPUUtilizationPercentage: 60 },
      },
      { currentReplicas: 2, currentCPUUtilizationPercentage: 45 },
    ),
    ['Deployment/web', 'cpu: 45%/60%', '1', '4', '2'],
  );
});

test('PersistentVolumeClaim columns: a bound claim shows its capacity and access modes, the class annotation wins', () => {
  assert.equal(headers('PersistentVolumeClaim', true), [
    'NAME',
    'STATUS',
    'VOLUME',
    'CAPACITY',
    'ACCESS MODES',
    'STORAGECLASS',
    'VOLUMEATTRIBUTESCLASS',
    'AGE',
    'VOLUMEMODE',
  ]);
  const claim = { spec: { storageClassName: 'fast', resources: { requests: { storage: '1Gi' } } } };
  // The API server defaults the phase to Pending and the volume mode to Filesystem.
  assert.equal(row('PersistentVolumeClaim', claim, undefined, true), [
    'Pending',
    '',
    '',
    '',
    'fast',
    '<unset>',
    'Filesystem',
  ]);
  assert.equal(
    row(
      'PersistentVolumeClaim',
      {
        metadata: { annotations: { 'volume.beta.kubernetes.io/storage-class': 'legacy' } },
        spec: { ...claim.spec, volumeName: 'pv-1', volumeAttributesClassName: 'gold', volumeMode: 'Block' },
      },
      {
        phase: 'Bound',
        capacity: { storage: '1024Mi' },
        accessModes: ['ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOnce'],
      },
      true,
    ),
    ['Bound', 'pv-1', '1Gi', 'RWO,RWX', 'legacy', 'gold', 'Block'],
  );
  // Without a volume the claim's status says nothing of capacity or modes.
  assert.equal(
    row('PersistentVolumeClaim', claim, {
      phase: 'Lost',
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
    }).slice(0, 4),
    ['Lost', '', '', ''],
  );
});

test('ReplicaSet, NetworkPolicy and ServiceAccount columns', () => {
  assert.equal(headers('ReplicaSet', true), [
    'NAME',
    'DESIRED',
    'CURRENT',
    'READY',
    'AGE',
    'CONTAINERS',
    'IMAGES',
    'SELECTOR',
  ]);
  assert.equal(
    row('ReplicaSet', { spec: { selector: { matchLabels: { app: 'web' } }, ...podTemplate } }, { replicas: 1 }, true),
    ['1', '1', '0', 'app', 'app:1', 'app=web'],
  );
  assert.equal(headers('NetworkPolicy'), ['NAME', 'POD-SELECTOR', 'AGE']);
  assert.equal(row('NetworkPolicy', { spec: { podSelector: {} } }), ['<none>']);
  assert.equal(
    row('NetworkPolicy', { spec: { podSelector: { matchExpressions: [{ key: 'role', operator: 'Exists' }] } } }),
    ['role'],
  );
  assert.equal(headers('ServiceAccount'), ['NAME', 'SECRETS', 'AGE']);
  assert.equal(row('ServiceAccount', { secrets: [{ name: 'a' }, { name: 'b' }] }), ['2']);
  assert.equal(row('ServiceAccount', {}), ['0']);
});

test('RoleBinding and ClusterRoleBinding show ROLE, and with -o wide their subjects by kind', () => {
  for (const kind of ['RoleBinding', 'ClusterRoleBinding'])
    assert.equal(headers(kind, true), ['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']);
  const binding = {
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [
      { kind: 'User', name: 'alice' },
      { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
      { kind: 'Group', name: 'devs' },
      { kind: 'User', name: 'bob' },
    ],
  };
  assert.equal(row('RoleBinding', binding, undefined, true), ['ClusterRole/view', 'alice, bob', 'devs', 'ci/builder']);
  assert.equal(row('ClusterRoleBinding', { roleRef: binding.roleRef }, undefined, true), [
    'ClusterRole/view',
    '',
    '',
    '',
  ]);
});

test('StorageClass columns: the API defaults, and a default class marked in NAME by either annotation', () => {
  assert.equal(headers('StorageClass'), [
    'NAME',
    'PROVISIONER',
    'RECLAIMPOLICY',
    'VOLUMEBINDINGMODE',
    'ALLOWVOLUMEEXPANSION',
    'AGE',
  ]);
  const cols = kindColumns('StorageClass');
  assert.equal(row('StorageClass', { provisioner: 'ebs.csi.aws.com' }), [
    'ebs.csi.aws.com',
    'Delete',
    'Immediate',
    'false',
  ]);
  assert.equal(
    row('StorageClass', {
      provisioner: 'p',
      reclaimPolicy: 'Retain',
      volumeBindingMode: 'WaitForFirstConsumer',
      allowVolumeExpansion: true,
    }),
    ['p', 'Retain', 'WaitForFirstConsumer', 'true'],
  );
  const marked = (annotations: Record<string, string>) => cols.name?.({ metadata: { annotations } }, 'gp3');
  assert.is(marked({ 'storageclass.kubernetes.io/is-default-class': 'true' }), 'gp3 (default)');
  assert.is(marked({ 'storageclass.beta.kubernetes.io/is-default-class': 'true' }), 'gp3 (default)');
  assert.is(marked({ 'storageclass.kubernetes.io/is-default-class': 'false' }), 'gp3');
});

test('Role, ClusterRole and CustomResourceDefinition print CREATED AT where others print AGE', () => {
  assert.equal(headers('Role'), ['NAME', 'CREATED AT']);
  assert.equal(headers('ClusterRole', true), ['NAME', 'CREATED AT']);
  assert.equal(headers('CustomResourceDefinition', true), [
    'NAME',
    'SCOPE',
    'VERSIONS',
    'CREATED AT',
    'GROUP',
    'KIND',
    'SHORTNAMES',
    'ESTABLISHED',
  ]);
  const crd = {
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { kind: 'Widget', plural: 'widgets', shortNames: ['wg', 'wdg'] },
      versions: [
        { name: 'v2', served: true, storage: true },
        { name: 'v1beta1', served: false, storage: false },
        { name: 'v1', served: true, storage: false },
      ],
    },
  };
  // Served versions only, sorted, the stored one marked; established from the status's condition.
  assert.equal(row('CustomResourceDefinition', crd, undefined, true), [
    'Namespaced',
    'v1,v2(storage)',
    'example.com',
    'Widget',
    'wg,wdg',
    'false',
  ]);
  assert.is(
    row('CustomResourceDefinition', crd, { conditions: [{ type: 'Established', status: 'True' }] }, true)[5],
    'true',
  );
});

test('a custom kind named like an Object member prints NAME and AGE, as any kind without columns', () => {
  for (const kind of ['toString', 'constructor', '__proto__', 'hasOwnProperty'])
    assert.equal(headers(kind), ['NAME', 'AGE'], kind);
});

test.run();
