import { isIP } from 'node:net';
import {
  type KubeViolation,
  dns1123LabelProblems,
  dns1123SubdomainProblems,
  duplicate,
  entries,
  forbidden,
  invalid,
  isObject,
  isSet,
  configMapKeyProblems,
  keyed,
  labelsViolations,
  list,
  notSupported,
  portNumOrNameViolations,
  portNumberProblem,
  qualifiedNameViolations,
  required,
  tooLong,
  type Json,
} from './fieldViolations.ts';
import { ipViolations, parsesAsIP } from './ipAddresses.ts';
import { goStringSliceText } from '../text/goSyntax.ts';

// What kube-apiserver 1.32 refuses in a core/v1 Service, ConfigMap or Secret being created (pkg/apis/core/validation:
// ValidateService with ValidateServiceClusterIPsRelatedFields, validateServicePort and the traffic policy checks;
// ValidateConfigMap; ValidateSecret), in its field paths and words. Each reads the object as the API server holds
// it when it validates: defaulted (SetDefaults_Service: type, sessionAffinity, protocols, targetPorts, traffic
// policies) and, for a Service, its clusterIP and clusterIPs synced (the strategy's PrepareForCreate).

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const AFFINITIES = ['ClientIP', 'None'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
const IP_FAMILIES = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const MAX_AFFINITY_SECONDS = 86400;
const TOPOLOGY_MODE = 'service.kubernetes.io/topology-mode';
const TOPOLOGY_HINTS = 'service.kubernetes.io/topology-aware-hints';
const SOURCE_RANGES = 'service.beta.kubernetes.io/load-balancer-source-ranges';

/** netutils.ParseCIDRSloppy: the address (an IPv4 one without leading zeros), its family and prefix length. */
export function parseCIDR(value: string): { ip: string; family: 'ipv4' | 'ipv6'; bits: number } | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const ip = value.slice(0, slash);
  const bits = value.slice(slash + 1);
  if (!/^\d+$/.test(bits) || !parsesAsIP(ip)) return undefined;
  const family = ip.includes(':') ? 'ipv6' : 'ipv4';
  if (Number(bits) > (family === 'ipv6' ? 128 : 32)) return undefined;
  return { ip: family === 'ipv6' ? ip : ip.split('.').map(Number).join('.'), family, bits: Number(bits) };
}

const parsesAsCIDR = (value: string) => parseCIDR(value) !== undefined;

export const cidrViolations = (at: (string | number)[], value: string, field?: string) =>
  parsesAsCIDR(value)
    ? []
    : [
        invalid(
          field ? { path: at, field } : at,
          value,
          'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
        ),
      ];

/** ValidateNonSpecialIP. */
function specialIPViolations(at: (string | number)[], ip: string): KubeViolation[] {
  const v4 = ip.includes(':') ? undefined : ip.split('.').map(Number);
  const lower = ip.toLowerCase();
  if (v4 ? v4.every((o) => o === 0) : /^[:0]+$/.test(lower))
    return [invalid(at, ip, 'may not be unspecified (0.0.0.0, ::)')];
  if (v4 ? v4[0] === 127 : lower === '::1')
    return [invalid(at, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)')];
  if (v4 ? v4[0] === 169 && v4[1] === 254 : /^fe[89ab]/.test(lower))
    return [invalid(at, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)')];
  if (v4 ? v4[0] === 224 && v4[1] === 0 && v4[2] === 0 : /^ff02:/.test(lower))
    return [invalid(at, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)')];
  return [];
}

const isHeadless = (spec: Json) => list(spec.clusterIPs).length === 1 && spec.clusterIPs[0] === 'None';

/** Go's %#v of the core.ServicePort key the API server reports a duplicate port with. */
const servicePortKeyText = (protocol: unknown, port: unknown) =>
  `core.ServicePort{Name:"", Protocol:${JSON.stringify(String(protocol ?? ''))}, AppProtocol:(*string)(nil), Port:${Number(port ?? 0)}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`;

/**
 * validateServicePort's checks, on ports as SetDefaults_Service leaves them: an unset targetPort is the port, so a
 * port left out (0) is reported at both.
 */
function servicePortViolations(ports: Json[]): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const at = ['spec', 'ports', i];
    if (ports.length > 1 && !port?.name) errors.push(required([...at, 'name']));
    else if (port?.name) {
      for (const p of dns1123LabelProblems(port.name)) errors.push(invalid([...at, 'name'], port.name, p));
      if (names.has(port.name)) errors.push(duplicate([...at, 'name'], port.name));
      names.add(port.name);
    }
    const problem = portNumberProblem(port?.port);
    if (problem) errors.push(invalid([...at, 'port'], port?.port ?? 0, problem));
    if (!port?.protocol) errors.push(required([...at, 'protocol']));
    else if (!PROTOCOLS.includes(port.protocol))
      errors.push(notSupported([...at, 'protocol'], port.protocol, PROTOCOLS));
    errors.push(...portNumOrNameViolations([...at, 'targetPort'], port?.targetPort ?? 0));
    if (typeof port?.appProtocol === 'string')
      errors.push(...qualifiedNameViolations([...at, 'appProtocol'], port.appProtocol));
  });
  return errors;
}

/**
 * What the registry refuses before it allocates a Service's cluster IPs (initIPFamilyFields), alone: its cluster IP
 * fields (ValidateServiceClusterIPsRelatedFields), then a single-stack policy, given or defaulted, with two cluster IPs
 * or families. Whether a family is configured on the cluster is the cluster's, and not judged here.
 */
function familyFieldViolations(spec: Json): KubeViolation[] {
  if (spec.type === 'ExternalName') return [];
  const errors = clusterIPsViolations(spec);
  if (errors.length > 0) return errors;
  const selectorless = !isObject(spec.selector) || Object.keys(spec.selector).length === 0;
  const policy =
    spec.ipFamilyPolicy ?? (spec.clusterIP === 'None' && selectorless ? 'RequireDualStack' : 'SingleStack');
  if (policy !== 'SingleStack') return errors;
  for (const [values, what] of [
    [spec.clusterIPs, 'cluster IPs'],
    [spec.ipFamilies, 'IP families'],
  ] as const)
    if (list(values).length === 2)
      errors.push(
        invalid(
          ['spec', 'ipFamilyPolicy'],
          policy,
          `must be 'RequireDualStack' or 'PreferDualStack' when multiple ${what} are specified`,
        ),
      );
  return errors;
}

/** ValidateService on create, but for the name (the object's metadata is validated apart) and its ports (above). */
export function serviceSpecViolations(service: Json): KubeViolation[] {
  const spec = isObject(service?.spec) ? service.spec : {};
  // The registry's own refusal comes first, and alone: validation runs only on what it allocated.
  const registry = familyFieldViolations(spec);
  if (registry.length > 0) return registry;
  const annotations = isObject(service?.metadata?.annotations) ? service.metadata.annotations : {};
  const errors: KubeViolation[] = [];
  if (
    isSet(annotations[TOPOLOGY_MODE]) &&
    isSet(annotations[TOPOLOGY_HINTS]) &&
    annotations[TOPOLOGY_MODE] !== annotations[TOPOLOGY_HINTS]
  )
    errors.push(
      invalid(
        { path: ['metadata', 'annotations', TOPOLOGY_MODE], field: `metadata.annotations[${TOPOLOGY_MODE}]` },
        annotations[TOPOLOGY_MODE],
        `must match annotations[${TOPOLOGY_HINTS}] when both are specified`,
      ),
    );
  const ports = list(spec.ports);
  const type = spec.type;
  if (ports.length === 0 && !isHeadless(spec) && type !== 'ExternalName') errors.push(required(['spec', 'ports']));
  if ((type === 'LoadBalancer' || type === 'NodePort') && isHeadless(spec))
    errors.push(invalid(['spec', 'clusterIPs', 0], 'None', `may not be set to 'None' for ${type} services`));
  if (type === 'ExternalName') {
    if (list(spec.clusterIPs).length > 0)
      errors.push(forbidden(['spec', 'clusterIPs'], 'may not be set for ExternalName services'));
    if (list(spec.ipFamilies).length > 0)
      errors.push(forbidden(['spec', 'ipFamilies'], 'may not be set for ExternalName services'));
    if (isSet(spec.ipFamilyPolicy))
      errors.push(forbidden(['spec', 'ipFamilyPolicy'], 'may not be set for ExternalName services'));
    const cname = String(spec.externalName ?? '').replace(/\.$/, '');
    if (cname)
      for (const p of dns1123SubdomainProblems(cname)) errors.push(invalid(['spec', 'externalName'], cname, p));
    else errors.push(required(['spec', 'externalName']));
  }
  errors.push(...servicePortViolations(ports));
  if (isObject(spec.selector)) errors.push(...labelsViolations(['spec', 'selector'], spec.selector));
  if (!spec.sessionAffinity) errors.push(required(['spec', 'sessionAffinity']));
  else if (!AFFINITIES.includes(spec.sessionAffinity))
    errors.push(notSupported(['spec', 'sessionAffinity'], spec.sessionAffinity, AFFINITIES));
  if (spec.sessionAffinity === 'ClientIP') errors.push(...clientIPAffinityViolations(spec.sessionAffinityConfig));
  else if (spec.sessionAffinity === 'None' && isSet(spec.sessionAffinityConfig))
    errors.push(forbidden(['spec', 'sessionAffinityConfig'], 'must not be set when session affinity is None'));
  errors.push(...clusterIPsViolations(spec));
  list(spec.externalIPs).forEach((ip, i) => {
    const at = ['spec', 'externalIPs', i];
    const bad = ipViolations(at, String(ip));
    errors.push(...(bad.length > 0 ? bad : specialIPViolations(at, String(ip))));
  });
  if (!type) errors.push(required(['spec', 'type']));
  else if (!SERVICE_TYPES.includes(type)) errors.push(notSupported(['spec', 'type'], type, SERVICE_TYPES));
  if (type === 'ClusterIP')
    ports.forEach((port, i) => {
      if (port?.nodePort)
        errors.push(forbidden(['spec', 'ports', i, 'nodePort'], "may not be used when `type` is 'ClusterIP'"));
    });
  // Ports are few: each is compared with those before it.
  const earlier = (i: number, same: (a: Json, b: Json) => boolean) =>
    ports.slice(0, i).some((other) => same(other, ports[i]));
  ports.forEach((port, i) => {
    if (port?.nodePort && earlier(i, (a, b) => a?.nodePort === b.nodePort && a?.protocol === b.protocol))
      errors.push(duplicate(['spec', 'ports', i, 'nodePort'], port.nodePort));
  });
  ports.forEach((port, i) => {
    if (earlier(i, (a, b) => a?.port === b?.port && a?.protocol === b?.protocol))
      errors.push(duplicate(['spec', 'ports', i], undefined, servicePortKeyText(port?.protocol, port?.port)));
  });
  errors.push(...sourceRangeViolations(spec, annotations));
  if (isSet(spec.allocateLoadBalancerNodePorts) && type !== 'LoadBalancer')
    errors.push(forbidden(['spec', 'allocateLoadBalancerNodePorts'], "may only be used when `type` is 'LoadBalancer'"));
  if (type === 'LoadBalancer' && !isSet(spec.allocateLoadBalancerNodePorts))
    errors.push(required(['allocateLoadBalancerNodePorts']));
  if (isSet(spec.loadBalancerClass)) {
    if (type !== 'LoadBalancer')
      errors.push(forbidden(['spec', 'loadBalancerClass'], "may only be used when `type` is 'LoadBalancer'"));
    else errors.push(...qualifiedNameViolations(['spec', 'loadBalancerClass'], String(spec.loadBalancerClass)));
  }
  errors.push(...trafficPolicyViolations(spec));
  return errors;
}

function clientIPAffinityViolations(config: Json): KubeViolation[] {
  const at = ['spec', 'sessionAffinityConfig'];
  const when = 'when session affinity type is ClientIP';
  if (!isSet(config)) return [required(at, when)];
  if (!isSet(config.clientIP)) return [required([...at, 'clientIP'], when)];
  const timeout = config.clientIP.timeoutSeconds;
  if (!isSet(timeout)) return [required([...at, 'clientIP', 'timeoutSeconds'], when)];
  return timeout <= 0 || timeout > MAX_AFFINITY_SECONDS
    ? [
        invalid(
          [...at, 'clientIP', 'timeoutSeconds'],
          timeout,
          `must be greater than 0 and less than ${MAX_AFFINITY_SECONDS}`,
        ),
      ]
    : [];
}

/** ValidateServiceClusterIPsRelatedFields. */
function clusterIPsViolations(spec: Json): KubeViolation[] {
  if (spec.type === 'ExternalName') return [];
  const errors: KubeViolation[] = [];
  const clusterIPs = list(spec.clusterIPs).map(String);
  const at = ['spec', 'clusterIPs'];
  if (spec.clusterIP) {
    if (clusterIPs.length === 0) errors.push(required(at));
    else if (clusterIPs[0] !== spec.clusterIP)
      errors.push(invalid(at, undefined, 'first value must match `clusterIP`', goStringSliceText(clusterIPs)));
  } else if (clusterIPs.length > 0)
    errors.push(
      invalid(at, undefined, 'must be empty when `clusterIP` is not specified', goStringSliceText(clusterIPs)),
    );
  const families = list(spec.ipFamilies);
  families.forEach((family, i) => {
    if (!IP_FAMILIES.includes(family)) errors.push(notSupported(['spec', 'ipFamilies', i], family, IP_FAMILIES));
    if (families.indexOf(family) < i) errors.push(duplicate(['spec', 'ipFamilies', i], family));
  });
  if (isSet(spec.ipFamilyPolicy) && !IP_FAMILY_POLICIES.includes(spec.ipFamilyPolicy))
    errors.push(notSupported(['spec', 'ipFamilyPolicy'], spec.ipFamilyPolicy, IP_FAMILY_POLICIES));
  let badIPs = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (clusterIPs.length > 1) {
        badIPs = true;
        errors.push(invalid(at, undefined, "'None' must be the first and only value", goStringSliceText(clusterIPs)));
      }
      return;
    }
    const bad = ipViolations([...at, i], ip);
    badIPs ||= bad.length > 0;
    errors.push(...bad);
  });
  if (clusterIPs.length > 2)
    errors.push(invalid(at, undefined, 'may only hold up to 2 values', goStringSliceText(clusterIPs)));
  if (badIPs) return errors;
  // IsDualStackIPStrings: at least one IP of each family, however many there are.
  const v6 = clusterIPs.filter((ip) => ip.includes(':')).length;
  if (clusterIPs.length > 1 && (v6 === 0 || v6 === clusterIPs.length))
    errors.push(
      invalid(at, undefined, 'may specify no more than one IP for each IP family', goStringSliceText(clusterIPs)),
    );
  if (!isHeadless(spec))
    clusterIPs.forEach((ip, i) => {
      if (i >= families.length) return;
      const v6 = isIP(ip) === 6;
      if (families[i] === 'IPv4' && v6)
        errors.push(invalid([...at, i], ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && !v6)
        errors.push(invalid([...at, i], ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  return errors;
}

function sourceRangeViolations(spec: Json, annotations: Record<string, Json>): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const notLoadBalancer = spec.type !== 'LoadBalancer';
  const ranges = list(spec.loadBalancerSourceRanges);
  if (ranges.length > 0) {
    // The API server names this field with a capital L.
    const field = 'spec.LoadBalancerSourceRanges';
    if (notLoadBalancer)
      errors.push(
        forbidden(
          { path: ['spec', 'loadBalancerSourceRanges'], field },
          "may only be used when `type` is 'LoadBalancer'",
        ),
      );
    ranges.forEach((value, i) =>
      errors.push(...cidrViolations(['spec', 'loadBalancerSourceRanges', i], String(value).trim(), `${field}[${i}]`)),
    );
  } else if (isSet(annotations[SOURCE_RANGES])) {
    const at = keyed(['metadata', 'annotations'], SOURCE_RANGES);
    if (notLoadBalancer) errors.push(forbidden(at, "may only be used when `type` is 'LoadBalancer'"));
    const value = String(annotations[SOURCE_RANGES]).trim();
    if (value !== '')
      for (const cidr of value.split(',')) errors.push(...cidrViolations(at.path, cidr.trim(), at.field));
  }
  return errors;
}

/** validateServiceExternalTrafficPolicy, validateServiceInternalTrafficFieldsValue, validateServiceTrafficDistribution. */
function trafficPolicyViolations(spec: Json): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const externallyAccessible =
    spec.type === 'LoadBalancer' ||
    spec.type === 'NodePort' ||
    (spec.type === 'ClusterIP' && list(spec.externalIPs).length > 0);
  const policy = spec.externalTrafficPolicy;
  if (!externallyAccessible) {
    if (policy)
      errors.push(
        invalid(['spec', 'externalTrafficPolicy'], policy, 'may only be set for externally-accessible services'),
      );
  } else if (!policy) errors.push(required(['spec', 'externalTrafficPolicy']));
  else if (!TRAFFIC_POLICIES.includes(policy))
    errors.push(notSupported(['spec', 'externalTrafficPolicy'], policy, TRAFFIC_POLICIES));
  const needsHealthCheck = spec.type === 'LoadBalancer' && policy === 'Local';
  const healthCheck = spec.healthCheckNodePort;
  if (!needsHealthCheck) {
    if (healthCheck)
      errors.push(
        invalid(
          ['spec', 'healthCheckNodePort'],
          healthCheck,
          "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        ),
      );
  } else if (healthCheck) {
    const problem = portNumberProblem(healthCheck);
    if (problem) errors.push(invalid(['spec', 'healthCheckNodePort'], healthCheck, problem));
  }
  const internal = spec.internalTrafficPolicy;
  if (!isSet(internal) && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(spec.type))
    errors.push(required(['spec', 'internalTrafficPolicy']));
  if (isSet(internal) && !TRAFFIC_POLICIES.includes(internal))
    errors.push(notSupported(['spec', 'internalTrafficPolicy'], internal, TRAFFIC_POLICIES));
  if (isSet(spec.trafficDistribution) && spec.trafficDistribution !== 'PreferClose')
    errors.push(notSupported(['spec', 'trafficDistribution'], spec.trafficDistribution, ['PreferClose']));
  return errors;
}

const MAX_CONFIG_BYTES = 1024 * 1024;
const decodedLength = (value: unknown) => Buffer.from(String(value ?? ''), 'base64').length;

/** ValidateSecret (its metadata apart), on the Secret as stored: stringData already merged into data. */
export function secretViolations(secret: Json): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const data = Object.fromEntries(entries(secret?.data));
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const problem of configMapKeyProblems(key)) errors.push(invalid(keyed(['data'], key), key, problem));
    size += decodedLength(value);
  }
  if (size > MAX_CONFIG_BYTES) errors.push(tooLong(['data'], MAX_CONFIG_BYTES));
  const has = (key: string) => Object.hasOwn(data, key);
  const jsonProblem = (key: string): KubeViolation | undefined => {
    try {
      const parsed = JSON.parse(Buffer.from(String(data[key] ?? ''), 'base64').toString('utf8'));
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new Error('json: cannot unmarshal into Go value of type map[string]interface {}');
      return undefined;
    } catch (error) {
      return invalid(keyed(['data'], key), undefined, (error as Error).message, '"<secret contents redacted>"');
    }
  };
  switch (secret?.type) {
    case 'kubernetes.io/service-account-token':
      if (!secret.metadata?.annotations?.['kubernetes.io/service-account.name'])
        errors.push(required(keyed(['metadata', 'annotations'], 'kubernetes.io/service-account.name')));
      break;
    case 'kubernetes.io/dockercfg':
    case 'kubernetes.io/dockerconfigjson': {
      const key = secret.type === 'kubernetes.io/dockercfg' ? '.dockercfg' : '.dockerconfigjson';
      const problem = has(key) ? jsonProblem(key) : required(keyed(['data'], key));
      if (problem) errors.push(problem);
      break;
    }
    // The API server builds these two paths from a literal "data[%s]", and so they read.
    case 'kubernetes.io/basic-auth':
      if (!has('username') && !has('password'))
        errors.push(
          required({ path: ['data'], field: 'data[%s][username]' }),
          required({ path: ['data'], field: 'data[%s][password]' }),
        );
      break;
    case 'kubernetes.io/ssh-auth':
      if (decodedLength(data['ssh-privatekey']) === 0)
        errors.push(required({ path: ['data'], field: 'data[%s][ssh-privatekey]' }));
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) errors.push(required(keyed(['data'], 'tls.crt')));
      if (!has('tls.key')) errors.push(required(keyed(['data'], 'tls.key')));
      break;
  }
  return errors;
}

/** ValidateConfigMap (its metadata apart). */
export function configMapViolations(configMap: Json): KubeViolation[] {
  const errors: KubeViolation[] = [];
  let size = 0;
  const dataKeys = new Set<string>();
  const data = isObject(configMap?.data) ? configMap.data : {};
  for (const key in data) {
    const value = data[key];
    for (const problem of configMapKeyProblems(key)) errors.push(invalid(keyed(['data'], key), key, problem));
    dataKeys.add(key);
    size += Buffer.byteLength(String(value ?? ''));
  }
  for (const [key, value] of entries(configMap?.binaryData)) {
    const at = keyed(['binaryData'], key);
    for (const problem of configMapKeyProblems(key)) errors.push(invalid(at, key, problem));
    if (dataKeys.has(key)) errors.push(invalid(at, key, 'duplicate of key present in data'));
    size += decodedLength(value);
  }
  if (size > MAX_CONFIG_BYTES) errors.push(tooLong({ path: [], field: '' }, MAX_CONFIG_BYTES));
  return errors;
}
