// PriorityClasses and StorageClasses kube-apiserver 1.32 refuses (ValidatePriorityClass, ValidateStorageClass) are
// reported at their field in its words; common ones, with the fields the API server defaults left unset, are not.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { builtinKindViolations } from '../../src/kubeValidation/builtinKindRules.ts';

const priorityClass = (name: string, fields: Record<string, unknown>) =>
  builtinKindViolations('scheduling.k8s.io', 'PriorityClass', { metadata: { name }, ...fields }).map(
    (v) => `${v.field}: ${v.detail}`,
  );
const storageClass = (fields: Record<string, unknown>) =>
  builtinKindViolations('storage.k8s.io', 'StorageClass', { metadata: { name: 'fast' }, ...fields }).map(
    (v) => `${v.field}: ${v.detail}`,
  );

test('a PriorityClass: user values up to a billion, system- names only for the built-in classes', () => {
  assert.equal(priorityClass('high', { value: 1000000, preemptionPolicy: 'Never', globalDefault: false }), []);
  assert.equal(priorityClass('system-cluster-critical', { value: 2000000000 }), []);
  assert.equal(priorityClass('high', { value: 1000000001, preemptionPolicy: 'Always' }), [
    'value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
    'preemptionPolicy: Unsupported value: "Always": supported values: "PreemptLowerPriority", "Never"',
  ]);
  assert.equal(priorityClass('system-high', { value: 10 }), [
    "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-high is not a known system priority class",
  ]);
  assert.equal(priorityClass('system-node-critical', { value: 10, preemptionPolicy: '' }), [
    "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000",
    'preemptionPolicy: Required value',
  ]);
});

test('a StorageClass: a provisioner, its policies from their enums, topologies without repeats', () => {
  assert.equal(
    storageClass({
      provisioner: 'ebs.csi.aws.com',
      parameters: { type: 'gp3' },
      reclaimPolicy: 'Retain',
      volumeBindingMode: 'WaitForFirstConsumer',
      allowedTopologies: [{ matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: ['a', 'b'] }] }],
    }),
    [],
  );
  assert.equal(storageClass({ provisioner: 'kubernetes.io/no-provisioner' }), []);
  assert.equal(
    storageClass({
      provisioner: 'Bad Name',
      reclaimPolicy: 'Recycle',
      volumeBindingMode: 'Later',
      allowedTopologies: [
        {
          matchLabelExpressions: [
            { key: 'zone', values: ['a', 'a'] },
            { key: 'zone', values: [] },
          ],
        },
        { matchLabelExpressions: [{ key: 'zone', values: [] }] },
      ],
    }),
    [
      `provisioner: Invalid value: "Bad Name": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      'reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"',
      'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
      'allowedTopologies[0].matchLabelExpressions[0].values[1]: Duplicate value: "a"',
      'allowedTopologies[0].matchLabelExpressions[1].values: Required value',
      'allowedTopologies[0].matchLabelExpressions[1].key: Duplicate value: "zone"',
      'allowedTopologies[1].matchLabelExpressions[0].values: Required value',
      'allowedTopologies[1].matchLabelExpressions: Duplicate value: ""',
    ],
  );
  assert.equal(storageClass({}), ['provisioner: Required value']);
});

test.run();
