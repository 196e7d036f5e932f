// Services, ConfigMaps, Secrets, PodDisruptionBudgets, RBAC objects, Ingresses, NetworkPolicies, HPAs, claims,
// namespaces, limit ranges, quotas, PriorityClasses and StorageClasses that
// kube-apiserver refuses are reported at their field, in its words, on the template as it defaults it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateBuiltinKinds } from '../../../src/documents/schema/validateBuiltinKinds.ts';

const found = (manifest: Record<string, unknown>) =>
  validateBuiltinKinds(manifest).map((i) => `${i.path.join('.')} | ${i.message}`);

const service = (spec: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web' },
  spec,
});

test('a Service is validated as defaulted: a protocol-less, type-less Service with one port passes', () => {
  assert.equal(found(service({ selector: { app: 'web' }, ports: [{ port: 80 }] })), []);
  assert.equal(found(service({ clusterIP: 'None', selector: { app: 'web' } })), []);
  assert.equal(
    found(service({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ name: 'https', port: 443 }] })),
    [],
  );
  assert.equal(found(service({ type: 'ExternalName', externalName: 'db.example.com.' })), []);
});

test('a Service kube-apiserver refuses: ports, type rules, traffic policies, cluster IPs, source ranges', () => {
  assert.equal(
    found(
      service({
        ports: [{ port: 80 }, { name: 'HTTPS', port: 443, nodePort: 30001 }],
        externalTrafficPolicy: 'Local',
      }),
    ),
    [
      'spec.ports.0.name | kube-apiserver refuses this Service: spec.ports[0].name: Required value',
      `spec.ports.1.name | kube-apiserver refuses this Service: spec.ports[1].name: Invalid value: "HTTPS": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      "spec.ports.1.nodePort | kube-apiserver refuses this Service: spec.ports[1].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
      'spec.externalTrafficPolicy | kube-apiserver refuses this Service: spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
    ],
  );
  assert.equal(
    found(
      service({
        type: 'NodePort',
        clusterIP: 'None',
        loadBalancerSourceRanges: ['10.0.0.0/33'],
        ports: [
          { name: 'a', port: 80 },
          { name: 'b', port: 80 },
        ],
      }),
    ),
    [
      `spec.clusterIPs.0 | kube-apiserver refuses this Service: spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for NodePort services`,
      'spec.ports.1 | kube-apiserver refuses this Service: spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
      "spec.loadBalancerSourceRanges | kube-apiserver refuses this Service: spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
      'spec.loadBalancerSourceRanges.0 | kube-apiserver refuses this Service: spec.LoadBalancerSourceRanges[0]: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ],
  );
  // The registry refuses cluster IPs before it allocates, alone: the type is not validated then.
  assert.equal(found(service({ type: 'Balanced', clusterIP: '10.0.0.300', ports: [{ port: 80 }] })), [
    'spec.clusterIPs.0 | kube-apiserver refuses this Service: spec.clusterIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
  ]);
  assert.equal(found(service({ type: 'Balanced', ports: [{ port: 80 }] })), [
    'spec.type | kube-apiserver refuses this Service: spec.type: Unsupported value: "Balanced": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
  ]);
});

test('a Service is read as the registry normalizes it on create: clusterIPs without clusterIP are refused, not synced', () => {
  assert.equal(found(service({ clusterIPs: ['10.96.0.10'], ports: [{ port: 80 }] })), [
    'spec.clusterIPs | kube-apiserver refuses this Service: spec.clusterIPs: Invalid value: []string{"10.96.0.10"}: must be empty when `clusterIP` is not specified',
  ]);
  assert.equal(found(service({ clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ports: [{ port: 80 }] })), []);
});

test('external IPs make only a ClusterIP Service externally accessible: an ExternalName one gets no traffic policy', () => {
  assert.equal(
    found(service({ type: 'ExternalName', externalName: 'db.example.com', externalIPs: ['192.0.2.10'] })),
    [],
  );
});

test('a Service port left out is reported at the port and at the targetPort it defaults, as kube-apiserver does', () => {
  assert.equal(found(service({ ports: [{ name: 'http' }] })), [
    'spec.ports.0.port | kube-apiserver refuses this Service: spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
    'spec.ports.0.targetPort | kube-apiserver refuses this Service: spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
  ]);
});

test('three cluster IPs of both families are too many, not of one family', () => {
  const ips = ['10.96.0.10', '10.96.0.11', 'fd00::10'];
  assert.equal(
    found(service({ clusterIP: ips[0], clusterIPs: ips, ipFamilyPolicy: 'RequireDualStack', ports: [{ port: 80 }] })),
    [
      'spec.clusterIPs | kube-apiserver refuses this Service: spec.clusterIPs: Invalid value: []string{"10.96.0.10", "10.96.0.11", "fd00::10"}: may only hold up to 2 values',
    ],
  );
});

test('ConfigMap and Secret keys, and the keys a Secret type requires, stringData included', () => {
  assert.equal(
    found({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
      data: { 'app.yaml': 'a: 1', 'bad key': 'x' },
    }),
    [
      `data.bad key | kube-apiserver refuses this ConfigMap: data[bad key]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    ],
  );
  const tls = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 't' }, type: 'kubernetes.io/tls' };
  assert.equal(found({ ...tls, stringData: { 'tls.crt': 'c', 'tls.key': 'k' } }), []);
  assert.equal(found({ ...tls, stringData: { 'tls.crt': 'c' } }), [
    'data.tls.key | kube-apiserver refuses this Secret: data[tls.key]: Required value',
  ]);
});

test('Ingress rules, paths and backends; NetworkPolicy peers and ports; a PodDisruptionBudget; a RoleBinding', () => {
  const backend = { service: { name: 'web', port: { number: 80 } } };
  assert.equal(
    found({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'i' },
      spec: {
        rules: [
          { host: '*.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } },
          {
            host: 'Example.com',
            http: {
              paths: [
                { path: 'x', backend },
                { path: '/a//b', pathType: 'Exact', backend },
              ],
            },
          },
        ],
      },
    }),
    [
      `spec.rules.1.host | kube-apiserver refuses this Ingress: spec.rules[1].host: Invalid value: "Example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      'spec.rules.1.http.paths.0.pathType | kube-apiserver refuses this Ingress: spec.rules[1].http.paths[0].pathType: Required value: pathType must be specified',
      `spec.rules.1.http.paths.1.path | kube-apiserver refuses this Ingress: spec.rules[1].http.paths[1].path: Invalid value: "/a//b": must not contain '//'`,
    ],
  );
  assert.equal(
    found({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'n' },
      spec: {
        podSelector: {},
        ingress: [
          {
            from: [{ ipBlock: { cidr: '10.0.0.0/16', except: ['10.1.0.0/24', '10.0.1.0/24'] } }, {}],
            ports: [{ port: 'http', endPort: 90 }],
          },
        ],
      },
    }),
    [
      'spec.ingress.0.ports.0.endPort | kube-apiserver refuses this NetworkPolicy: spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
      'spec.ingress.0.from.0.ipBlock.except.0 | kube-apiserver refuses this NetworkPolicy: spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "10.1.0.0/24": must be a strict subset of `cidr`',
      'spec.ingress.0.from.1 | kube-apiserver refuses this NetworkPolicy: spec.ingress[0].from[1]: Required value: must specify a peer',
    ],
  );
  assert.equal(
    found({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'p' },
      spec: { maxUnavailable: '120%', selector: { matchExpressions: [{ key: 'app', operator: 'In' }] } },
    }),
    [
      'spec.maxUnavailable | kube-apiserver refuses this PodDisruptionBudget: spec.maxUnavailable: Invalid value: "120%": must not be greater than 100%',
      "spec.selector.matchExpressions.0.values | kube-apiserver refuses this PodDisruptionBudget: spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ],
  );
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'b' },
    roleRef: { kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'Group', name: 'devs' }],
  };
  assert.equal(found(binding), []);
  assert.equal(found({ ...binding, subjects: [{ kind: 'ServiceAccount', name: 'default' }] }), [
    'subjects.0.namespace | kube-apiserver refuses this ClusterRoleBinding: subjects[0].namespace: Required value',
  ]);
});

test('HPAs, claims, namespaces, limit ranges, quotas and class kinds are validated, each at its line', () => {
  assert.equal(
    found({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 3, maxReplicas: 2 },
    }),
    [
      'spec.maxReplicas | kube-apiserver refuses this HorizontalPodAutoscaler: spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`',
    ],
  );
  const claim = {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '0' } } },
  };
  assert.equal(found(claim), [
    'spec.resources.requests.storage | kube-apiserver refuses this PersistentVolumeClaim: spec.resources[storage]: Invalid value: "0": must be greater than zero',
  ]);
  assert.equal(
    validateBuiltinKinds(claim)[0]?.fix,
    'request a size above zero at spec.resources.requests.storage, e.g. 1Gi',
  );
  assert.equal(found({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' }, spec: { finalizers: ['x'] } }), [
    'spec.finalizers.0 | kube-apiserver refuses this Namespace: spec.finalizers: Invalid value: "x": name is neither a standard finalizer name nor is it fully qualified',
  ]);
  assert.equal(
    found({
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'a' },
      spec: { limits: [{ type: 'Container', max: { cpu: '1' }, defaultRequest: { cpu: '2' } }] },
    }),
    [
      'spec.limits.0.defaultRequest.cpu | kube-apiserver refuses this LimitRange: spec.limits[0].defaultRequest[cpu]: Invalid value: 2: default request value 2 is greater than max value 1',
      'spec.limits.0.defaultRequest.cpu | kube-apiserver refuses this LimitRange: spec.limits[0].defaultRequest[cpu]: Invalid value: 2: default request value 2 is greater than default limit value 1',
    ],
  );
  assert.equal(
    found({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'a' }, spec: { hard: { pods: '-1' } } }),
    [
      'spec.hard.pods | kube-apiserver refuses this ResourceQuota: spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0',
    ],
  );
  assert.equal(
    found({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-x' }, value: 1 }),
    [
      "metadata.name | kube-apiserver refuses this PriorityClass: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-x is not a known system priority class",
    ],
  );
  assert.equal(found({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'a' } }), [
    'provisioner | kube-apiserver refuses this StorageClass: provisioner: Required value',
  ]);
});

test('an autoscaling/v1 HPA is validated as converted, its cpu target located at targetCPUUtilizationPercentage', () => {
  const hpa = (spec: Record<string, unknown>) => ({
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 4, ...spec },
  });
  assert.equal(found(hpa({ targetCPUUtilizationPercentage: 80 })), []);
  assert.equal(found(hpa({})), []);
  assert.equal(found(hpa({ targetCPUUtilizationPercentage: 0 })), [
    'spec.targetCPUUtilizationPercentage | kube-apiserver refuses this HorizontalPodAutoscaler: spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
  ]);
});

test('an Ingress host that ParseIPSloppy reads as an IP (leading zeros too) is refused; a resource backend is checked apiGroup first', () => {
  const backend = { service: { name: 'web', port: { number: 80 } } };
  const ingress = (spec: Record<string, unknown>) => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'i' },
    spec,
  });
  assert.equal(
    found(ingress({ rules: [{ host: '010.1.2.3', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }] })),
    [
      'spec.rules.0.host | kube-apiserver refuses this Ingress: spec.rules[0].host: Invalid value: "010.1.2.3": must be a DNS name, not an IP address',
    ],
  );
  assert.equal(found(ingress({ defaultBackend: { resource: { apiGroup: 'Storage', name: 'assets' } } })), [
    `spec.defaultBackend.resource.apiGroup | kube-apiserver refuses this Ingress: spec.defaultBackend.resource.apiGroup: Invalid value: "Storage": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    'spec.defaultBackend.resource.kind | kube-apiserver refuses this Ingress: spec.defaultBackend.resource.kind: Required value',
  ]);
});

test('a NetworkPolicy ipBlock except must be a strict subset of its cidr in IPv6 as in IPv4', () => {
  const policy = (cidr: string, except: string[]) => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'n' },
    spec: { podSelector: {}, egress: [{ to: [{ ipBlock: { cidr, except } }] }] },
  });
  assert.equal(found(policy('2001:db8::/32', ['2001:db8:1::/48'])), []);
  assert.equal(found(policy('010.0.0.0/8', ['10.1.0.0/16'])), []);
  assert.equal(
    found(policy('2001:db8::/32', ['2001:db9::/48', '2001:db8::/32', '10.0.0.0/8'])).map(
      (m) => m.split(': ').slice(-1)[0],
    ),
    ['must be a strict subset of `cidr`', 'must be a strict subset of `cidr`', 'must be a strict subset of `cidr`'],
  );
});

test('two IP families or cluster IPs need a dual-stack policy: SingleStack, given or defaulted, is refused before allocation', () => {
  assert.equal(found(service({ ipFamilies: ['IPv4', 'IPv6'], ports: [{ port: 80 }] })), [
    `spec.ipFamilyPolicy | kube-apiserver refuses this Service: spec.ipFamilyPolicy: Invalid value: "SingleStack": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified`,
  ]);
  assert.equal(
    found(service({ ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'PreferDualStack', ports: [{ port: 80 }] })),
    [],
  );
  // A headless Service without a selector defaults to RequireDualStack.
  assert.equal(found(service({ clusterIP: 'None', ipFamilies: ['IPv4', 'IPv6'] })), []);
});

test.run();
