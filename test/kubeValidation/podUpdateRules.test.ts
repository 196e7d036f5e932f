import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { podUpdateViolations } from '../../src/kubeValidation/podUpdateRules.ts';

// ValidatePodUpdate (pkg/apis/core/validation): what may change in a pod after it is created.

const pod = (spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec });
const base = {
  containers: [{ name: 'web', image: 'nginx:1', ports: [{ containerPort: 80, protocol: 'TCP' }] }],
  restartPolicy: 'Always',
  terminationGracePeriodSeconds: 30,
  tolerations: [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
};
const fields = (spec: Record<string, unknown>, before: Record<string, unknown> = base) =>
  podUpdateViolations(pod(spec), pod(before)).map((v) => `${v.field}: ${v.detail.split('\n')[0]}`);

test("a pod's images, a shorter deadline, added tolerations and another tolerationSeconds may change", () => {
  assert.equal(fields({ ...base, containers: [{ ...base.containers[0], image: 'nginx:2' }] }), []);
  assert.equal(
    fields(
      {
        ...base,
        activeDeadlineSeconds: 10,
        tolerations: [
          { ...base.tolerations[0], tolerationSeconds: 5 },
          { key: 'b', operator: 'Exists' },
        ],
      },
      { ...base, activeDeadlineSeconds: 60 },
    ),
    [],
  );
  // Go's nil and empty lists and maps are the same to Semantic.DeepEqual.
  assert.equal(fields({ ...base, volumes: [], nodeSelector: {} }), []);
});

test("any other change of a pod's spec is forbidden, with the fields that changed old then new", () => {
  const [error, ...rest] = podUpdateViolations(pod({ ...base, restartPolicy: 'Never' }), pod(base));
  assert.equal(rest, []);
  assert.is(error!.field, 'spec');
  assert.is(
    error!.detail,
    'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n' +
      '  core.PodSpec{\n- \tRestartPolicy: "Always",\n+ \tRestartPolicy: "Never",\n  }',
  );
  const ports = { ...base, containers: [{ ...base.containers[0], image: 'nginx:2', ports: [{ containerPort: 81 }] }] };
  assert.equal(fields(ports), [
    'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
  ]);
  assert.equal(fields({ ...base, nodeName: 'node-2' }, { ...base, nodeName: 'node-1' }).length, 1);
});

test('containers may not be added or removed, and nothing else is said then', () => {
  assert.equal(
    fields({ ...base, containers: [...base.containers, { name: 'side', image: 'busybox' }], restartPolicy: 'Never' }),
    ['spec.containers: Forbidden: pod updates may not add or remove containers'],
  );
  assert.equal(fields({ ...base, initContainers: [{ name: 'init', image: 'busybox' }] }), [
    'spec.initContainers: Forbidden: pod updates may not add or remove containers',
  ]);
});

test('activeDeadlineSeconds may only be set or shortened, tolerations only added, scheduling gates only removed', () => {
  assert.equal(fields({ ...base, activeDeadlineSeconds: 90 }, { ...base, activeDeadlineSeconds: 60 }), [
    'spec.activeDeadlineSeconds: Invalid value: 90: must be less than or equal to previous value',
  ]);
  assert.equal(fields(base, { ...base, activeDeadlineSeconds: 60 }), [
    'spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value',
  ]);
  assert.equal(fields({ ...base, tolerations: [{ key: 'a', operator: 'Exists', effect: 'NoSchedule' }] }), [
    'spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
  ]);
  const gated = { ...base, schedulingGates: [{ name: 'one' }] };
  assert.equal(fields({ ...base, schedulingGates: [] }, gated), []);
  assert.equal(fields({ ...base, schedulingGates: [{ name: 'one' }, { name: 'two' }] }, gated), [
    "spec.schedulingGates[1].name: Forbidden: only deletion is allowed, but found new scheduling gate 'two'",
  ]);
});

test('a gated pod may gain node selector entries and change its node affinity, but not drop or change an entry', () => {
  const gated = {
    ...base,
    schedulingGates: [{ name: 'one' }],
    nodeSelector: { zone: 'a' },
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } },
  };
  const affinity = {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] }],
      },
    },
  };
  assert.equal(fields({ ...gated, nodeSelector: { zone: 'a', disk: 'ssd' }, affinity }, gated), []);
  assert.equal(fields({ ...gated, nodeSelector: { zone: 'b' } }, gated), [
    'spec.nodeSelector: Invalid value: map[string]string{"zone":"b"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)',
  ]);
  // Not gated: the node selector is as fixed as the rest.
  assert.equal(fields({ ...base, nodeSelector: { disk: 'ssd' } }).length, 1);
});

test('terminationGracePeriodSeconds may go from a negative value to 1, and to nothing else', () => {
  assert.equal(
    fields({ ...base, terminationGracePeriodSeconds: 1 }, { ...base, terminationGracePeriodSeconds: -5 }),
    [],
  );
  assert.equal(
    fields({ ...base, terminationGracePeriodSeconds: 2 }, { ...base, terminationGracePeriodSeconds: -5 }).length,
    1,
  );
  assert.equal(fields({ ...base, terminationGracePeriodSeconds: 10 }).length, 1);
});

test.run();
