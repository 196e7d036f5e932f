import { BlockList } from 'node:net';
import { cidrViolations, parseCIDR } from './coreRules.ts';
import { parsesAsIP } from './ipAddresses.ts';
import { goStringSliceText } from '../text/goSyntax.ts';
import {
  type Json,
  type KubeViolation,
  dns1035LabelProblems,
  dns1123LabelProblems,
  dns1123SubdomainProblems,
  domainPrefixedPathErrors,
  forbidden,
  invalid,
  isObject,
  isSet,
  labelSelectorViolations,
  list,
  notSupported,
  pathSegmentProblems,
  portNameProblems,
  portNumberProblem,
  required,
  tooLong,
  wildcardSubdomainProblems,
} from './fieldViolations.ts';

// What kube-apiserver 1.32 refuses in a networking.k8s.io/v1 Ingress, IngressClass or NetworkPolicy being created
// (pkg/apis/networking/validation: ValidateIngressCreate, ValidateIngressClass, ValidateNetworkPolicy), in its field
// paths and words, on the object as defaulted (an IngressClass's parameters.scope).

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const BAD_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const BAD_PATH_SUFFIXES = ['/..', '/.'];
const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';
const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];

/** validateIngressTypedLocalObjectReference: a backend's resource, an IngressClass's parameters. */
function ingressTypedReferenceViolations(ref: Json, at: (string | number)[]): KubeViolation[] {
  const errors: KubeViolation[] = [];
  if (isSet(ref?.apiGroup))
    for (const p of dns1123SubdomainProblems(String(ref.apiGroup)))
      errors.push(invalid([...at, 'apiGroup'], ref.apiGroup, p));
  for (const key of ['kind', 'name']) {
    if (!ref?.[key]) errors.push(required([...at, key]));
    else for (const p of pathSegmentProblems(String(ref[key]))) errors.push(invalid([...at, key], ref[key], p));
  }
  return errors;
}

function backendViolations(backend: Json, at: (string | number)[]): KubeViolation[] {
  const hasResource = isSet(backend?.resource);
  const service = backend?.service;
  if (hasResource && isSet(service)) return [invalid(at, '', 'cannot set both resource and service backends')];
  if (hasResource) return ingressTypedReferenceViolations(backend.resource, [...at, 'resource']);
  if (!isSet(service)) return [invalid(at, '', 'resource or service backend is required')];
  const errors: KubeViolation[] = [];
  if (!service.name) errors.push(required([...at, 'service', 'name']));
  else
    for (const p of dns1035LabelProblems(String(service.name)))
      errors.push(invalid([...at, 'service', 'name'], service.name, p));
  const portName = service.port?.name;
  const portNumber = service.port?.number;
  if (portName && portNumber) errors.push(invalid(at, '', 'cannot set both port name & port number'));
  else if (portName)
    for (const p of portNameProblems(String(portName)))
      errors.push(invalid([...at, 'service', 'port', 'name'], portName, p));
  else if (portNumber) {
    const problem = portNumberProblem(portNumber);
    if (problem) errors.push(invalid([...at, 'service', 'port', 'number'], portNumber, problem));
  } else errors.push(required(at, 'port name or number is required'));
  return errors;
}

function hostViolations(host: string, at: (string | number)[]): KubeViolation[] {
  const problems = host.includes('*') ? wildcardSubdomainProblems(host) : dns1123SubdomainProblems(host);
  return problems.map((p) => invalid(at, host, p));
}

function pathViolations(path: Json, at: (string | number)[]): KubeViolation[] {
  const errors: KubeViolation[] = [];
  if (!isSet(path?.pathType)) return [required([...at, 'pathType'], 'pathType must be specified')];
  const value = typeof path.path === 'string' ? path.path : '';
  const absolute = () => invalid([...at, 'path'], value, 'must be an absolute path');
  switch (path.pathType) {
    case 'Exact':
    case 'Prefix':
      if (!value.startsWith('/')) errors.push(absolute());
      for (const s of value ? BAD_PATH_SEQUENCES : [])
        if (value.includes(s)) errors.push(invalid([...at, 'path'], value, `must not contain '${s}'`));
      for (const s of value ? BAD_PATH_SUFFIXES : [])
        if (value.endsWith(s)) errors.push(invalid([...at, 'path'], value, `cannot end with '${s}'`));
      break;
    case 'ImplementationSpecific':
      if (value && !value.startsWith('/')) errors.push(absolute());
      break;
    default:
      errors.push(notSupported([...at, 'pathType'], path.pathType, PATH_TYPES));
  }
  errors.push(...backendViolations(path.backend, [...at, 'backend']));
  return errors;
}

/** ValidateIngressCreate, its metadata apart. */
export function ingressViolations(ingress: Json): KubeViolation[] {
  const spec = isObject(ingress?.spec) ? ingress.spec : {};
  const errors: KubeViolation[] = [];
  const rules = list(spec.rules);
  if (rules.length === 0 && !isSet(spec.defaultBackend))
    errors.push(
      invalid(
        ['spec'],
        undefined,
        'either `defaultBackend` or `rules` must be specified',
        Array.isArray(spec.rules) ? '[]networking.IngressRule{}' : '[]networking.IngressRule(nil)',
      ),
    );
  if (isSet(spec.defaultBackend)) errors.push(...backendViolations(spec.defaultBackend, ['spec', 'defaultBackend']));
  rules.forEach((rule, i) => {
    const at = ['spec', 'rules', i];
    const host = typeof rule?.host === 'string' ? rule.host : '';
    if (host) {
      if (parsesAsIP(host)) errors.push(invalid([...at, 'host'], host, 'must be a DNS name, not an IP address'));
      errors.push(...hostViolations(host, [...at, 'host']));
    }
    if (isSet(rule?.http)) {
      const paths = list(rule.http.paths);
      if (paths.length === 0) errors.push(required([...at, 'http', 'paths']));
      paths.forEach((path, j) => errors.push(...pathViolations(path, [...at, 'http', 'paths', j])));
    }
  });
  list(spec.tls).forEach((tls, i) => {
    const at = ['spec', 'tls', i];
    list(tls?.hosts).forEach((host, j) => errors.push(...hostViolations(String(host), [...at, 'hosts', j])));
    if (tls?.secretName)
      for (const p of dns1123SubdomainProblems(String(tls.secretName)))
        errors.push(invalid([...at, 'secretName'], tls.secretName, p));
  });
  if (isSet(spec.ingressClassName))
    for (const p of dns1123SubdomainProblems(String(spec.ingressClassName)))
      errors.push(invalid(['spec', 'ingressClassName'], spec.ingressClassName, p));
  const annotation = ingress?.metadata?.annotations?.[INGRESS_CLASS_ANNOTATION];
  if (isSet(annotation) && isSet(spec.ingressClassName) && annotation !== spec.ingressClassName)
    errors.push(
      invalid(
        {
          path: ['metadata', 'annotations', INGRESS_CLASS_ANNOTATION],
          field: `annotations.${INGRESS_CLASS_ANNOTATION}`,
        },
        annotation,
        'must match `ingressClassName` when both are specified',
      ),
    );
  return errors;
}

/** ValidateIngressClass, its metadata apart. */
export function ingressClassViolations(ingressClass: Json): KubeViolation[] {
  const spec = isObject(ingressClass?.spec) ? ingressClass.spec : {};
  const controller = typeof spec.controller === 'string' ? spec.controller : '';
  const errors: KubeViolation[] = [];
  if (controller.length > 250) errors.push(tooLong(['spec', 'controller'], 250));
  errors.push(...domainPrefixedPathErrors(['spec', 'controller'], controller));
  const params = spec.parameters;
  if (!isSet(params)) return errors;
  const at = ['spec', 'parameters'];
  errors.push(...ingressTypedReferenceViolations(params, at));
  if (!isSet(params.scope)) return [...errors, required([...at, 'scope'])];
  if (!['Cluster', 'Namespace'].includes(params.scope))
    return [...errors, notSupported([...at, 'scope'], params.scope, ['Cluster', 'Namespace'])];
  if (params.scope === 'Namespace') {
    if (!isSet(params.namespace))
      errors.push(required([...at, 'namespace'], "`parameters.scope` is set to 'Namespace'"));
    else
      for (const p of dns1123LabelProblems(String(params.namespace)))
        errors.push(invalid([...at, 'namespace'], params.namespace, p));
  }
  if (params.scope === 'Cluster' && isSet(params.namespace))
    errors.push(forbidden([...at, 'namespace'], "`parameters.scope` is set to 'Cluster'"));
  return errors;
}

function networkPolicyPortViolations(port: Json, at: (string | number)[]): KubeViolation[] {
  const errors: KubeViolation[] = [];
  if (isSet(port?.protocol) && !PROTOCOLS.includes(port.protocol))
    errors.push(notSupported([...at, 'protocol'], port.protocol, PROTOCOLS));
  const endPort = port?.endPort;
  if (!isSet(port?.port)) {
    if (isSet(endPort))
      errors.push(invalid([...at, 'endPort'], endPort, 'may not be specified when `port` is not specified'));
    return errors;
  }
  if (typeof port.port === 'number') {
    const problem = portNumberProblem(port.port);
    if (problem) errors.push(invalid([...at, 'port'], port.port, problem));
    if (isSet(endPort)) {
      if (endPort < port.port)
        errors.push(invalid([...at, 'endPort'], port.port, 'must be greater than or equal to `port`'));
      const endProblem = portNumberProblem(endPort);
      if (endProblem) errors.push(invalid([...at, 'endPort'], endPort, endProblem));
    }
    return errors;
  }
  if (isSet(endPort))
    errors.push(invalid([...at, 'endPort'], endPort, 'may not be specified when `port` is non-numeric'));
  for (const p of portNameProblems(String(port.port))) errors.push(invalid([...at, 'port'], port.port, p));
  return errors;
}

/** ValidateIPBlock: each except a CIDR strictly inside the block's, of either family. */
function ipBlockViolations(block: Json, at: (string | number)[]): KubeViolation[] {
  if (!block?.cidr) return [required([...at, 'cidr'])];
  const cidr = String(block.cidr);
  const errors = cidrViolations([...at, 'cidr'], cidr);
  const outer = parseCIDR(cidr);
  if (!outer) return errors;
  const network = new BlockList();
  network.addSubnet(outer.ip, outer.bits, outer.family);
  list(block.except).forEach((except, i) => {
    const path = [...at, 'except', i];
    const bad = cidrViolations(path, String(except));
    errors.push(...bad);
    const inner = parseCIDR(String(except));
    if (!inner) return;
    // A longer prefix inside the block's network: its address alone says whether it is inside.
    const contained = inner.family === outer.family && network.check(inner.ip, inner.family);
    if (!contained || outer.bits >= inner.bits) errors.push(invalid(path, except, 'must be a strict subset of `cidr`'));
  });
  return errors;
}

function peerViolations(peer: Json, at: (string | number)[]): KubeViolation[] {
  const errors: KubeViolation[] = [];
  let peers = 0;
  for (const key of ['podSelector', 'namespaceSelector']) {
    if (!isSet(peer?.[key])) continue;
    peers++;
    errors.push(...labelSelectorViolations([...at, key], peer[key]));
  }
  if (isSet(peer?.ipBlock)) {
    peers++;
    errors.push(...ipBlockViolations(peer.ipBlock, [...at, 'ipBlock']));
  }
  if (peers === 0) errors.push(required(at, 'must specify a peer'));
  else if (peers > 1 && isSet(peer.ipBlock))
    errors.push(forbidden(at, 'may not specify both ipBlock and another peer'));
  return errors;
}

/** ValidateNetworkPolicy, its metadata apart. */
export function networkPolicyViolations(policy: Json): KubeViolation[] {
  const spec = isObject(policy?.spec) ? policy.spec : {};
  const errors = labelSelectorViolations(['spec', 'podSelector'], spec.podSelector);
  for (const [direction, peersField] of [
    ['ingress', 'from'],
    ['egress', 'to'],
  ] as const)
    list(spec[direction]).forEach((rule, i) => {
      const at = ['spec', direction, i];
      list(rule?.ports).forEach((port, j) => errors.push(...networkPolicyPortViolations(port, [...at, 'ports', j])));
      list(rule?.[peersField]).forEach((peer, j) => errors.push(...peerViolations(peer, [...at, peersField, j])));
    });
  const types = list(spec.policyTypes);
  if (types.length > 2)
    return [
      ...errors,
      invalid(
        ['spec', 'policyTypes'],
        undefined,
        'may not specify more than two policyTypes',
        goStringSliceText(types, 'networking.PolicyType'),
      ),
    ];
  types.forEach((type, i) => {
    if (!POLICY_TYPES.includes(type)) errors.push(notSupported(['spec', 'policyTypes', i], type, POLICY_TYPES));
  });
  return errors;
}
