// A HorizontalPodAutoscaler kube-apiserver 1.32 refuses (validateHorizontalPodAutoscalerSpec) is reported at its
// field in its words; one it accepts, with the fields its defaulting fills left unset, is not.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { builtinKindViolations } from '../../src/kubeValidation/builtinKindRules.ts';

const found = (spec: Record<string, unknown>) =>
  builtinKindViolations('autoscaling', 'HorizontalPodAutoscaler', { metadata: { name: 'web' }, spec }).map(
    (v) => `${v.field}: ${v.detail}`,
  );
const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

test('an HPA with every metric source and a partial behavior is accepted as its defaults complete it', () => {
  assert.equal(found({ scaleTargetRef: target, maxReplicas: 3 }), []);
  assert.equal(
    found({
      scaleTargetRef: target,
      minReplicas: 2,
      maxReplicas: 10,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
        { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } },
        { type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '1k' } } },
        {
          type: 'Object',
          object: {
            metric: { name: 'requests-per-second' },
            describedObject: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: 'main' },
            target: { type: 'Value', value: '10k' },
          },
        },
        {
          type: 'External',
          external: {
            metric: { name: 'queue_messages_ready', selector: { matchLabels: { queue: 'tasks' } } },
            target: { type: 'AverageValue', averageValue: 30 },
          },
        },
        {
          type: 'ContainerResource',
          containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 60 } },
        },
      ],
      // selectPolicy alone: the policies are defaulted, not missing.
      behavior: { scaleDown: { selectPolicy: 'Disabled' }, scaleUp: { stabilizationWindowSeconds: 0 } },
    }),
    [],
  );
});

test('replica bounds and the scale target: minReplicas defaults to 1, so maxReplicas 0 fails twice', () => {
  assert.equal(found({ scaleTargetRef: { kind: 'Deployment' } }), [
    'spec.maxReplicas: Invalid value: 0: must be greater than 0',
    'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`',
    'spec.scaleTargetRef.name: Required value',
  ]);
  assert.equal(found({ scaleTargetRef: { kind: 'Deployment', name: 'a/b' }, minReplicas: 0, maxReplicas: 2 }), [
    'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
    'spec.scaleTargetRef.name: Invalid value: "a/b": may not contain \'/\'',
    'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
  ]);
});

test('metric specs: the type, its one source, the target type and positive values', () => {
  assert.equal(
    found({
      scaleTargetRef: target,
      maxReplicas: 3,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 0 } } },
        { type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '-1' } } },
        { type: 'Pods', resource: { name: 'cpu', target: { type: 'Percent', averageUtilization: 80 } } },
        {
          type: 'Object',
          object: { metric: { name: 'hits' }, describedObject: target, target: { type: 'Value', value: 1 } },
          external: { metric: { name: 'queue' }, target: { type: 'Value', value: 1 } },
        },
        { type: 'Cpu' },
        {
          type: 'ContainerResource',
          containerResource: { name: 'gpu', container: 'App', target: { type: 'AverageValue' } },
        },
      ],
    }),
    [
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
      'spec.metrics[1].pods.target.averageValue: Invalid value: -1: must be positive',
      'spec.metrics[2].resource.target.type: Invalid value: "Percent": must be either Utilization, Value, or AverageValue',
      'spec.metrics[2].pods: Required value: must populate information for the given metric source',
      'spec.metrics[3].external: Forbidden: must populate the given metric source only',
      'spec.metrics[4].type: Unsupported value: "Cpu": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      'spec.metrics[5].containerResource.name: Invalid value: "gpu": must be a standard resource type or fully qualified',
      'spec.metrics[5].containerResource.name: Invalid value: "gpu": must be a standard resource for containers',
      "spec.metrics[5].containerResource.container: Invalid value: \"App\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      'spec.metrics[5].containerResource.target.averageUtilization: Required value: must set either a target raw value or a target utilization',
    ],
  );
});

test('behavior: windows, periods, policy types and an explicitly empty policy list', () => {
  assert.equal(
    found({
      scaleTargetRef: target,
      maxReplicas: 3,
      behavior: {
        scaleUp: {
          stabilizationWindowSeconds: 3601,
          selectPolicy: 'Sometimes',
          policies: [{ type: 'Replicas', value: 0, periodSeconds: 1801 }],
        },
        scaleDown: { policies: [] },
      },
    }),
    [
      'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600',
      'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Sometimes": supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleUp.policies[0].type: Unsupported value: "Replicas": supported values: "Percent", "Pods"',
      'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
      'spec.behavior.scaleDown.policies: Required value: must specify at least one Policy',
    ],
  );
});

test.run();
