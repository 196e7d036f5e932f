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
    'kube-apiserver refuses this field: spec.template.spec.containers[1].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
    'kube-apiserver refuses this field: spec.template.spec.containers[1].name: Duplicate value: "web"',
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

const refused = (patch: (spec: any) => void) =>
  fields(deployment((d) => patch(d.spec.template.spec))).map((m) =>
    m.replace('kube-apiserver refuses this field: spec.template.spec.', ''),
  );

test("a container's restartPolicy: none on a regular container, only Always (a sidecar) on an init container", () => {
  assert.equal(
    refused((spec) => {
      spec.containers[0].restartPolicy = 'Always';
      spec.initContainers = [
        { name: 'setup', image: 'busybox', restartPolicy: 'OnFailure' },
        { name: 'proxy', image: 'envoy', restartPolicy: 'Always', readinessProbe: { tcpSocket: { port: 15001 } } },
      ];
    }),
    [
      'containers[0].restartPolicy: Forbidden: may not be set for non-init containers',
      'initContainers[0].restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
    ],
  );
});

test('a name an init container shares with a regular container is reported at the init container, after the regular ones', () => {
  assert.equal(
    refused((spec) => {
      spec.initContainers = [{ name: 'web', image: 'busybox' }];
      spec.containers.push({ name: 'sidecar', image: 'envoy', ports: [{ containerPort: 0 }] });
    }),
    [
      'containers[1].ports[0].containerPort: Invalid value: 0: must be between 1 and 65535, inclusive',
      'initContainers[0].name: Duplicate value: "web"',
    ],
  );
});

test('lifecycle hooks take one handler each, checked as kube-apiserver checks it, and only on containers that run alongside', () => {
  assert.equal(
    refused((spec) => {
      spec.terminationGracePeriodSeconds = 20;
      spec.containers[0].lifecycle = {
        postStart: { exec: {}, httpGet: { port: 0 } },
        preStop: { sleep: { seconds: 25 } },
      };
      spec.containers.push({
        name: 'api',
        image: 'api',
        lifecycle: { postStart: {}, preStop: { httpGet: { port: 'http', scheme: 'ftp' } } },
      });
      spec.initContainers = [
        { name: 'setup', image: 'busybox', lifecycle: { preStop: { exec: { command: ['true'] } } } },
        { name: 'proxy', image: 'envoy', restartPolicy: 'Always', lifecycle: { preStop: { tcpSocket: { port: -1 } } } },
      ];
    }),
    [
      'containers[0].lifecycle.postStart.exec.command: Required value',
      'containers[0].lifecycle.postStart.httpGet: Forbidden: may not specify more than 1 handler type',
      'containers[0].lifecycle.preStop.sleep: Invalid value: 25: must be greater than 0 and less than terminationGracePeriodSeconds (20)',
      'containers[1].lifecycle.postStart: Required value: must specify a handler type',
      'containers[1].lifecycle.preStop.httpGet.scheme: Unsupported value: "ftp": supported values: "HTTP", "HTTPS"',
      'initContainers[0].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always',
      'initContainers[1].lifecycle.preStop.tcpSocket.port: Invalid value: -1: must be between 1 and 65535, inclusive',
    ],
  );
  // A sleep up to the default 30-second grace period, and an httpGet with no path or scheme (defaulted), pass.
  assert.equal(
    refused((spec) => {
      spec.containers[0].lifecycle = { postStart: { httpGet: { port: 80 } }, preStop: { sleep: { seconds: 30 } } };
    }),
    [],
  );
});

test("a probe's handler is checked as kube-apiserver checks it: command, scheme, header names, grpc port, grace period", () => {
  assert.equal(
    refused((spec) => {
      spec.containers[0].livenessProbe = { exec: { command: [] }, terminationGracePeriodSeconds: 0 };
      spec.containers[0].readinessProbe = {
        httpGet: { port: 80, scheme: 'https', httpHeaders: [{ name: 'X-Ok', value: '1' }, { name: 'Bad Name' }] },
        terminationGracePeriodSeconds: 10,
      };
      spec.containers[0].startupProbe = { grpc: {} };
      // The second handler is refused and not itself checked (its port 0 goes unreported).
      spec.containers.push({
        name: 'api',
        image: 'api',
        livenessProbe: { tcpSocket: { port: 8080 }, grpc: { port: 0 } },
      });
    }),
    [
      'containers[0].livenessProbe.exec.command: Required value',
      'containers[0].livenessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0',
      'containers[0].readinessProbe.httpGet.scheme: Unsupported value: "https": supported values: "HTTP", "HTTPS"',
      `containers[0].readinessProbe.httpGet.httpHeaders: Invalid value: "Bad Name": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')`,
      'containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes',
      'containers[0].startupProbe.grpc.port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'containers[1].livenessProbe.grpc: Forbidden: may not specify more than 1 handler type',
    ],
  );
});

test('imagePullPolicy and terminationMessagePolicy take their values, and unset or empty are defaulted', () => {
  assert.equal(
    refused((spec) => {
      spec.containers[0].imagePullPolicy = 'always';
      spec.containers[0].terminationMessagePolicy = 'Logs';
      spec.containers.push({ name: 'api', image: 'api:1', imagePullPolicy: '', terminationMessagePolicy: '' });
      spec.initContainers = [{ name: 'setup', image: 'busybox', imagePullPolicy: 'Never' }];
    }),
    [
      'containers[0].terminationMessagePolicy: Unsupported value: "Logs": supported values: "File", "FallbackToLogsOnError"',
      'containers[0].imagePullPolicy: Unsupported value: "always": supported values: "Always", "IfNotPresent", "Never"',
    ],
  );
});

test('regular containers may not share a host port for a protocol and host IP; init containers, run one at a time, may', () => {
  assert.equal(
    refused((spec) => {
      spec.containers[0].ports = [{ containerPort: 80, hostPort: 8080 }];
      spec.containers.push({
        name: 'api',
        image: 'api',
        ports: [
          { containerPort: 81, hostPort: 8080, protocol: 'TCP' },
          { containerPort: 82, hostPort: 8080, protocol: 'UDP' },
          { containerPort: 83, hostPort: 8080, hostIP: '10.0.0.1' },
        ],
      });
      spec.initContainers = [
        { name: 'a', image: 'busybox', ports: [{ containerPort: 90, hostPort: 9090 }] },
        {
          name: 'b',
          image: 'busybox',
          ports: [
            { containerPort: 90, hostPort: 9090 },
            { containerPort: 91, hostPort: 9090 },
          ],
        },
      ];
    }),
    [
      'containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"',
      // kube-apiserver checks each init container alone and names it the first.
      'initContainers[0].ports[1].hostPort: Duplicate value: "TCP//9090"',
    ],
  );
});

test.run();
