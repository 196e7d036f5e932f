// Workload templates that Karmada's API server, a kube-apiserver, refuses for their spec or pod template: each a
// located INVALID_VALUE in kube-apiserver's words; and what its defaults make valid stays valid.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateWorkloadKinds } from '../../../src/documents/schema/validateWorkloadKinds.ts';
import { classifyText } from '../helpers/classifyText.ts';

const deployment = (patch: (d: any) => void = () => {}) => {
  const d: any = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }] }] },
      },
    },
  };
  patch(d);
  return d;
};

const fields = (manifest: Record<string, unknown>) => validateWorkloadKinds(manifest).map((i) => i.message);

test('a Deployment template kube-apiserver admits, with the fields it defaults left out, has no issue', () => {
  assert.equal(fields(deployment()), []);
  // maxUnavailable defaults to 25%, a probe's successThreshold 0 to 1, a volume without a source to emptyDir.
  const defaulted = deployment((d) => {
    d.spec.strategy = { rollingUpdate: { maxSurge: 0 } };
    d.spec.template.spec.containers[0].livenessProbe = { tcpSocket: { port: 80 }, successThreshold: 0 };
    d.spec.template.spec.containers[0].volumeMounts = [{ name: 'scratch', mountPath: '/tmp' }];
    d.spec.template.spec.volumes = [{ name: 'scratch' }];
  });
  assert.equal(fields(defaulted), []);
});

test('a Deployment whose selector misses its pod labels, or whose containers clash, is refused at each field', () => {
  const issues = fields(
    deployment((d) => {
      d.spec.selector.matchLabels.app = 'api';
      d.spec.template.spec.containers.push({ name: 'web', image: 'envoy', ports: [{ containerPort: 70000 }] });
      d.spec.template.spec.containers[0].readinessProbe = { periodSeconds: 5 };
    }),
  );
  assert.equal(issues, [
    'kube-apiserver refuses this field: spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    'kube-apiserver refuses this field: spec.template.spec.containers[0].readinessProbe: Required value: must specify a handler type',
    'kube-apiserver refuses this field: spec.template.spec.containers[1].name: Duplicate value: "web"',
    'kube-apiserver refuses this field: spec.template.spec.containers[1].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
  ]);
});

test('the strategy and deadline kube-apiserver defaults are read as defaulted: maxSurge 0 alone, minReadySeconds over 600', () => {
  const issues = validateWorkloadKinds(
    deployment((d) => {
      d.spec.strategy = { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } };
      d.spec.minReadySeconds = 900;
    }),
  );
  assert.equal(
    issues.map((i) => i.path.join('.')),
    ['spec.strategy.rollingUpdate.maxUnavailable', 'spec.progressDeadlineSeconds'],
  );
  assert.match(issues[1]!.message, 'Invalid value: 600: must be greater than minReadySeconds');
});

test('the pod spec of a Pod, a Job and a CronJob template is validated as kube-apiserver validates it', () => {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c' }] } };
  assert.equal(fields(pod), ['kube-apiserver refuses this field: spec.containers[0].image: Required value']);
  const cronJob = {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'nightly' },
    spec: {
      schedule: '@daily',
      jobTemplate: {
        spec: {
          template: {
            spec: {
              restartPolicy: 'Never',
              containers: [{ name: 'c', image: 'i', volumeMounts: [{ name: 'data', mountPath: '/d' }] }],
            },
          },
        },
      },
    },
  };
  assert.equal(fields(cronJob), [
    'kube-apiserver refuses this field: spec.jobTemplate.spec.template.spec.containers[0].volumeMounts[0].name: Not found: "data"',
  ]);
});

test('validate reports a refused pod template at the line of its field, with a fix, and renders nothing of it', () => {
  const text = [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: web',
    'spec:',
    '  selector:',
    '    matchLabels: {app: web}',
    '  template:',
    '    metadata:',
    '      labels: {app: web}',
    '    spec:',
    '      containers:',
    '      - name: web',
    '        image: nginx',
    '      - name: web',
    '        image: envoy',
    '',
  ].join('\n');
  const out = classifyText('web.yaml', text);
  assert.equal(out.templates, []);
  assert.equal(
    out.problems.map((p) => [p.line, p.code, p.fix]),
    [[15, 'INVALID_VALUE', 'give each container and init container of the pod its own name']],
  );
});

test('a template that does not decode (a quantity that is none) is refused for that alone, as kube-apiserver does', () => {
  const issues = classifyText(
    'web.yaml',
    [
      'apiVersion: v1',
      'kind: Pod',
      'metadata: {name: p}',
      'spec:',
      '  containers:',
      '  - name: c',
      '    image: i',
      '    resources: {requests: {cpu: lots}, limits: {cpu: 1}}',
      '',
    ].join('\n'),
  ).problems;
  assert.equal(issues.length, 1);
  assert.not.match(issues[0]!.message, 'kube-apiserver refuses');
});

test.run();
