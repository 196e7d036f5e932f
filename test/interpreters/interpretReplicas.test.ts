// InterpretReplica and ReviseReplica read exactly as Karmada's native interpreter reads a template
// (cases after default/native/replica_test.go and revisereplica_test.go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { interpretReplicas } from '../../src/interpreters/interpretReplicas.ts';
import { podRequests, podTemplateRequests } from '../../src/interpreters/podRequests.ts';
import { reviseReplicas } from '../../src/interpreters/reviseReplicas.ts';

const job = (spec: Record<string, unknown>) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  spec: { template: { spec: { containers: [] } }, ...spec },
});

test('a Job counts parallelism capped by completions; without parallelism it is 0, as Karmada reads a nil pointer', () => {
  assert.is(interpretReplicas(job({})).replicas, 0);
  assert.is(interpretReplicas(job({ completions: 3 })).replicas, 0);
  assert.is(interpretReplicas(job({ parallelism: 5 })).replicas, 5);
  assert.is(interpretReplicas(job({ parallelism: 5, completions: 3 })).replicas, 3);
  assert.is(interpretReplicas(job({ parallelism: 2, completions: 3 })).replicas, 2);
});

test('Deployment, StatefulSet and ReplicaSet without spec.replicas are 0; a Pod is 1; other kinds have no replicas', () => {
  for (const kind of ['Deployment', 'StatefulSet', 'ReplicaSet'])
    assert.is(interpretReplicas({ apiVersion: 'apps/v1', kind, spec: {} }).replicas, 0, kind);
  assert.is(interpretReplicas({ apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 2 } }).replicas, 2);
  assert.is(interpretReplicas({ apiVersion: 'v1', kind: 'Pod', spec: { containers: [] } }).replicas, 1);
  assert.equal(
    interpretReplicas({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      spec: { template: { spec: { nodeSelector: { a: 'b' } } } },
    }),
    { replicas: 0 },
  );
  assert.equal(interpretReplicas({ apiVersion: 'apps/v1beta1', kind: 'Deployment', spec: { replicas: 2 } }), {
    replicas: 0,
  });
});

test("the template's node claim comes with its replicas: nodeSelector, tolerations and required node affinity", () => {
  const required = { nodeSelectorTerms: [{ matchFields: [{ key: 'foo', operator: 'Exists' }] }] };
  const deploy = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    spec: {
      replicas: 2,
      template: {
        spec: {
          nodeSelector: { foo: 'foo1' },
          tolerations: [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }],
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: required,
              preferredDuringSchedulingIgnoredDuringExecution: [],
            },
          },
          containers: [{ name: 'a', resources: { requests: { cpu: '100m' } } }],
        },
      },
    },
  };
  assert.equal(interpretReplicas(deploy), {
    replicas: 2,
    resourceRequest: { cpu: '100m' },
    nodeClaim: {
      nodeSelector: { foo: 'foo1' },
      tolerations: [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }],
      hardNodeAffinity: required,
    },
  });
  // Only a preferred affinity is no claim.
  const preferredOnly = {
    ...deploy,
    spec: {
      replicas: 2,
      template: { spec: { affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] } } } },
    },
  };
  assert.equal(interpretReplicas(preferredOnly), { replicas: 2 });
});

test("a template's limits stand in for the requests it does not set; names the scheduler does not know are not counted", () => {
  const spec = {
    containers: [
      { name: 'a', resources: { limits: { cpu: '1', memory: '1Gi', 'nvidia.com/gpu': 1 }, requests: { cpu: '200m' } } },
      { name: 'b', resources: { requests: { memory: '1Gi', widgets: 3, 'hugepages-2Mi': '4Mi' } } },
    ],
    initContainers: [{ name: 'init', resources: { limits: { memory: '3Gi' } } }],
  };
  assert.equal(podTemplateRequests(spec), {
    cpu: '200m',
    'hugepages-2Mi': '4Mi',
    memory: '3Gi',
    'nvidia.com/gpu': '1',
  });
  assert.equal(
    interpretReplicas({ apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 1, template: { spec } } })
      .resourceRequest,
    podTemplateRequests(spec),
  );
  // A live pod has been defaulted by its API server: limits are not read again.
  assert.equal(podRequests(spec), { cpu: '200m', 'hugepages-2Mi': '4Mi', memory: '1Gi' });
});

test('each quantity is rounded up on its own before it is summed, and zero requests are left out', () => {
  assert.equal(
    podRequests({
      containers: [
        { resources: { requests: { cpu: '0.5m', memory: '0.5' } } },
        { resources: { requests: { cpu: '0.5m', memory: '0.5', 'ephemeral-storage': '0' } } },
      ],
    }),
    { cpu: '2m', memory: '2' },
  );
});

test('ReviseReplica writes only a field the template sets, as helper.ApplyReplica does', () => {
  assert.equal(reviseReplicas(job({ parallelism: 4 }), 2).spec, {
    template: { spec: { containers: [] } },
    parallelism: 2,
  });
  assert.equal(reviseReplicas(job({}), 2).spec, { template: { spec: { containers: [] } } });
  const deploy = { apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 5 } };
  assert.is((reviseReplicas(deploy, 3).spec as { replicas: number }).replicas, 3);
  assert.equal(reviseReplicas({ apiVersion: 'apps/v1', kind: 'StatefulSet', spec: {} }, 3).spec, {});
  assert.equal(reviseReplicas({ apiVersion: 'v1', kind: 'Pod', spec: {} }, 3).spec, {});
});

test.run();
