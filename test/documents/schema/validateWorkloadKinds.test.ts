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
    'kube-apiserver refuses this field: spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
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

const workload = (kind: string, patch: (w: any) => void = () => {}) => {
  const w = deployment(patch);
  w.kind = kind;
  return w;
};
const bodies = (manifest: Record<string, unknown>) =>
  fields(manifest).map((m) => m.replace('kube-apiserver refuses this field: ', ''));

test('a Deployment: a pod deadline, a negative progress deadline and an unknown strategy are refused', () => {
  assert.equal(
    bodies(
      deployment((d) => {
        d.spec.template.spec.activeDeadlineSeconds = 30;
        d.spec.progressDeadlineSeconds = -1;
        d.spec.strategy = { type: 'BlueGreen' };
      }),
    ),
    [
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
      'spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"BlueGreen", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"',
      'spec.progressDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.progressDeadlineSeconds: Invalid value: -1: must be greater than minReadySeconds',
    ],
  );
  // Recreate's rolling update is refused whole, its values unread.
  assert.equal(bodies(deployment((d) => (d.spec.strategy = { type: 'Recreate', rollingUpdate: { maxSurge: 'x' } }))), [
    "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
  ]);
});

test('a workload without a selector is refused once, at the selector, with its fix', () => {
  const issues = validateWorkloadKinds(deployment((d) => delete d.spec.selector));
  assert.equal(
    issues.map((i) => i.message),
    ['kube-apiserver refuses this field: spec.selector: Required value'],
  );
});

test("a ReplicationController without a selector takes its template's labels; with neither, the fix says to label it", () => {
  const rc = (labels?: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: { name: 'agent' },
    spec: { template: { metadata: { labels }, spec: { containers: [{ name: 'agent', image: 'sysdig/agent' }] } } },
  });
  assert.equal(validateWorkloadKinds(rc({ app: 'agent' })), []);
  assert.equal(
    validateWorkloadKinds(rc()).map((i) => [i.message, i.fix]),
    [
      [
        'kube-apiserver refuses this field: spec.selector: Required value',
        'label the pod template (spec.template.metadata.labels), or select it by at least one of its labels (spec.selector)',
      ],
    ],
  );
});

test('a StatefulSet kube-apiserver admits, its policies and strategy left to their defaults, has no issue', () => {
  assert.equal(fields(workload('StatefulSet')), []);
  const explicit = workload('StatefulSet', (s) => {
    s.spec.podManagementPolicy = 'Parallel';
    s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 2, maxUnavailable: 0 } };
    s.spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Delete', whenScaled: 'Retain' };
    s.spec.ordinals = { start: 5 };
    // Not a pod spec kube-apiserver validates for a StatefulSet: a mount may name a volumeClaimTemplate.
    s.spec.template.spec.containers[0].volumeMounts = [{ name: 'data', mountPath: '/data' }];
  });
  assert.equal(fields(explicit), []);
  assert.equal(fields(workload('StatefulSet', (s) => (s.spec.updateStrategy = { type: 'OnDelete' }))), []);
});

test('a StatefulSet: its policies, strategy, ordinals, selector and pod restarts are checked as kube-apiserver does', () => {
  assert.equal(
    bodies(
      workload('StatefulSet', (s) => {
        s.spec.podManagementPolicy = 'Ordered';
        s.spec.updateStrategy = { rollingUpdate: { partition: -1 } };
        s.spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Keep' };
        s.spec.minReadySeconds = -5;
        s.spec.ordinals = { start: -1 };
        s.spec.selector = {};
        s.spec.template.spec.restartPolicy = 'OnFailure';
        s.spec.template.spec.activeDeadlineSeconds = 60;
      }),
    ),
    [
      "spec.podManagementPolicy: Invalid value: \"Ordered\": must be 'OrderedReady' or 'Parallel'",
      'spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0',
      'spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"',
      'spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0',
      'spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0',
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for statefulset',
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported',
    ],
  );
  assert.equal(
    bodies(
      workload('StatefulSet', (s) => {
        s.spec.updateStrategy = { type: 'OnDelete', rollingUpdate: { partition: 1 } };
        s.spec.selector.matchLabels.app = 'db';
      }),
    ),
    [
      "spec.updateStrategy.rollingUpdate: Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:1, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'",
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    ],
  );
  assert.equal(bodies(workload('StatefulSet', (s) => (s.spec.updateStrategy = { type: 'Canary' }))), [
    "spec.updateStrategy: Invalid value: apps.StatefulSetUpdateStrategy{Type:\"Canary\", RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}: must be 'RollingUpdate' or 'OnDelete'",
  ]);
});

test('a DaemonSet: its rolling update defaults to maxUnavailable 1 and maxSurge 0, so only one may be non-zero', () => {
  assert.equal(fields(workload('DaemonSet')), []);
  const rolling = (rollingUpdate: unknown) =>
    bodies(workload('DaemonSet', (d) => (d.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate })));
  assert.equal(rolling({ maxSurge: '10%', maxUnavailable: 0 }), []);
  assert.equal(rolling({ maxUnavailable: '20%' }), []);
  assert.equal(rolling({ maxSurge: 1 }), [
    'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero',
  ]);
  assert.equal(rolling({ maxUnavailable: '0%' }), [
    'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
  ]);
  assert.equal(rolling({ maxUnavailable: '150%', maxSurge: 0 }), [
    'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
  ]);
  // A string that is no percent counts as 0, as Go's getIntOrPercentValue reads it.
  assert.equal(rolling({ maxUnavailable: 'half', maxSurge: -1 }), [
    "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: \"half\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
    'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0',
  ]);
  // OnDelete reads no rolling update.
  assert.equal(
    bodies(
      workload('DaemonSet', (d) => (d.spec.updateStrategy = { type: 'OnDelete', rollingUpdate: { maxSurge: 1 } })),
    ),
    [],
  );
});

test('a DaemonSet: its strategy type, selector, counts and pod restarts are checked as kube-apiserver does', () => {
  assert.equal(
    bodies(
      workload('DaemonSet', (d) => {
        d.spec.updateStrategy = { type: 'Surge' };
        d.spec.minReadySeconds = -1;
        d.spec.revisionHistoryLimit = -1;
        d.spec.template.spec.restartPolicy = 'Never';
        d.spec.template.spec.activeDeadlineSeconds = 10;
      }),
    ),
    [
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported',
      'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Surge", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"',
      'spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
    ],
  );
  // A DaemonSet's selector is not required, but without one it selects none of its pods.
  assert.equal(bodies(workload('DaemonSet', (d) => delete d.spec.selector)), [
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
  ]);
  assert.equal(bodies(workload('DaemonSet', (d) => (d.spec.selector = { matchLabels: {} }))), [
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset',
  ]);
});

test('a ReplicaSet: its selector, pod restarts and pod deadline are checked as kube-apiserver does', () => {
  assert.equal(fields(workload('ReplicaSet')), []);
  assert.equal(
    bodies(
      workload('ReplicaSet', (r) => {
        r.spec.selector = {};
        r.spec.minReadySeconds = -1;
        r.spec.template.spec.restartPolicy = 'OnFailure';
        r.spec.template.spec.activeDeadlineSeconds = 10;
      }),
    ),
    [
      'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
    ],
  );
  assert.equal(bodies(workload('ReplicaSet', (r) => delete r.spec.selector)), ['spec.selector: Required value']);
});

test("a workload's selector is held to ValidateLabelSelector: operators, values by operator, key and value syntax", () => {
  const expressions = (matchExpressions: unknown[]) =>
    deployment((d) => {
      d.spec.selector = { matchLabels: { app: 'web' }, matchExpressions };
    });
  assert.equal(fields(expressions([{ key: 'tier', operator: 'NotIn', values: ['db'] }])), []);
  assert.equal(fields(expressions([{ key: 'app', operator: 'Exists' }])), []);
  const selector = (e: string) =>
    `v1.LabelSelector{MatchLabels:map[string]string{"app":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement{${e}}}`;
  assert.equal(bodies(expressions([{ key: 'tier', operator: 'Equals', values: ['web'] }])), [
    'spec.selector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator',
    `spec.selector: Invalid value: ${selector('v1.LabelSelectorRequirement{Key:"tier", Operator:"Equals", Values:[]string{"web"}}')}: invalid label selector`,
  ]);
  assert.equal(
    bodies(
      expressions([
        { key: 'tier', operator: 'In' },
        { key: 'app', operator: 'DoesNotExist', values: ['web'] },
        { key: 'team/', operator: 'NotIn', values: ['a b'] },
      ]),
    ).slice(0, 5),
    [
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'spec.selector.matchExpressions[2].key: Invalid value: "team/": name part must be non-empty',
      "spec.selector.matchExpressions[2].key: Invalid value: \"team/\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      "spec.selector.matchExpressions[2].values[0]: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
  );
  assert.equal(
    bodies(deployment((d) => (d.spec.selector.matchLabels = { app: 'web', 'tier!': 'front' }))).map((m) =>
      m.slice(0, 60),
    ),
    [
      'spec.selector.matchLabels: Invalid value: "tier!": name part',
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:m',
    ],
  );
});

test("a selector that does not parse leaves the pod template unchecked, as kube-apiserver does, but a DaemonSet's", () => {
  const broken = (w: any) => {
    w.spec.selector.matchExpressions = [{ key: 'tier', operator: 'In' }];
    w.spec.template.metadata.labels = { app: 'api' };
    delete w.spec.template.spec.containers[0].image;
  };
  const invalidValues =
    "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'";
  const text =
    'v1.LabelSelector{MatchLabels:map[string]string{"app":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"tier", Operator:"In", Values:[]string(nil)}}}';
  for (const kind of ['Deployment', 'ReplicaSet'])
    assert.equal(bodies(workload(kind, broken)), [
      invalidValues,
      `spec.selector: Invalid value: ${text}: invalid label selector`,
    ]);
  assert.equal(bodies(workload('StatefulSet', broken)), [invalidValues, `spec.selector: Invalid value: ${text}`]);
  assert.equal(bodies(workload('DaemonSet', broken)), [
    invalidValues,
    'spec.template.spec.containers[0].image: Required value',
  ]);
});

test.run();
