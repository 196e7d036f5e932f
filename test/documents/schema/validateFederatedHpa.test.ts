// FederatedHPAs and CronFederatedHPAs are checked as Karmada's webhooks check them (pkg/util/lifted/
// validatingfhpa.go, pkg/webhook/cronfederatedhpa/validating.go), each problem at the field's file:line:column with
// Karmada's message and a fix; an invalid one is held (its last decision stays), not read as a template.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyDocuments } from '../../../src/documents/classifyDocuments.ts';
import { parseDocuments } from '../../../src/documents/parseDocuments.ts';

function classify(yaml: string) {
  const { documents, problems } = parseDocuments('templates/hpa.yaml', new TextEncoder().encode(yaml));
  return classifyDocuments('templates/hpa.yaml', documents, problems);
}
const brief = (out: ReturnType<typeof classify>) =>
  out.problems.map((p) => `${p.line}:${p.column} ${p.code} ${p.message} | ${p.fix}`);

const fhpa = (spec: string) => `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: web, namespace: shop}
spec:
${spec}`;
const cron = (spec: string) => `apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: web-cron, namespace: shop}
spec:
${spec}`;

test('a valid FederatedHPA is read with its metrics and behavior', () => {
  const out = classify(
    fhpa(`  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  metrics:
    - type: Resource
      resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
    - type: Pods
      pods: {metric: {name: rps}, target: {type: AverageValue, averageValue: 100m}}
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 300
      selectPolicy: Max
      policies: [{type: Percent, value: 10, periodSeconds: 60}]
`),
  );
  assert.equal(out.problems, []);
  assert.equal(out.broken, []);
  assert.equal(out.templates.length, 1);
});

test('maxReplicas below minReplicas is refused at maxReplicas, and the FederatedHPA is held', () => {
  const out = classify(
    fhpa(`  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 1
`),
  );
  assert.equal(brief(out), [
    '7:16 INVALID_VALUE spec.maxReplicas is 1: must be greater than or equal to `minReplicas` (2) | raise maxReplicas to at least 2, or lower minReplicas to 1',
  ]);
  assert.equal(out.templates, []);
  assert.equal(out.broken, [
    { apiVersion: 'autoscaling.karmada.io/v1alpha1', kind: 'FederatedHPA', name: 'web', namespace: 'shop' },
  ]);
});

test("Karmada's FederatedHPA rules: replicas bounds, scaleTargetRef, metric sources and targets, behavior policies", () => {
  const out = classify(
    fhpa(`  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment}
  minReplicas: 0
  maxReplicas: 0
  metrics:
    - type: External
    - type: Resource
      resource: {name: cpu, target: {type: Utilization, averageUtilization: 0, averageValue: 1}}
    - type: Object
      object: {describedObject: {kind: Ingress, name: a/b}, metric: {name: hits}, target: {type: Value, value: "-1"}}
    - type: Resource
      pods: {metric: {name: rps}, target: {type: AverageValue, averageValue: 1}}
      resource: {name: memory, target: {type: AverageValue, averageValue: 1Gi}}
  behavior:
    scaleUp:
      stabilizationWindowSeconds: 3601
      selectPolicy: Sometimes
      policies: []
    scaleDown:
      policies: [{type: Replicas, value: 0, periodSeconds: 1801}]
`),
  );
  assert.equal(
    out.problems.map((p) => `${p.line} ${p.message}`),
    [
      '6 spec.minReplicas is 0: must be greater than or equal to 1',
      '7 spec.maxReplicas is 0: must be greater than 0',
      '5 spec.scaleTargetRef.name is required: the name of the referent',
      '9 spec.metrics[0].type is "External": supported values: "ContainerResource", "Object", "Pods", "Resource"',
      '11 spec.metrics[1].resource.target.averageUtilization is 0: must be greater than 0',
      '11 spec.metrics[1].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization',
      '13 spec.metrics[2].object.describedObject.name is "a/b": may not contain \'/\'',
      '13 spec.metrics[2].object.target.value is "-1": must be positive',
      '15 spec.metrics[3].pods: Forbidden: must populate the given metric source only',
      '19 spec.behavior.scaleUp.stabilizationWindowSeconds is 3601: must be less than or equal to 3600',
      '20 spec.behavior.scaleUp.selectPolicy is "Sometimes": supported values: "Disabled", "Max", "Min"',
      '21 spec.behavior.scaleUp.policies is required: must specify at least one Policy',
      '23 spec.behavior.scaleDown.policies[0].type is "Replicas": supported values: "Percent", "Pods"',
      '23 spec.behavior.scaleDown.policies[0].value is 0: must be greater than zero',
      '23 spec.behavior.scaleDown.policies[0].periodSeconds is 1801: must be less than or equal to 1800',
    ],
  );
  assert.ok(out.problems.every((p) => p.fix.length > 0 && p.file === 'templates/hpa.yaml'));
  assert.equal(out.templates, []);
});

test('a ContainerResource metric names a container and a resource a container can request', () => {
  const out = classify(
    fhpa(`  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 3
  metrics:
    - type: ContainerResource
      containerResource: {name: gpus, container: Web_1, target: {type: Utilization}}
    - type: ContainerResource
      containerResource: {name: hugepages-2Mi, container: web, target: {type: AverageValue, averageValue: 2Mi}}
`),
  );
  assert.equal(
    out.problems.map((p) => `${p.line} ${p.message}`),
    [
      '9 spec.metrics[0].containerResource.name is "gpus": must be a standard resource for containers',
      '9 spec.metrics[0].containerResource.container is "Web_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or "-"',
      '9 spec.metrics[0].containerResource.target.averageUtilization is required: must set either a target raw value or a target utilization',
    ],
  );
});

test('a valid CronFederatedHPA scaling a FederatedHPA or a workload is read', () => {
  const out = classify(
    `${cron(`  scaleTargetRef: {apiVersion: autoscaling.karmada.io/v1alpha1, kind: FederatedHPA, name: web}
  rules:
    - {name: day, schedule: "0 8 * * 1-5", targetMinReplicas: 3, timeZone: Europe/Berlin, successfulHistoryLimit: 5}
    - {name: night, schedule: "@daily", targetMaxReplicas: 2, failedHistoryLimit: 0}
`)}---
${cron(`  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  rules:
    - {name: weekend, schedule: "0 0 * * sat", targetReplicas: 0}
`).replace('web-cron', 'web-cron2')}`,
  );
  assert.equal(out.problems, []);
  assert.equal(out.templates.length, 2);
});

test("Karmada's CronFederatedHPA rules: schedule, time zone, unique names, target replicas, history limits", () => {
  const out = classify(
    `${cron(`  scaleTargetRef: {apiVersion: autoscaling.karmada.io/v1alpha1, kind: FederatedHPA, name: web}
  rules:
    - {name: a, schedule: "0 8 * *", timeZone: Mars/Olympus}
    - {name: a, schedule: "61 * * * *", targetMinReplicas: 5, targetMaxReplicas: 3, successfulHistoryLimit: 0}
`)}---
${cron(`  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  rules:
    - {name: b, schedule: "* * * * *"}
    - {name: c, schedule: "* * * * *", targetReplicas: -1, failedHistoryLimit: 33}
`).replace('web-cron', 'web-cron2')}---
${cron(`  scaleTargetRef: {apiVersion: autoscaling.karmada.io/v1alpha1, kind: HorizontalPodAutoscaler, name: web}
  rules: [{name: d, schedule: "* * * * *", targetReplicas: 1}]
`).replace('web-cron', 'web-cron3')}`,
  );
  assert.equal(
    out.problems.map((p) => `${p.line} ${p.message}`),
    [
      '7 spec.rules[0].schedule is "0 8 * *": invalid cron format (expected exactly 5 fields, found 4: "0 8 * *")',
      '7 spec.rules[0].timeZone is "Mars/Olympus": unknown time zone Mars/Olympus',
      '7 spec.rules[0].targetMaxReplicas is required: targetMinReplicas and targetMaxReplicas cannot be nil at the same time if you want to scale FederatedHPA',
      '8 spec.rules[1].name is "a": Duplicate value',
      '8 spec.rules[1].schedule is "61 * * * *": invalid cron format (minute "61": out of range 0-59)',
      '8 spec.rules[1].successfulHistoryLimit is 0: should be between 1 and 32',
      '8 spec.rules[1].targetMinReplicas is 5: targetMaxReplicas (3) should be larger than or equal to targetMinReplicas',
      '16 spec.rules[0].targetReplicas is required: targetReplicas cannot be nil if you want to scale Deployment',
      '17 spec.rules[1].failedHistoryLimit is 33: should be between 0 and 32',
      '17 spec.rules[1].targetReplicas is -1: targetReplicas should be larger than or equal to 0',
      '23 spec.scaleTargetRef.kind is "HorizontalPodAutoscaler": invalid scaleTargetRef kind: HorizontalPodAutoscaler, only support FederatedHPA',
    ],
  );
  assert.equal(out.templates, []);
  assert.equal(
    out.broken.map((r) => r.name),
    ['web-cron', 'web-cron2', 'web-cron3'],
  );
});

test("behavior rules without policies take the defaults, as Karmada's mutating webhook fills them before validating", () => {
  const out = classify(
    fhpa(`  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 1
  behavior: {scaleDown: {stabilizationWindowSeconds: 10}, scaleUp: {selectPolicy: Max}}
`),
  );
  assert.equal(out.problems, []);
});

test.run();
