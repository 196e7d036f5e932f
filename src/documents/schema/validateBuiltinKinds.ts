// A Service, ConfigMap, Secret, PodDisruptionBudget, RBAC object, Ingress, IngressClass, NetworkPolicy,
// HorizontalPodAutoscaler, PersistentVolumeClaim, Namespace, LimitRange, ResourceQuota, PriorityClass or StorageClass
// template kube-apiserver refuses (kubeValidation/builtinKindRules.ts): Karmada's API server is one, so it refuses the
// template at creation, and a member the object propagated to it. Checked on the template as that API server holds it
// when it validates: given the defaults its checks depend on (SetDefaults_Service, the RBAC subjects' and roleRef's
// apiGroup, an IngressClass's parameters.scope; the other kinds' rules read their defaults themselves), a Service's
// clusterIP and clusterIPs synced, a Secret's stringData merged, an autoscaling/v1 HPA converted to the v2 shape.
import { builtinKindViolations } from '../../kubeValidation/builtinKindRules.ts';
import type { KubeViolation } from '../../kubeValidation/fieldViolations.ts';
import type { SchemaIssue } from './validateAgainstSchema.ts';

// biome-ignore lint/suspicious/noExplicitAny: a template of any shape, copied and defaulted as the API server would
type Json = any;

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** The group of the served version each kind is checked at; other versions are left alone. */
const CHECKED: ReadonlyMap<string, string> = new Map([
  ['v1/Service', ''],
  ['v1/ConfigMap', ''],
  ['v1/Secret', ''],
  ['policy/v1/PodDisruptionBudget', 'policy'],
  [`${RBAC_GROUP}/v1/Role`, RBAC_GROUP],
  [`${RBAC_GROUP}/v1/ClusterRole`, RBAC_GROUP],
  [`${RBAC_GROUP}/v1/RoleBinding`, RBAC_GROUP],
  [`${RBAC_GROUP}/v1/ClusterRoleBinding`, RBAC_GROUP],
  ['networking.k8s.io/v1/Ingress', 'networking.k8s.io'],
  ['networking.k8s.io/v1/IngressClass', 'networking.k8s.io'],
  ['networking.k8s.io/v1/NetworkPolicy', 'networking.k8s.io'],
  ['autoscaling/v2/HorizontalPodAutoscaler', 'autoscaling'],
  ['autoscaling/v1/HorizontalPodAutoscaler', 'autoscaling'],
  ['v1/PersistentVolumeClaim', ''],
  ['v1/Namespace', ''],
  ['v1/LimitRange', ''],
  ['v1/ResourceQuota', ''],
  ['scheduling.k8s.io/v1/PriorityClass', 'scheduling.k8s.io'],
  ['storage.k8s.io/v1/StorageClass', 'storage.k8s.io'],
]);

/** Where the v2 metric an autoscaling/v1 HPA's targetCPUUtilizationPercentage becomes is written in the file. */
const V1_CPU_METRIC = ['spec', 'metrics', 0];

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const blank = (v: unknown) => v === undefined || v === null || v === '';

/** Issues of a template of a kind listed above; none for any other. */
export function validateBuiltinKinds(manifest: Record<string, unknown>): SchemaIssue[] {
  const kind = String(manifest.kind);
  const group = CHECKED.get(`${String(manifest.apiVersion)}/${kind}`);
  if (group === undefined) return [];
  // Validation runs on every template of every render: only what the defaults write to is copied.
  const object = { ...manifest } as Json;
  const stringDataKeys = kind === 'Secret' ? mergeStringData(object) : new Set<string>();
  if (kind === 'Service') defaultService(object);
  if (group === RBAC_GROUP) defaultRbac(object);
  if (kind === 'IngressClass' && isObject(object.spec?.parameters))
    object.spec = { ...object.spec, parameters: { scope: 'Cluster', ...object.spec.parameters } };
  const v1Hpa = manifest.apiVersion === 'autoscaling/v1';
  if (v1Hpa) object.spec = hpaSpecFromV1(object.spec);
  const found = builtinKindViolations(group, kind, object);
  if (found.length === 0) return [];
  return found.map((v) => asIssue(v1Hpa ? locatedInV1(v) : v, kind, stringDataKeys));
}

/** The Secret's stringData written over its data, as the API server decodes it; the keys written there. */
function mergeStringData(secret: Json): Set<string> {
  if (!isObject(secret.stringData)) return new Set();
  secret.data = isObject(secret.data) ? { ...secret.data } : {};
  for (const [key, value] of Object.entries(secret.stringData))
    secret.data[key] = Buffer.from(String(value ?? '')).toString('base64');
  return new Set(Object.keys(secret.stringData));
}

/**
 * The Service's spec as SetDefaults_Service and the registry's beginCreate (NormalizeClusterIPs) leave it, in a new object of the
 * fields ValidateService reads (built field by field: cheaper than copying the parsed one, on every render).
 */
function defaultService(service: Json): void {
  const given = isObject(service.spec) ? service.spec : {};
  const type = blank(given.type) ? 'ClusterIP' : given.type;
  const sessionAffinity = blank(given.sessionAffinity) ? 'None' : given.sessionAffinity;
  const externalIPs = given.externalIPs;
  // apiservice.ExternallyAccessible: external IPs make only a ClusterIP Service one.
  const external =
    type === 'NodePort' ||
    type === 'LoadBalancer' ||
    (type === 'ClusterIP' && Array.isArray(externalIPs) && externalIPs.length > 0);
  const clusterIPs = Array.isArray(given.clusterIPs) ? given.clusterIPs : [];
  service.spec = {
    type,
    sessionAffinity,
    sessionAffinityConfig:
      sessionAffinity === 'None'
        ? undefined
        : sessionAffinity === 'ClientIP' && blank(given.sessionAffinityConfig?.clientIP?.timeoutSeconds)
          ? { clientIP: { timeoutSeconds: 10800 } }
          : given.sessionAffinityConfig,
    ports: Array.isArray(given.ports) ? given.ports.map(defaultPort) : given.ports,
    selector: given.selector,
    // NormalizeClusterIPs on create: a clusterIP alone fills clusterIPs, but clusterIPs alone leaves clusterIP empty.
    clusterIP: given.clusterIP,
    clusterIPs: !blank(given.clusterIP) && clusterIPs.length === 0 ? [given.clusterIP] : given.clusterIPs,
    ipFamilies: given.ipFamilies,
    ipFamilyPolicy: given.ipFamilyPolicy,
    externalIPs,
    externalName: given.externalName,
    externalTrafficPolicy: external && blank(given.externalTrafficPolicy) ? 'Cluster' : given.externalTrafficPolicy,
    internalTrafficPolicy:
      blank(given.internalTrafficPolicy) && type !== 'ExternalName' ? 'Cluster' : given.internalTrafficPolicy,
    healthCheckNodePort: given.healthCheckNodePort,
    loadBalancerSourceRanges: given.loadBalancerSourceRanges,
    loadBalancerClass: given.loadBalancerClass,
    allocateLoadBalancerNodePorts:
      type === 'LoadBalancer' && blank(given.allocateLoadBalancerNodePorts)
        ? true
        : given.allocateLoadBalancerNodePorts,
    trafficDistribution: given.trafficDistribution,
  };
}

function defaultPort(port: Json): Json {
  if (!isObject(port)) return port;
  return {
    name: port.name,
    port: port.port,
    protocol: blank(port.protocol) ? 'TCP' : port.protocol,
    targetPort: blank(port.targetPort) || port.targetPort === 0 ? port.port : port.targetPort,
    nodePort: port.nodePort,
    appProtocol: port.appProtocol,
  };
}

function defaultRbac(object: Json): void {
  if (isObject(object.roleRef) && blank(object.roleRef.apiGroup))
    object.roleRef = { ...object.roleRef, apiGroup: RBAC_GROUP };
  if (!Array.isArray(object.subjects)) return;
  object.subjects = object.subjects.map((subject: Json) => {
    if (!isObject(subject) || !blank(subject.apiGroup)) return subject;
    if (subject.kind === 'ServiceAccount') return { ...subject, apiGroup: '' };
    if (subject.kind === 'User' || subject.kind === 'Group') return { ...subject, apiGroup: RBAC_GROUP };
    return subject;
  });
}

/**
 * An autoscaling/v1 HPA's spec as the API server converts it to validate it: its one metric,
 * targetCPUUtilizationPercentage, becomes the Resource cpu Utilization metric.
 */
function hpaSpecFromV1(spec: Json): Json {
  if (!isObject(spec)) return spec;
  const { scaleTargetRef, minReplicas, maxReplicas, targetCPUUtilizationPercentage: cpu } = spec;
  const rest = { scaleTargetRef, minReplicas, maxReplicas };
  if (blank(cpu)) return rest;
  return {
    ...rest,
    metrics: [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: cpu } } },
    ],
  };
}

/** A violation of the converted cpu metric, located at the v1 field it came from. */
function locatedInV1(v: KubeViolation): KubeViolation {
  const ofCpuMetric = V1_CPU_METRIC.every((s, i) => v.path[i] === s);
  return ofCpuMetric ? { ...v, path: ['spec', 'targetCPUUtilizationPercentage'] } : v;
}

function asIssue(v: KubeViolation, kind: string, stringDataKeys: Set<string>): SchemaIssue {
  // A key the Secret took from stringData is located there.
  const path =
    v.path[0] === 'data' && typeof v.path[1] === 'string' && stringDataKeys.has(v.path[1])
      ? ['stringData', v.path[1]]
      : v.path;
  return {
    path,
    code: 'INVALID_VALUE',
    message: `kube-apiserver refuses this ${kind}: ${v.field ? `${v.field}: ` : ''}${v.detail}`,
    fix: fixFor(v, kind),
  };
}

function fixFor(v: KubeViolation, kind: string): string {
  const last = v.path.at(-1);
  if (kind === 'Service' && last === 'name' && v.type === 'FieldValueRequired')
    return 'name every port of a Service that has several (a lowercase DNS label such as http or metrics)';
  if (kind === 'Service' && v.field.startsWith('spec.clusterIP'))
    return 'remove clusterIP and clusterIPs to have one allocated, or write None for a headless Service';
  if ((kind === 'ConfigMap' || kind === 'Secret') && v.detail.includes('valid config key'))
    return "rename the key with letters, digits, '-', '_' and '.' only";
  if (v.type === 'FieldValueTooLong' && (kind === 'ConfigMap' || kind === 'Secret'))
    return `split the ${kind} in two: its data may hold at most 1 MiB`;
  if (kind === 'Secret' && v.type === 'FieldValueRequired' && v.field.startsWith('data'))
    return `add the key the Secret type ${'requires'} (${v.field.replace(/^data(\[%s\])?/, '').replace(/[[\]]/g, '')}) under data or stringData`;
  if (kind === 'Ingress' && last === 'pathType') return 'set pathType to Prefix, Exact or ImplementationSpecific';
  if (kind === 'PersistentVolumeClaim' && v.field === 'spec.resources[storage]')
    return 'request a size above zero at spec.resources.requests.storage, e.g. 1Gi';
  if (v.type === 'FieldValueNotSupported') return `write one of the supported values at ${v.field || kind}`;
  if (v.type === 'FieldValueRequired') return `set ${v.field || kind}`;
  if (v.type === 'FieldValueForbidden') return `remove ${v.field || kind}, or change what it depends on`;
  if (v.type === 'FieldValueDuplicate') return `make ${v.field} unique: another entry already has that value`;
  return `change ${v.field || kind} as the message says, or kube-apiserver refuses the ${kind}`;
}
