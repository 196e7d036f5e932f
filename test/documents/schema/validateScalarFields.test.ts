import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateScalarFields } from '../../../src/documents/schema/validateScalarFields.ts';

// kube-apiserver decodes a built-in kind into its Go type: a boolean or numeric field holding anything else cannot be
// read, and the object is refused before any validation.

const deployment = (spec: Record<string, unknown>, podSpec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { paused: 'nope' } },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    ...spec,
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }], ...podSpec }], ...podSpec },
    },
  },
});

test('booleans and whole numbers of the wrong type are named at their field, with the decode error and a fix', () => {
  const issues = validateScalarFields(
    deployment({ paused: 'nope', minReadySeconds: '5', revisionHistoryLimit: 'abc', progressDeadlineSeconds: 1.5 }),
  );
  assert.equal(
    issues.map((i) => i.path.join('.')),
    ['spec.paused', 'spec.minReadySeconds', 'spec.revisionHistoryLimit', 'spec.progressDeadlineSeconds'],
  );
  assert.is(
    issues[0]!.message,
    'spec.paused is the string "nope", not true or false: Kubernetes cannot read it (cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool), so Karmada\'s API server refuses the template and every member\'s the object',
  );
  assert.is(issues[0]!.fix, 'write paused: true or false, unquoted');
  assert.match(
    issues[1]!.message,
    'cannot unmarshal string into Go struct field DeploymentSpec.spec.minReadySeconds of type int32',
  );
  assert.match(
    issues[3]!.message,
    'cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.progressDeadlineSeconds of type int32',
  );
});

test("a pod template's and its containers' fields are read through lists, and a value past int32 is refused", () => {
  const issues = validateScalarFields({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      template: {
        spec: {
          hostNetwork: 'maybe',
          terminationGracePeriodSeconds: '30',
          containers: [{ name: 'web', stdin: 3, tty: 'yes', ports: [{ containerPort: 2147483648 }] }],
        },
      },
    },
  });
  assert.equal(
    issues.map((i) => [i.path.join('.'), /\((cannot unmarshal [^)]*)\)/.exec(i.message)?.[1]]),
    [
      [
        'spec.template.spec.hostNetwork',
        'cannot unmarshal string into Go struct field PodSpec.spec.template.spec.hostNetwork of type bool',
      ],
      [
        'spec.template.spec.terminationGracePeriodSeconds',
        'cannot unmarshal string into Go struct field PodSpec.spec.template.spec.terminationGracePeriodSeconds of type int64',
      ],
      [
        'spec.template.spec.containers.0.stdin',
        'cannot unmarshal number 3 into Go struct field Container.spec.template.spec.containers.stdin of type bool',
      ],
      [
        'spec.template.spec.containers.0.tty',
        'cannot unmarshal string into Go struct field Container.spec.template.spec.containers.tty of type bool',
      ],
      [
        'spec.template.spec.containers.0.ports.0.containerPort',
        'cannot unmarshal number 2147483648 into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32',
      ],
    ],
  );
});

test('what decodes is left alone: right types, nulls, metadata (validateObjectMeta), custom kinds', () => {
  assert.equal(
    validateScalarFields(deployment({ paused: true, replicas: 3, minReadySeconds: null }, { stdin: false })),
    [],
  );
  assert.equal(validateScalarFields({ apiVersion: 'example.com/v1', kind: 'Widget', spec: { paused: 'nope' } }), []);
});

test.run();
