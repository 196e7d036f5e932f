// Where a pod may run, as kube-apiserver 1.32 checks it in a pod spec: tolerations, node and pod affinity, topology
// spread constraints, each refused in the API server's field path and words, and what real charts write admitted.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { podSpecViolations } from '../../src/kubeValidation/podSpecRules.ts';

const refused = (patch: Record<string, unknown>) =>
  podSpecViolations({ containers: [{ name: 'web', image: 'nginx' }], ...patch }, ['spec']).map(
    (v) => `${v.field}: ${v.detail}`,
  );

test('tolerations as charts write them are admitted: Exists without key, Equal, NoExecute with seconds', () => {
  assert.equal(
    refused({
      tolerations: [
        { operator: 'Exists' },
        { key: 'CriticalAddonsOnly', operator: 'Exists' },
        { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
        { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'PreferNoSchedule' },
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    }),
    [],
  );
});

test("a toleration's key, operator, value, effect and seconds are refused as ValidateTolerations refuses them", () => {
  assert.equal(
    refused({
      tolerations: [
        { key: 'bad key', operator: 'Exists', value: 'x' },
        { operator: 'Equal', value: 'a b' },
        { key: 'tier', operator: 'Gt', value: '900', effect: 'NoAdmit' },
        { key: 'grace', operator: 'Exists', tolerationSeconds: 60 },
      ],
    }),
    [
      "spec.tolerations[0].key: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'spec.tolerations[0].operator: Invalid value: "x": value must be empty when `operator` is \'Exists\'',
      'spec.tolerations[1].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      "spec.tolerations[1].operator: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      'spec.tolerations[2].operator: Unsupported value: "Gt": supported values: "Equal", "Exists"',
      'spec.tolerations[2].effect: Unsupported value: "NoAdmit": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      'spec.tolerations[3].effect: Invalid value: "": effect must be \'NoExecute\' when `tolerationSeconds` is set',
    ],
  );
});

test("a toleration's value problem is located at its value, though the API server names the operator", () => {
  const [violation] = podSpecViolations(
    { containers: [{ name: 'web', image: 'nginx' }], tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] },
    ['spec'],
  );
  assert.equal(violation?.path, ['spec', 'tolerations', 0, 'value']);
  assert.equal(violation?.field, 'spec.tolerations[0].operator');
});

test('node affinity: required terms, operators and their values, field selectors and preferred weights', () => {
  assert.equal(
    refused({
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: 'kubernetes.io/os', operator: 'In', values: [] },
                  { key: 'gpu', operator: 'Exists', values: ['a'] },
                  { key: 'cores', operator: 'Gt', values: ['2', '4'] },
                  { key: 'zone', operator: 'Equals', values: ['a'] },
                ],
                matchFields: [
                  { key: 'metadata.name', operator: 'In', values: ['Node_1'] },
                  { key: 'spec.unschedulable', operator: 'Exists' },
                ],
              },
            ],
          },
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 0, preference: { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] } },
          ],
        },
      },
    }),
    [
      "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[2].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'",
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[3].operator: Invalid value: "Equals": not a valid selector operator',
      "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0]: Invalid value: \"Node_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[1].operator: Invalid value: "Exists": not a valid selector operator',
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[1].key: Invalid value: "spec.unschedulable": not a valid field selector key',
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100',
    ],
  );
  assert.equal(refused({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: {} } } }), [
    'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term',
  ]);
  // 1.32 does not hold a required term's values to the label value format (1.33 does, for new objects).
  assert.equal(
    refused({
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'team', operator: 'In', values: ['a b'] }] }],
          },
        },
      },
    }),
    [],
  );
});

test('pod affinity and anti-affinity: topology key, weight, selectors, namespaces and label keys', () => {
  const term = (extra: Record<string, unknown>) => ({
    labelSelector: { matchLabels: { app: 'web' } },
    topologyKey: 'kubernetes.io/hostname',
    ...extra,
  });
  assert.equal(
    refused({
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            term({ topologyKey: '' }),
            term({ namespaces: ['Team_A'], namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In' }] } }),
          ],
        },
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 101, podAffinityTerm: term({}) },
            {
              weight: 10,
              podAffinityTerm: term({
                labelSelector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] },
                matchLabelKeys: ['pod-template-hash', 'app'],
                mismatchLabelKeys: ['app'],
              }),
            },
            { weight: 10, podAffinityTerm: { topologyKey: 'zone', matchLabelKeys: ['pod-template-hash'] } },
          ],
        },
      },
    }),
    [
      'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty',
      'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must be non-empty',
      "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].namespaceSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].namespace: Invalid value: \"Team_A\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100',
      'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].podAffinityTerm.matchLabelKeys[1]: Invalid value: "app": exists in both matchLabelKeys and mismatchLabelKeys',
      'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[2].podAffinityTerm.matchLabelKeys: Forbidden: must not be specified when labelSelector is not set',
    ],
  );
  // The pattern charts use: required anti-affinity on the hostname, preferred on the zone.
  assert.equal(
    refused({
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [term({ matchLabelKeys: ['pod-template-hash'] })],
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 100, podAffinityTerm: term({ topologyKey: 'topology.kubernetes.io/zone' }) },
          ],
        },
      },
    }),
    [],
  );
});

test('topology spread constraints: skew, key, action, policies, label keys, selector and a repeated pair', () => {
  const constraint = (extra: Record<string, unknown>) => ({
    maxSkew: 1,
    topologyKey: 'topology.kubernetes.io/zone',
    whenUnsatisfiable: 'DoNotSchedule',
    labelSelector: { matchLabels: { app: 'web' } },
    ...extra,
  });
  assert.equal(
    refused({
      topologySpreadConstraints: [
        constraint({ maxSkew: 0, minDomains: 0, whenUnsatisfiable: 'ScheduleAnyway' }),
        constraint({ nodeAffinityPolicy: 'Always', matchLabelKeys: ['app', 'bad key'] }),
        constraint({ labelSelector: { matchLabels: { app: 'a b' } }, whenUnsatisfiable: 'ScheduleAnyway' }),
        constraint({ topologyKey: 'kubernetes.io/hostname' }),
      ],
    }),
    [
      'spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
      'spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{topology.kubernetes.io/zone, ScheduleAnyway}"',
      'spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: must be greater than zero',
      'spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway',
      'spec.topologySpreadConstraints[1].nodeAffinityPolicy: Unsupported value: "Always": supported values: "Honor", "Ignore"',
      'spec.topologySpreadConstraints[1].matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector',
      "spec.topologySpreadConstraints[1].matchLabelKeys[1]: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      "spec.topologySpreadConstraints[2].labelSelector.matchLabels: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
  );
  assert.equal(
    refused({
      topologySpreadConstraints: [
        constraint({ matchLabelKeys: ['pod-template-hash'], minDomains: 3, nodeTaintsPolicy: 'Honor' }),
        constraint({ topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway' }),
      ],
    }),
    [],
  );
});

test.run();
