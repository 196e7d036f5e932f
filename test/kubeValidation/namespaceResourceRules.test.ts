// PersistentVolumeClaims, Namespaces, LimitRanges and ResourceQuotas kube-apiserver 1.32 refuses
// (pkg/apis/core/validation) are reported at their field in its words; the documentation's examples, with the
// fields the API server defaults left unset, are accepted.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { builtinKindViolations } from '../../src/kubeValidation/builtinKindRules.ts';

const found = (kind: string, object: Record<string, unknown>) =>
  builtinKindViolations('', kind, { metadata: { name: 'x' }, ...object }).map((v) => `${v.field}: ${v.detail}`);
const claim = (spec: Record<string, unknown>) => found('PersistentVolumeClaim', { spec });
const limits = (...items: unknown[]) => found('LimitRange', { spec: { limits: items } });
const quota = (spec: Record<string, unknown>) => found('ResourceQuota', { spec });

test('a claim with a snapshot, a populator or a claim as its source, or none, is accepted', () => {
  const base = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } };
  assert.equal(claim(base), []);
  assert.equal(
    claim({ ...base, dataSource: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 's' } }),
    [],
  );
  assert.equal(
    claim({ ...base, volumeMode: 'Block', dataSourceRef: { apiGroup: 'x.example.com', kind: 'P', name: 'p' } }),
    [],
  );
  assert.equal(
    claim({ ...base, dataSource: { kind: 'PersistentVolumeClaim', name: 'src' }, storageClassName: '' }),
    [],
  );
  // A dataSourceRef to another namespace is dropped while CrossNamespaceVolumeDataSource is off.
  assert.equal(claim({ ...base, dataSourceRef: { kind: 'Other', name: 's', namespace: 'other' } }), []);
});

test('a claim: access modes and storage are required, and each field holds to its enum and format', () => {
  assert.equal(claim({}), [
    'spec.accessModes: Required value: at least 1 access mode is required',
    'spec.resources[storage]: Required value',
  ]);
  assert.equal(
    claim({
      accessModes: ['ReadWriteOncePod', 'RWO', 'ReadOnlyMany'],
      resources: { requests: { storage: '0' } },
      storageClassName: 'Fast',
      volumeMode: 'Raw',
    }),
    [
      'spec.accessModes: Unsupported value: "RWO": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
      'spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes',
      'spec.resources[storage]: Invalid value: "0": must be greater than zero',
      `spec.storageClassName: Invalid value: "Fast": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      'spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"',
    ],
  );
});

test('a claim data source: checked as given and as mirrored into dataSourceRef, and both must agree', () => {
  const base = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } };
  assert.equal(claim({ ...base, dataSource: { kind: 'VolumeSnapshot', name: 's' } }), [
    `spec.dataSource: Invalid value: "VolumeSnapshot": must be 'PersistentVolumeClaim' when referencing the default apiGroup`,
    `spec.dataSourceRef: Invalid value: "VolumeSnapshot": must be 'PersistentVolumeClaim' when referencing the default apiGroup`,
  ]);
  assert.equal(
    claim({
      ...base,
      dataSource: { kind: 'PersistentVolumeClaim', name: 'a' },
      dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'b' },
    }),
    ['spec: Invalid value: spec.dataSource: must match dataSourceRef'],
  );
});

test('a Namespace finalizer is a standard one or a qualified name', () => {
  assert.equal(found('Namespace', { spec: { finalizers: ['kubernetes', 'example.com/cleanup'] } }), []);
  assert.equal(found('Namespace', { spec: { finalizers: ['cleanup'] } }), [
    'spec.finalizers: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
  ]);
});

test('the documentation LimitRanges are accepted, their Container defaults filled from max, default and min', () => {
  assert.equal(
    limits({
      type: 'Container',
      max: { cpu: '800m', memory: '1Gi' },
      min: { cpu: '100m', memory: '99Mi' },
      default: { cpu: '700m', memory: '900Mi' },
      defaultRequest: { cpu: '110m', memory: '111Mi' },
    }),
    [],
  );
  assert.equal(limits({ type: 'Container', max: { cpu: '800m' }, min: { cpu: '200m' } }), []);
  assert.equal(limits({ type: 'Container', default: { memory: '512Mi' }, defaultRequest: { memory: '256Mi' } }), []);
  assert.equal(
    limits({ type: 'Pod', maxLimitRequestRatio: { memory: 2 } }, { type: 'Container', max: { 'nvidia.com/gpu': 2 } }),
    [],
  );
  assert.equal(limits({ type: 'PersistentVolumeClaim', max: { storage: '2Gi' }, min: { storage: '1Gi' } }), []);
});

test('a LimitRange: min, defaults and max in order (defaults included), ratios, types and resource names', () => {
  assert.equal(
    limits(
      { type: 'Container', max: { cpu: '1' }, min: { cpu: '2' }, maxLimitRequestRatio: { cpu: '0.5' } },
      { type: 'Container', default: { memory: '1Gi' }, defaultRequest: { memory: '2Gi', storage: '1Gi' } },
      {
        type: 'Pod',
        default: { cpu: 1 },
        min: { memory: '1Gi' },
        max: { memory: '4Gi' },
        maxLimitRequestRatio: { memory: 8 },
      },
      { type: 'PersistentVolumeClaim' },
      { type: 'Node' },
    ),
    [
      'spec.limits[0].min[cpu]: Invalid value: 2: min value 2 is greater than max value 1',
      'spec.limits[0].defaultRequest[cpu]: Invalid value: 1: min value 2 is greater than default request value 1',
      'spec.limits[0].default[cpu]: Invalid value: 2: min value 2 is greater than default value 1',
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: 500m: ratio 500m is less than 1',
      'spec.limits[1].type: Duplicate value: "Container"',
      'spec.limits[1].defaultRequest[storage]: Invalid value: "storage": must be a standard resource for containers',
      'spec.limits[1].defaultRequest[memory]: Invalid value: 2Gi: default request value 2Gi is greater than default limit value 1Gi',
      "spec.limits[2].default: Forbidden: may not be specified when `type` is 'Pod'",
      'spec.limits[2].maxLimitRequestRatio[memory]: Invalid value: 8: ratio 8 is greater than max/min = 4.000000',
      'spec.limits[3].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
      'spec.limits[4].type: Invalid value: "Node": must be a standard limit type or fully qualified',
    ],
  );
});

test('the documentation ResourceQuotas are accepted: object counts, extended resources, priority-class scopes', () => {
  assert.equal(
    quota({ hard: { persistentvolumeclaims: '1', 'services.loadbalancers': '2', 'services.nodeports': '0' } }),
    [],
  );
  assert.equal(
    quota({
      hard: {
        'requests.cpu': '1',
        'limits.memory': '2Gi',
        'requests.nvidia.com/gpu': 4,
        'count/deployments.apps': 5,
        'gold.storageclass.storage.k8s.io/requests.storage': '500Gi',
        'hugepages-2Mi': '1Gi',
      },
    }),
    [],
  );
  assert.equal(
    quota({
      hard: { cpu: '1000', memory: '200Gi', pods: '10' },
      scopeSelector: { matchExpressions: [{ operator: 'In', scopeName: 'PriorityClass', values: ['high'] }] },
    }),
    [],
  );
  assert.equal(quota({ hard: { pods: '10' }, scopes: ['BestEffort', 'NotTerminating'] }), []);
});

test('a ResourceQuota: resource names, whole counts, non-negative amounts, scopes and the scope selector', () => {
  assert.equal(quota({ hard: { pods: '1.5', storage: '1Gi', 'requests.cpu': '-1' } }), [
    'spec.hard[pods]: Invalid value: 1500m: must be an integer',
    'spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota',
    'spec.hard[requests.cpu]: Invalid value: "-1": must be greater than or equal to 0',
  ]);
  assert.equal(quota({ hard: { 'requests.cpu': '1' }, scopes: ['BestEffort', 'NotBestEffort'] }), [
    'spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort"}: unsupported scope applied to resource',
    'spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort"}: conflicting scopes',
  ]);
  assert.equal(
    quota({
      hard: { pods: '10' },
      scopeSelector: {
        matchExpressions: [
          { operator: 'In', scopeName: 'Terminating', values: ['x'] },
          { operator: 'In', scopeName: 'PriorityClass' },
          { operator: 'Equals', scopeName: 'Namespace' },
        ],
      },
    }),
    [
      'spec.scopeSelector.matchExpressions.operator: Invalid value: "In": must be \'Exists\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity',
      "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
      'spec.scopeSelector.matchExpressions.scopeName: Invalid value: "Namespace": unsupported scope',
      'spec.scopeSelector.matchExpressions.operator: Invalid value: "Equals": not a valid selector operator',
    ],
  );
});

test.run();
