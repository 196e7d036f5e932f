// The TaintToleration filter as Karmada runs it: pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go
// calls Kubernetes' FindMatchingUntoleratedTaint (NoSchedule and NoExecute taints only) with comparison operators off,
// and each toleration is judged by corev1 Toleration.ToleratesTaint (vendor/k8s.io/api/core/v1/toleration.go), where
// an empty operator means Equal. Karmada's webhook accepts "", Exists and Equal (util/validation#validateClusterTolerations).
// The cases of taint_toleration_test.go itself are in plugins/filters.test.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Taint } from '../../src/api/cluster.ts';
import type { Placement, Toleration } from '../../src/api/policy.ts';
import { taintToleration } from '../../src/assignments/plugins/taintToleration.ts';
import { schedule } from '../../src/assignments/schedule.ts';
import { cluster, request, show } from './helpers.ts';

const gpu: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };

function fits(taints: Taint[], tolerations: Toleration[]): boolean {
  const req = request({ clusterTolerations: tolerations }, 1);
  return taintToleration.filter({ request: req, cluster: cluster('c', { taints }) }).code === 'Success';
}

test('a toleration with an empty operator compares values, as Equal does', () => {
  // A policy may spell the operator out as "" (the CRD and Karmada's webhook accept it).
  const emptyOperator = { key: 'dedicated', operator: '', value: 'gpu' } as unknown as Toleration;
  assert.ok(fits([gpu], [emptyOperator]), 'operator "" with the taint value tolerates it');
  const otherValue = { key: 'dedicated', operator: '', value: 'cpu' } as unknown as Toleration;
  assert.not.ok(fits([gpu], [otherValue]), 'operator "" with another value does not');
});

test('a policy whose toleration has an empty operator is scheduled onto the tainted cluster it tolerates', () => {
  const placement = {
    clusterAffinity: { clusterNames: ['member1'] },
    clusterTolerations: [{ key: 'dedicated', operator: '', value: 'gpu', effect: 'NoSchedule' }],
  } as unknown as Placement;
  const result = schedule(request(placement, 0), [cluster('member1', { taints: [gpu] })]);
  assert.is(result.status, 'Scheduled', result.message);
  assert.is(show(result.clusters), 'member1=0');
});

test('Lt and Gt never tolerate: comparison operators are off for cluster taints', () => {
  const numeric: Taint = { key: 'tier', value: '5', effect: 'NoSchedule' };
  for (const operator of ['Gt', 'Lt']) {
    const toleration = { key: 'tier', operator, value: operator === 'Gt' ? '1' : '9' } as unknown as Toleration;
    assert.not.ok(fits([numeric], [toleration]), operator);
  }
});

test('an empty effect in a toleration covers NoSchedule and NoExecute alike', () => {
  const taints: Taint[] = [gpu, { key: 'dedicated', value: 'gpu', effect: 'NoExecute' }];
  assert.ok(fits(taints, [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: '' }]));
  assert.ok(fits(taints, [{ key: 'dedicated', value: 'gpu' }]), 'no effect at all');
});

test('a NoExecute toleration with tolerationSeconds still lets the filter pass', () => {
  const notReady: Taint = { key: 'cluster.karmada.io/not-ready', effect: 'NoExecute' };
  assert.ok(fits([notReady], [{ key: 'cluster.karmada.io/not-ready', operator: 'Exists', tolerationSeconds: 60 }]));
});

test('an Exists toleration matches the key whatever the taint value, an Equal one only the same value', () => {
  assert.ok(fits([gpu], [{ key: 'dedicated', operator: 'Exists' }]));
  assert.not.ok(fits([gpu], [{ key: 'dedicated', operator: 'Equal' }]), 'Equal without a value wants an empty value');
  assert.ok(fits([{ key: 'dedicated', effect: 'NoSchedule' }], [{ key: 'dedicated', operator: 'Equal' }]));
});

test('every taint needs its own toleration: one covered taint does not let another through', () => {
  const taints: Taint[] = [gpu, { key: 'zone', value: 'edge', effect: 'NoExecute' }];
  assert.not.ok(fits(taints, [{ key: 'dedicated', operator: 'Exists' }]));
  assert.ok(
    fits(taints, [
      { key: 'dedicated', operator: 'Exists' },
      { key: 'zone', operator: 'Exists' },
    ]),
  );
});

test('PreferNoSchedule taints are left out of the check even when nothing tolerates them', () => {
  assert.ok(
    fits(
      [
        { key: 'soft', effect: 'PreferNoSchedule' },
        { key: 'soft2', value: 'x', effect: 'PreferNoSchedule' },
      ],
      [],
    ),
  );
});

test.run();
