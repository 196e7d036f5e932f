// A pod spec's containers' environment sources and block devices, its DNS, host aliases, names and gates, and what a
// Pod alone is held to, as kube-apiserver 1.32 checks them, in its field paths and words.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { podSpecViolations } from '../../src/kubeValidation/podSpecRules.ts';
import { validateWorkloadAndAccess } from '../../src/members/resources/validateWorkloadAndAccess.ts';
import { classifyText } from '../documents/helpers/classifyText.ts';

const refused = (spec: Record<string, unknown>, resourceIsPod = false) =>
  podSpecViolations(spec, ['spec'], { resourceIsPod }).map((v) => `${v.field}: ${v.detail}`);
const web = (extra: Record<string, unknown> = {}) => ({ name: 'web', image: 'nginx', ...extra });

test("envFrom: one ConfigMap or Secret per source, by a name that may end in '-', under a relaxed prefix", () => {
  assert.equal(
    refused({
      containers: [
        web({
          envFrom: [
            { configMapRef: { name: 'settings' } },
            { secretRef: { name: 'creds-' }, prefix: 'DB_' },
            { prefix: '1.weird-but:fine_', configMapRef: { name: 'settings' } },
          ],
        }),
      ],
    }),
    [],
  );
  assert.equal(
    refused({
      containers: [
        web({
          envFrom: [
            { prefix: 'A=B', configMapRef: { name: '' } },
            { secretRef: { name: 'Creds' } },
            {},
            { configMapRef: { name: 'a' }, secretRef: { name: 'b' } },
          ],
        }),
      ],
    }),
    [
      'spec.containers[0].envFrom[0].prefix: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than \'=\'',
      'spec.containers[0].envFrom[0].configMapRef.name: Required value',
      "spec.containers[0].envFrom[1].secretRef.name: Invalid value: \"Creds\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`',
      'spec.containers[0].envFrom: Invalid value: "": may not have more than one field specified at a time',
    ],
  );
});

test('env valueFrom: a field path converted as a Pod field label, keys and names checked, one word on the count', () => {
  const env = (...vars: Record<string, unknown>[]) => refused({ containers: [web({ env: vars })] });
  const from = (name: string, valueFrom: Record<string, unknown>, value?: string) => ({ name, value, valueFrom });
  assert.equal(
    env(
      from('A', { fieldRef: { fieldPath: 'metadata.name' } }),
      from('B', { fieldRef: { fieldPath: "metadata.labels['app.kubernetes.io/name']" } }),
      from('C', { fieldRef: { fieldPath: 'spec.host' } }),
      from('D', { fieldRef: { apiVersion: 'v1', fieldPath: 'status.hostIPs' } }),
      from('E', { configMapKeyRef: { name: 'settings', key: 'log.level' } }),
      from('F', { secretKeyRef: { name: 'creds', key: 'PASSWORD', optional: true } }),
    ),
    [],
  );
  assert.equal(
    env(
      from('A', { fieldRef: { fieldPath: 'metadata.generation' } }),
      from('B', { fieldRef: { fieldPath: 'metadata.labels' } }),
      from('C', { fieldRef: { fieldPath: "spec.containers['x']" } }),
      from('D', { fieldRef: { fieldPath: "metadata.annotations['a b']" } }),
      from('E', { fieldRef: { apiVersion: 'v2', fieldPath: 'metadata.name' } }),
    ),
    [
      'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.generation": error converting fieldPath: field label not supported: metadata.generation',
      'spec.containers[0].env[1].valueFrom.fieldRef.fieldPath: Unsupported value: "metadata.labels": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
      `spec.containers[0].env[2].valueFrom.fieldRef.fieldPath: Invalid value: "spec.containers['x']": error converting fieldPath: field label does not support subscript: spec.containers['x']`,
      "spec.containers[0].env[3].valueFrom.fieldRef: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'spec.containers[0].env[4].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2',
    ],
  );
  assert.equal(
    env(
      from('A', { configMapKeyRef: { key: 'k' } }),
      from('B', { secretKeyRef: { name: 'creds', key: '..x' } }),
      from('C', { secretKeyRef: { name: 'creds' } }),
      from('D', { configMapKeyRef: { name: 'a', key: 'k' }, secretKeyRef: { name: 'b', key: 'k' } }, 'set'),
      from('E', { configMapKeyRef: { name: 'a', key: 'k' }, secretKeyRef: { name: 'b', key: 'k' } }),
      from('F', {}),
    ),
    [
      "spec.containers[0].env[0].valueFrom.configMapKeyRef.name: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.containers[0].env[1].valueFrom.secretKeyRef.key: Invalid value: "..x": must not start with \'..\'',
      'spec.containers[0].env[2].valueFrom.secretKeyRef.key: Required value',
      'spec.containers[0].env[3].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
      'spec.containers[0].env[4].valueFrom: Invalid value: "": may not have more than one field specified at a time',
      'spec.containers[0].env[5].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
    ],
  );
});

test("a generic ephemeral volume's claim template: required, labels and annotations only, a claim's spec", () => {
  const claim = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } };
  const volume = (ephemeral: Record<string, unknown>) =>
    refused({ containers: [web()], volumes: [{ name: 'scratch', ephemeral }] });
  assert.equal(
    volume({ volumeClaimTemplate: { metadata: { labels: { app: 'web' }, creationTimestamp: null }, spec: claim } }),
    [],
  );
  assert.equal(volume({}), ['spec.volumes[0].ephemeral.volumeClaimTemplate: Required value']);
  assert.equal(
    volume({
      volumeClaimTemplate: {
        metadata: { name: 'scratch', uid: 'x', labels: { 'a b': 'c' } },
        spec: { accessModes: ['ReadWriteSometimes'], resources: { requests: {} } },
      },
    }),
    [
      "spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.labels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.name: Forbidden: cannot be set for an ephemeral volume',
      'spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.uID: Forbidden: cannot be set for an ephemeral volume',
      'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
      'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources[storage]: Required value',
    ],
  );
});

test('volumeDevices: a claim volume, once, at a path without backsteps that no mount of the container uses', () => {
  const volumes = [
    { name: 'block', persistentVolumeClaim: { claimName: 'raw' } },
    {
      name: 'scratch',
      ephemeral: {
        volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
      },
    },
    { name: 'config', configMap: { name: 'c' } },
  ];
  assert.equal(
    refused({
      volumes,
      containers: [
        web({
          volumeDevices: [
            { name: 'block', devicePath: '/dev/xvda' },
            { name: 'scratch', devicePath: '/dev/xvdb' },
          ],
        }),
      ],
    }),
    [],
  );
  assert.equal(
    refused({
      volumes,
      containers: [
        web({
          volumeMounts: [{ name: 'config', mountPath: '/dev/xvda' }],
          volumeDevices: [
            { name: 'block', devicePath: '/dev/xvda' },
            { name: 'block', devicePath: '/dev/../xvdb' },
            { name: 'config', devicePath: '/dev/xvdc' },
            { name: 'missing', devicePath: '' },
          ],
        }),
      ],
    }),
    [
      'spec.containers[0].volumeMounts[0].name: Invalid value: "config": must not already exist in volumeDevices',
      'spec.containers[0].volumeMounts[0].mountPath: Invalid value: "/dev/xvda": must not already exist as a path in volumeDevices',
      'spec.containers[0].volumeDevices[0].devicePath: Invalid value: "/dev/xvda": must not already exist as a path in volumeMounts',
      'spec.containers[0].volumeDevices[1].name: Invalid value: "block": must be unique',
      'spec.containers[0].volumeDevices[1].devicePath: Invalid value: "/dev/../xvdb": can not contain backsteps (\'..\')',
      'spec.containers[0].volumeDevices[2].name: Invalid value: "config": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
      'spec.containers[0].volumeDevices[2].name: Invalid value: "config": must not already exist in volumeMounts',
      'spec.containers[0].volumeDevices[3].name: Not found: "missing"',
      'spec.containers[0].volumeDevices[3].devicePath: Required value',
    ],
  );
});

test('dnsPolicy None needs a dnsConfig with a nameserver; a dnsConfig holds IPs, DNS search domains and named options', () => {
  assert.equal(refused({ dnsPolicy: 'None', containers: [web()] }), [
    'spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None',
  ]);
  assert.equal(refused({ dnsPolicy: 'None', dnsConfig: { searches: ['svc.local'] }, containers: [web()] }), [
    'spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None',
  ]);
  assert.equal(
    refused({
      dnsPolicy: 'ClusterFirstWithHostNet',
      dnsConfig: {
        nameservers: ['1.1.1.1', '010.0.0.10', 'fd00::10', 'dns.example'],
        searches: ['ns1.svc.cluster.local.', 'corp_net', 'Example.com'],
        options: [{ name: 'ndots', value: '2' }, { value: '1' }],
      },
      containers: [web()],
    }),
    [
      'spec.dnsConfig.nameservers: Invalid value: []string{"1.1.1.1", "010.0.0.10", "fd00::10", "dns.example"}: must not have more than 3 nameservers',
      'spec.dnsConfig.nameservers[3]: Invalid value: "dns.example": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      "spec.dnsConfig.searches[1]: Invalid value: \"corp_net\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      "spec.dnsConfig.searches[2]: Invalid value: \"Example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.dnsConfig.options[1]: Required value: must not be empty',
    ],
  );
  assert.equal(refused({ dnsPolicy: 'ClusterLocal', containers: [web()] }), [
    'spec.dnsPolicy: Unsupported value: "ClusterLocal": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
  ]);
});

test("the pod's names, host aliases, gates, node selector, priority and deadline", () => {
  assert.equal(
    refused({
      containers: [web()],
      nodeSelector: { 'kubernetes.io/os': 'linux', disk: 'fast ssd' },
      readinessGates: [{ conditionType: 'example.com/feature-1' }, { conditionType: 'bad gate' }],
      schedulingGates: [{ name: 'example.com/wait' }, { name: 'example.com/wait' }],
      nodeName: 'Node_1',
      activeDeadlineSeconds: 0,
      hostname: 'web.1',
      subdomain: 'Headless',
      hostAliases: [{ ip: '127.0.0.1', hostnames: ['foo.local', 'Bar'] }, { hostnames: ['x'] }],
      priorityClassName: 'High Priority',
      runtimeClassName: '',
      preemptionPolicy: 'Sometimes',
    }),
    [
      "spec.nodeSelector: Invalid value: \"fast ssd\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      "spec.readinessGates[1].conditionType: Invalid value: \"bad gate\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'spec.schedulingGates[1]: Duplicate value: "example.com/wait"',
      "spec.nodeName: Invalid value: \"Node_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive',
      "spec.hostname: Invalid value: \"web.1\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      "spec.subdomain: Invalid value: \"Headless\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      "spec.hostAliases[0].hostnames[1]: Invalid value: \"Bar\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.hostAliases[1].ip: Invalid value: "": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      "spec.priorityClassName: Invalid value: \"High Priority\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      "spec.runtimeClassName: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"',
    ],
  );
});

test('on the host network a container port given a host port must use its own number', () => {
  const ports = [
    { containerPort: 9100 },
    { containerPort: 9101, hostPort: 9101 },
    { containerPort: 9102, hostPort: 19102 },
  ];
  assert.equal(refused({ hostNetwork: true, containers: [web({ ports })] }), [
    'spec.containers[0].ports[2].hostPort: Invalid value: 19102: must match `containerPort` when `hostNetwork` is true',
  ]);
  assert.equal(refused({ containers: [web({ ports })] }), []);
});

test('ephemeral containers are refused in a template and on a Pod; a Pod alone is held to its image spacing and gates', () => {
  const spec = { containers: [web()], ephemeralContainers: [{ name: 'debug', image: 'busybox' }] };
  assert.equal(refused(spec), [
    'spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template',
  ]);
  assert.equal(refused(spec, true), ['spec.ephemeralContainers: Forbidden: cannot be set on create']);
  const pod = {
    containers: [web({ image: 'nginx ' })],
    nodeName: 'node-1',
    schedulingGates: [{ name: 'example.com/quota' }],
  };
  assert.equal(refused(pod), []);
  assert.equal(refused(pod, true), [
    'spec.containers[0].image: Invalid value: "nginx ": must not have leading or trailing whitespace',
    'spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared',
  ]);
});

test('the member emulator refuses the Pod flotilla validate refuses, in the same words', () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: { containers: [web()], tolerations: [{ key: 'gpu', operator: 'Exists', value: 'yes' }] },
  };
  assert.equal(
    validateWorkloadAndAccess('', 'Pod', pod).map((e) => `${e.field}: ${e.body}`),
    ['spec.tolerations[0].operator: Invalid value: "yes": value must be empty when `operator` is \'Exists\''],
  );
});

test('validate reports a refused toleration at the line of its value, in kube-apiserver words', () => {
  const text = [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata: {name: web}',
    'spec:',
    '  selector: {matchLabels: {app: web}}',
    '  template:',
    '    metadata: {labels: {app: web}}',
    '    spec:',
    '      containers: [{name: web, image: nginx}]',
    '      tolerations:',
    '      - key: dedicated',
    '        operator: Exists',
    '        value: gpu',
    '',
  ].join('\n');
  const out = classifyText('web.yaml', text);
  assert.equal(out.templates, []);
  assert.equal(
    out.problems.map((p) => [p.line, p.code, p.message]),
    [
      [
        13,
        'INVALID_VALUE',
        'kube-apiserver refuses this field: spec.template.spec.tolerations[0].operator: Invalid value: "gpu": value must be empty when `operator` is \'Exists\'',
      ],
    ],
  );
});

test.run();
