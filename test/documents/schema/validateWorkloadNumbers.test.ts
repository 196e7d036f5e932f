import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyDocuments } from '../../../src/documents/classifyDocuments.ts';
import { parseDocuments } from '../../../src/documents/parseDocuments.ts';
import { validateWorkloadNumbers } from '../../../src/documents/schema/validateWorkloadNumbers.ts';
import { validateKarmadaDocument } from '../../../src/documents/schema/validateKarmadaDocument.ts';
import { validateRebalancer } from '../../../src/documents/schema/validateExtensionKinds.ts';

const deployment = (replicas: unknown) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: { replicas },
});

test('replica counts up to int32 are accepted, as Kubernetes accepts them', () => {
  assert.equal(validateWorkloadNumbers(deployment(2147483647)), []);
  assert.equal(validateWorkloadNumbers(deployment(0)), []);
  assert.equal(validateWorkloadNumbers(deployment(null)), []);
  assert.equal(validateWorkloadNumbers({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } }), []);
  assert.equal(
    validateWorkloadNumbers({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, spec: { replicas: 1e12 } }),
    [],
  );
});

test('a replica count beyond int32, negative or not whole is a problem at the field, with a fix', () => {
  const [above] = validateWorkloadNumbers(deployment(2147483648));
  assert.equal(above?.path, ['spec', 'replicas']);
  assert.is(above?.code, 'INVALID_VALUE');
  assert.match(above?.message ?? '', /spec\.replicas is 2147483648; it must be at most 2147483647/);
  assert.match(above?.fix ?? '', /2147483647 or less/);
  assert.match(validateWorkloadNumbers(deployment(1e12))[0]?.message ?? '', /at most 2147483647/);
  assert.match(validateWorkloadNumbers(deployment(-1))[0]?.message ?? '', /at least 0/);
  assert.match(validateWorkloadNumbers(deployment(2.5))[0]?.message ?? '', /whole number/);
  assert.match(validateWorkloadNumbers(deployment('3'))[0]?.fix ?? '', /remove the quotes/);
});

test('every replica field Flotilla reads is bounded: StatefulSet, ReplicaSet, Job parallelism and completions', () => {
  for (const kind of ['StatefulSet', 'ReplicaSet']) {
    assert.is(validateWorkloadNumbers({ apiVersion: 'apps/v1', kind, spec: { replicas: 2 ** 31 } }).length, 1, kind);
  }
  const job = validateWorkloadNumbers({
    apiVersion: 'batch/v1',
    kind: 'Job',
    spec: { parallelism: 2 ** 40, completions: 2 ** 33 },
  });
  assert.equal(job.map((i) => i.path.join('.')).sort(), ['spec.completions', 'spec.parallelism']);
});

test('a template with replicas beyond int32 is reported at its file and line and held, not scheduled', () => {
  const text = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1000000000000\n';
  const { documents, problems } = parseDocuments('templates/web.yaml', new TextEncoder().encode(text));
  const out = classifyDocuments('templates/web.yaml', documents, problems);
  assert.is(out.templates.length, 0);
  assert.equal(out.broken, [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'default' }]);
  const [problem] = out.problems;
  assert.is(problem?.file, 'templates/web.yaml');
  assert.is(problem?.line, 6);
  assert.is(problem?.code, 'INVALID_VALUE');
});

test('policy weights and group counts beyond what a number holds exactly are refused', () => {
  const policy = (weight: number, maxGroups: number) => ({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: 'p' },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
      placement: {
        spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1, maxGroups }],
        replicaScheduling: {
          replicaSchedulingType: 'Divided',
          replicaDivisionPreference: 'Weighted',
          weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['a'] }, weight }] },
        },
      },
    },
  });
  assert.equal(validateKarmadaDocument('PropagationPolicy', policy(2147483647, 3)), []);
  const issues = validateKarmadaDocument('PropagationPolicy', policy(1e20, 1e20));
  assert.equal(issues.map((i) => i.path.slice(-1)[0]).sort(), ['maxGroups', 'weight']);
  assert.ok(
    issues.every((i) => /at most 9007199254740991/.test(i.message)),
    JSON.stringify(issues),
  );
});

test('the rest of the integer family is bounded too: tolerationSeconds, a rebalancer ttl (int32)', () => {
  const policy = {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: 'p' },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
      placement: {
        clusterTolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 1e300 }],
      },
    },
  };
  assert.match(
    validateKarmadaDocument('PropagationPolicy', policy)[0]?.message ?? '',
    /tolerationSeconds is 1e\+300; it must be at most 9007199254740991/,
  );
  const rebalancer = (ttl: number) => ({
    apiVersion: 'apps.karmada.io/v1alpha1',
    kind: 'WorkloadRebalancer',
    metadata: { name: 'r' },
    spec: { workloads: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }], ttlSecondsAfterFinished: ttl },
  });
  assert.equal(validateRebalancer(rebalancer(2147483647)), []);
  assert.match(validateRebalancer(rebalancer(2147483648))[0]?.message ?? '', /32-bit whole number/);
});

test('a WorkloadRebalancer is held to its CRD only: a negative time to live and a workload named "" are admitted', () => {
  // apps.karmada.io_workloadrebalancers.yaml: ttlSecondsAfterFinished is an int32 with no minimum, a workload's
  // apiVersion, kind and name are required keys of type string; no webhook checks a WorkloadRebalancer.
  const rebalancer = (spec: Record<string, unknown>) => ({
    apiVersion: 'apps.karmada.io/v1alpha1',
    kind: 'WorkloadRebalancer',
    metadata: { name: 'r' },
    spec,
  });
  assert.equal(
    validateRebalancer(
      rebalancer({ workloads: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: '' }], ttlSecondsAfterFinished: -5 }),
    ),
    [],
  );
  assert.equal(
    validateRebalancer(rebalancer({ workloads: [{ apiVersion: 'apps/v1', kind: 'Deployment' }] })).map(
      (i) => i.message,
    ),
    ['spec.workloads[0] has no name'],
  );
});

test.run();
