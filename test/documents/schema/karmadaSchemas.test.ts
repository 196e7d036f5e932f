import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { SCHEMAS } from '../../../src/documents/schema/karmadaSchemas.ts';
import { validateAgainstSchema } from '../../../src/documents/schema/validateAgainstSchema.ts';
import { validateKarmadaRules } from '../../../src/documents/schema/validateKarmadaRules.ts';
import { isKarmadaKind, validateKarmadaDocument } from '../../../src/documents/schema/validateKarmadaDocument.ts';
import { formatPath } from '../../../src/documents/schema/formatPath.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const samplesDir = path.resolve(repoRoot, '../shared/karmada-samples');

function yamlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return yamlFiles(full);
    return /\.ya?ml$/.test(entry.name) ? [full] : [];
  });
}

test('every Karmada policy in karmada-samples validates with zero issues', () => {
  let policies = 0;
  for (const file of yamlFiles(samplesDir)) {
    for (const doc of parseAllDocuments(fs.readFileSync(file, 'utf8'))) {
      const value = doc.toJS() as { kind?: unknown } | null;
      if (!value || !isKarmadaKind(value.kind)) continue;
      policies++;
      const issues = [...validateAgainstSchema(value, SCHEMAS[value.kind]), ...validateKarmadaRules(value.kind, value)];
      assert.equal(issues, [], `${path.relative(samplesDir, file)}: ${issues.map((i) => i.message).join('; ')}`);
    }
  }
  assert.is(
    policies,
    5,
    'the samples hold 3 PropagationPolicy/ClusterPropagationPolicy and 2 OverridePolicy documents',
  );
});

const fullPropagationPolicy = {
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: {
    name: 'web',
    namespace: 'shop',
    labels: { app: 'web' },
    annotations: { 'example.com/owner': 'team-a' },
    uid: 'b1946ac9-2f0e-4c8f-9d52-3a1f6c0a1e01',
    generation: 3,
    resourceVersion: '123',
    creationTimestamp: null,
    finalizers: ['karmada.io/propagation-policy-controller'],
  },
  spec: {
    resourceSelectors: [
      { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        labelSelector: {
          matchLabels: { app: 'web' },
          matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }],
        },
      },
    ],
    association: false,
    propagateDeps: true,
    priority: 10,
    preemption: 'Never',
    dependentOverrides: ['web-op'],
    schedulerName: 'default-scheduler',
    conflictResolution: 'Overwrite',
    activationPreference: 'Lazy',
    preserveResourcesOnDeletion: true,
    suspension: { dispatching: false, dispatchingOnClusters: { clusterNames: ['member3'] } },
    schedulePriority: { priorityClassSource: 'KubePriorityClass', priorityClassName: 'high' },
    failover: {
      application: {
        decisionConditions: { tolerationSeconds: 120 },
        purgeMode: 'Gracefully',
        gracePeriodSeconds: 600,
        statePreservation: { rules: [{ aliasLabelName: 'failover.example.com/replicas', jsonPath: '{ .replicas }' }] },
      },
      cluster: {
        purgeMode: 'Directly',
        statePreservation: { rules: [{ aliasLabelName: 'ready', jsonPath: '{ .readyReplicas }' }] },
      },
    },
    placement: {
      clusterAffinities: [
        {
          affinityName: 'primary',
          clusterNames: ['member1'],
          exclude: ['member9'],
          labelSelector: { matchLabels: { env: 'prod' } },
          fieldSelector: { matchExpressions: [{ key: 'region', operator: 'In', values: ['us-east-1'] }] },
          overflowAffinities: [{ affinityName: 'burst', clusterNames: ['member2'] }],
        },
        { affinityName: 'backup', clusterNames: ['member3'] },
      ],
      clusterTolerations: [
        { key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoExecute', tolerationSeconds: 30 },
      ],
      spreadConstraints: [
        { spreadByField: 'cluster', minGroups: 1, maxGroups: 3 },
        { spreadByField: 'region', minGroups: 1 },
      ],
      replicaScheduling: {
        replicaSchedulingType: 'Divided',
        replicaDivisionPreference: 'Aggregated',
        weightPreference: {
          dynamicWeight: 'AvailableReplicas',
          staticWeightList: [{ targetCluster: { clusterNames: ['member1'] }, weight: 2 }],
        },
      },
      workloadAffinity: {
        affinity: { groupByLabelKey: 'app.example.com/group' },
        antiAffinity: { groupByLabelKey: 'app.example.com/spread' },
      },
    },
  },
};

test('a PropagationPolicy using every Karmada field validates cleanly, Lazy activation and workloadAffinity only warned about', () => {
  const refusals = (value: unknown, kind: 'PropagationPolicy' | 'ClusterPropagationPolicy') =>
    validateKarmadaDocument(kind, value).map((i) => `${i.warning ? 'warning' : 'error'} ${formatPath(i.path)}`);
  const warnings = ['warning spec.activationPreference', 'warning spec.placement.workloadAffinity'];
  assert.equal(refusals(fullPropagationPolicy, 'PropagationPolicy').sort(), warnings);
  assert.equal(
    refusals({ ...fullPropagationPolicy, kind: 'ClusterPropagationPolicy' }, 'ClusterPropagationPolicy').sort(),
    warnings,
  );
});

const fullOverridePolicy = {
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'OverridePolicy',
  metadata: { name: 'web-op', namespace: 'shop' },
  spec: {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
    overrideRules: [
      {
        targetCluster: {
          clusterNames: ['member1'],
          fieldSelector: { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['z1'] }] },
        },
        overriders: {
          plaintext: [
            { path: '/spec/replicas', operator: 'replace', value: 3 },
            { path: '/metadata/labels/x', operator: 'remove' },
          ],
          imageOverrider: [
            {
              predicate: { path: '/spec/template/spec/containers/0/image' },
              component: 'Registry',
              operator: 'replace',
              value: 'registry.example.com',
            },
          ],
          commandOverrider: [{ containerName: 'web', operator: 'add', value: ['--debug'] }],
          argsOverrider: [{ containerName: 'web', operator: 'remove', value: ['--verbose'] }],
          labelsOverrider: [{ operator: 'add', value: { env: 'prod' } }],
          annotationsOverrider: [
            { operator: 'replace', value: { 'example.com/note': 'free text, any length or characters!' } },
          ],
          fieldOverrider: [
            { fieldPath: '/data/config.json', json: [{ subPath: '/db/host', operator: 'replace', value: 'db.prod' }] },
            { fieldPath: '/data/config.yaml', yaml: [{ subPath: '/cache', operator: 'remove' }] },
          ],
        },
      },
    ],
  },
};

test('an OverridePolicy using every overrider validates cleanly', () => {
  assert.equal(validateKarmadaDocument('OverridePolicy', fullOverridePolicy), []);
  assert.equal(
    validateKarmadaDocument('ClusterOverridePolicy', {
      ...fullOverridePolicy,
      kind: 'ClusterOverridePolicy',
      metadata: { name: 'all' },
    }),
    [],
  );
});

test('the deprecated targetCluster + overriders pair is still valid on its own', () => {
  const legacy = {
    ...fullOverridePolicy,
    spec: {
      targetCluster: { clusterNames: ['member1'] },
      overriders: { labelsOverrider: [{ operator: 'add', value: { a: 'b' } }] },
    },
  };
  assert.equal(validateKarmadaDocument('OverridePolicy', legacy), []);
});

const fullCluster = {
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'member1', labels: { env: 'prod' } },
  spec: {
    id: '0a1b2c3d',
    syncMode: 'Push',
    apiEndpoint: 'https://10.0.0.1:6443',
    kubeconfigRef: { path: '~/.kube/members.yaml', context: 'member1' },
    secretRef: { namespace: 'karmada-cluster', name: 'member1' },
    impersonatorSecretRef: { namespace: 'karmada-cluster', name: 'member1-impersonator' },
    insecureSkipTLSVerification: false,
    proxyURL: 'socks5://proxy.internal:1080',
    proxyHeader: { 'X-Team': 'a' },
    provider: 'aws',
    region: 'us-east-1',
    zones: ['us-east-1a', 'us-east-1b'],
    taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule', timeAdded: '2026-01-01T00:00:00Z' }],
    resourceModels: [
      {
        grade: 0,
        ranges: [
          { name: 'cpu', min: 0, max: '4' },
          { name: 'memory', min: '0', max: '16Gi' },
        ],
      },
    ],
  },
  status: {
    kubernetesVersion: 'v1.32.4',
    apiEnablements: [{ groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] }],
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: 'ClusterReady',
        message: 'ok',
        lastTransitionTime: '2026-01-01T00:00:00Z',
        observedGeneration: 1,
      },
    ],
    nodeSummary: { totalNum: 3, readyNum: 3 },
    resourceSummary: {
      allocatable: { cpu: '8', memory: '32Gi', pods: 110 },
      allocated: { cpu: '3500m' },
      allocatableModelings: [{ grade: 0, count: 2 }],
    },
    remedyActions: ['TrafficControl'],
    someFutureField: { passes: true },
  },
};

test('a Cluster using every field (plus Flotilla kubeconfigRef and a status) validates cleanly', () => {
  assert.equal(validateKarmadaDocument('Cluster', fullCluster), []);
});

test('Cluster requires spec.syncMode, one of Push or Pull', () => {
  const missing = validateAgainstSchema({ ...fullCluster, spec: { apiEndpoint: 'https://x:6443' } }, SCHEMAS.Cluster);
  assert.equal(
    missing.map((i) => [i.code, formatPath(i.path), i.fix]),
    [['MISSING_FIELD', 'spec.syncMode', 'add spec.syncMode: one of Push, Pull']],
  );
  const wrong = validateAgainstSchema({ ...fullCluster, spec: { syncMode: 'push' } }, SCHEMAS.Cluster);
  assert.is(wrong[0]!.message, 'spec.syncMode is "push", which is not allowed; did you mean Push?');
  assert.is(wrong[0]!.fix, 'use one of: Push, Pull');
});

test('policies have no status field, and metadata only knows ObjectMeta fields', () => {
  const issues = validateAgainstSchema(
    { ...fullPropagationPolicy, status: {}, metadata: { name: 'x', lables: {} } },
    SCHEMAS.PropagationPolicy,
  );
  assert.equal(
    issues.map((i) => i.message),
    [
      'unknown field metadata.lables; did you mean labels?',
      'unknown field status; valid fields under the document root are: apiVersion, kind, metadata, spec',
    ],
  );
});

test('apiVersion, kind, metadata.name and spec are required', () => {
  const issues = validateAgainstSchema({ metadata: {} }, SCHEMAS.OverridePolicy);
  assert.equal(
    issues.map((i) => formatPath(i.path)),
    ['apiVersion', 'kind', 'spec', 'metadata.name'],
  );
  const wrongKind = validateAgainstSchema({ ...fullOverridePolicy, kind: 'OverridePolicies' }, SCHEMAS.OverridePolicy);
  assert.is(wrongKind[0]!.message, 'kind is "OverridePolicies", which is not allowed; did you mean OverridePolicy?');
});

test('typos deep in a PropagationPolicy name the full path and the intended field', () => {
  const typo = {
    ...fullPropagationPolicy,
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', nmae: 'web' }],
      placement: {
        clusterAfinity: { clusterNames: ['member1'] },
        replicaScheduling: {
          replicaSchedulingType: 'Divided',
          weightPreference: { staticWeightList: [{ targetCluster: { clusterName: ['m1'] }, weight: 1 }] },
        },
      },
      failover: { application: { decisionConditions: { tolerationSecond: 10 }, purgeMode: 'Gracefuly' } },
      propagateDeps: true,
    },
  };
  const issues = validateAgainstSchema(typo, SCHEMAS.PropagationPolicy);
  assert.equal(
    issues.map((i) => [i.message, i.fix]),
    [
      ['unknown field spec.resourceSelectors[0].nmae; did you mean name?', 'rename it to name'],
      ['unknown field spec.placement.clusterAfinity; did you mean clusterAffinity?', 'rename it to clusterAffinity'],
      [
        'unknown field spec.placement.replicaScheduling.weightPreference.staticWeightList[0].targetCluster.clusterName; did you mean clusterNames?',
        'rename it to clusterNames',
      ],
      [
        'unknown field spec.failover.application.decisionConditions.tolerationSecond; did you mean tolerationSeconds?',
        'rename it to tolerationSeconds',
      ],
      [
        'spec.failover.application.purgeMode is "Gracefuly", which is not allowed; did you mean Gracefully?',
        'use one of: Directly, Gracefully, Never',
      ],
    ],
  );
});

test('missing required fields inside policies', () => {
  const issues = validateAgainstSchema(
    {
      ...fullPropagationPolicy,
      spec: {
        resourceSelectors: [{ kind: 'Deployment' }],
        placement: {
          replicaScheduling: { weightPreference: { staticWeightList: [{ weight: 1 }] } },
          clusterAffinities: [{ clusterNames: ['a'] }],
        },
        schedulePriority: { priorityClassSource: 'KubePriorityClass' },
        failover: { application: { purgeMode: 'Never' } },
      },
    },
    SCHEMAS.PropagationPolicy,
  );
  assert.equal(
    issues.map((i) => `${i.code} ${formatPath(i.path)}`),
    [
      'MISSING_FIELD spec.resourceSelectors[0].apiVersion',
      'MISSING_FIELD spec.placement.replicaScheduling.weightPreference.staticWeightList[0].targetCluster',
      'MISSING_FIELD spec.placement.clusterAffinities[0].affinityName',
      'MISSING_FIELD spec.schedulePriority.priorityClassName',
      'MISSING_FIELD spec.failover.application.decisionConditions',
    ],
  );
  const empty = validateAgainstSchema({ ...fullPropagationPolicy, spec: {} }, SCHEMAS.PropagationPolicy);
  assert.equal(
    empty.map((i) => [i.message, i.fix]),
    [['spec.resourceSelectors is required', 'add spec.resourceSelectors with at least one entry']],
  );
});

test('enum errors across the policy kinds', () => {
  const pp = validateAgainstSchema(
    {
      ...fullPropagationPolicy,
      spec: {
        resourceSelectors: [{ apiVersion: 'v1', kind: 'Service' }],
        preemption: 'Sometimes',
        conflictResolution: 'overwrite',
        placement: {
          spreadConstraints: [{ spreadByField: 'Region' }],
          replicaScheduling: { replicaDivisionPreference: 'Weight', weightPreference: { dynamicWeight: 'Available' } },
        },
        schedulePriority: { priorityClassSource: 'PodPriorityClass', priorityClassName: 'x' },
        failover: { cluster: { purgeMode: 'Never' } },
      },
    },
    SCHEMAS.PropagationPolicy,
  );
  assert.equal(
    pp.map((i) => i.fix),
    [
      'use one of: Always, Never',
      'use one of: Abort, Overwrite',
      'use one of: cluster, region, zone, provider',
      'use one of: Aggregated, Weighted',
      'use one of: AvailableReplicas',
      'use one of: KubePriorityClass',
      'use one of: Directly, Gracefully',
    ],
  );
  const op = validateAgainstSchema(
    {
      ...fullOverridePolicy,
      spec: {
        overrideRules: [
          {
            overriders: {
              imageOverrider: [{ component: 'Registy', operator: 'set' }],
              commandOverrider: [{ containerName: 'c', operator: 'replace' }],
            },
          },
        ],
      },
    },
    SCHEMAS.OverridePolicy,
  );
  assert.equal(
    op.map((i) => i.fix),
    ['use one of: Registry, Repository, Tag', 'use one of: add, remove, replace', 'use one of: add, remove'],
  );
  assert.match(op[0]!.message, 'did you mean Registry?');
});

test('a weight of 1.5 or a negative priority out of int32 range is rejected', () => {
  const issues = validateAgainstSchema(
    {
      ...fullPropagationPolicy,
      spec: {
        resourceSelectors: [{ apiVersion: 'v1', kind: 'Service' }],
        priority: 3000000000,
        placement: {
          replicaScheduling: { weightPreference: { staticWeightList: [{ targetCluster: {}, weight: 1.5 }] } },
        },
      },
    },
    SCHEMAS.PropagationPolicy,
  );
  assert.equal(
    issues.map((i) => formatPath(i.path)),
    ['spec.priority', 'spec.placement.replicaScheduling.weightPreference.staticWeightList[0].weight'],
  );
});

test.run();
