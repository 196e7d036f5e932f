import type { KubeObject } from '../types.ts';
import {
  defaultPersistentVolumeClaimSpec,
  defaultPod,
  defaultPodTemplate,
  isEmptyString,
  isNil,
} from './defaultPodSpec.ts';
import { mergeStringData } from './mergeStringData.ts';
import { canonicalQuantity, canonicalResourceList } from '../../quantities/canonicalQuantity.ts';

// The API server's defaulting for what clients read back (k8s.io/kubernetes pkg/apis/*/v1/defaults.go plus
// the admission plugins every cluster runs). It runs on every write (like the real defaulting on decode), so a
// field an applier drops comes back defaulted. As in Go, a string field is defaulted when empty, a pointer,
// slice or map field when nil (absent or null); an explicit 0 or false is kept.

type Json = any;

const isObject = (value: unknown): value is Record<string, Json> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** What defaulting needs from the member: addresses it hands out. */
export interface Allocators {
  /** A free Service cluster IP. */
  clusterIP: () => string;
  /** A free port of the NodePort range (30000-32767). */
  nodePort?: () => number;
}

/** Tolerations DefaultTolerationSeconds adds unless the pod already tolerates those NoExecute taints. */
const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

function toleratesNoExecute(tolerations: Json[], key: string): boolean {
  return tolerations.some(
    (t) =>
      isObject(t) &&
      (isEmptyString(t.effect) || t.effect === 'NoExecute') &&
      (t.key === key || (isEmptyString(t.key) && t.operator === 'Exists')),
  );
}

function defaultDeployment(spec: Json): void {
  if (isNil(spec.replicas)) spec.replicas = 1;
  if (!isObject(spec.strategy)) spec.strategy = {};
  const strategy = spec.strategy;
  if (isEmptyString(strategy.type)) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    if (!isObject(strategy.rollingUpdate)) strategy.rollingUpdate = {};
    if (isNil(strategy.rollingUpdate.maxUnavailable)) strategy.rollingUpdate.maxUnavailable = '25%';
    if (isNil(strategy.rollingUpdate.maxSurge)) strategy.rollingUpdate.maxSurge = '25%';
  }
  if (isNil(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10;
  if (isNil(spec.progressDeadlineSeconds)) spec.progressDeadlineSeconds = 600;
  defaultPodTemplate(spec.template);
}

function defaultStatefulSet(spec: Json): void {
  if (isEmptyString(spec.podManagementPolicy)) spec.podManagementPolicy = 'OrderedReady';
  if (!isObject(spec.updateStrategy)) spec.updateStrategy = {};
  const strategy = spec.updateStrategy;
  // Only a defaulted type brings a rollingUpdate block; an explicit RollingUpdate without one keeps none.
  if (isEmptyString(strategy.type)) {
    strategy.type = 'RollingUpdate';
    if (!isObject(strategy.rollingUpdate)) strategy.rollingUpdate = {};
  }
  if (strategy.type === 'RollingUpdate' && isObject(strategy.rollingUpdate) && isNil(strategy.rollingUpdate.partition))
    strategy.rollingUpdate.partition = 0;
  if (!isObject(spec.persistentVolumeClaimRetentionPolicy)) spec.persistentVolumeClaimRetentionPolicy = {};
  const retention = spec.persistentVolumeClaimRetentionPolicy;
  if (isEmptyString(retention.whenDeleted)) retention.whenDeleted = 'Retain';
  if (isEmptyString(retention.whenScaled)) retention.whenScaled = 'Retain';
  if (isNil(spec.replicas)) spec.replicas = 1;
  if (isNil(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10;
  for (const claim of Array.isArray(spec.volumeClaimTemplates) ? spec.volumeClaimTemplates : [])
    defaultPersistentVolumeClaimSpec(claim?.spec);
  defaultPodTemplate(spec.template);
}

function defaultDaemonSet(spec: Json): void {
  if (!isObject(spec.updateStrategy)) spec.updateStrategy = {};
  const strategy = spec.updateStrategy;
  if (isEmptyString(strategy.type)) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    if (!isObject(strategy.rollingUpdate)) strategy.rollingUpdate = {};
    if (isNil(strategy.rollingUpdate.maxUnavailable)) strategy.rollingUpdate.maxUnavailable = 1;
    if (isNil(strategy.rollingUpdate.maxSurge)) strategy.rollingUpdate.maxSurge = 0;
  }
  if (isNil(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10;
  defaultPodTemplate(spec.template);
}

function defaultJob(object: KubeObject): void {
  const spec = object.spec;
  if (isNil(spec.completions) && isNil(spec.parallelism)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  if (isNil(spec.parallelism)) spec.parallelism = 1;
  if (isNil(spec.backoffLimit)) spec.backoffLimit = isNil(spec.backoffLimitPerIndex) ? 6 : 2147483647;
  const templateLabels = spec.template?.metadata?.labels;
  if (isObject(templateLabels) && Object.keys(object.metadata.labels ?? {}).length === 0)
    object.metadata.labels = { ...templateLabels };
  if (isNil(spec.completionMode)) spec.completionMode = 'NonIndexed';
  if (isNil(spec.suspend)) spec.suspend = false;
  for (const rule of Array.isArray(spec.podFailurePolicy?.rules) ? spec.podFailurePolicy.rules : []) {
    for (const pattern of Array.isArray(rule?.onPodConditions) ? rule.onPodConditions : [])
      if (isObject(pattern) && isEmptyString(pattern.status)) pattern.status = 'True';
  }
  if (isNil(spec.podReplacementPolicy))
    spec.podReplacementPolicy = isNil(spec.podFailurePolicy) ? 'TerminatingOrFailed' : 'Failed';
  if (isNil(spec.manualSelector)) spec.manualSelector = false;
  defaultPodTemplate(spec.template);
}

function defaultService(object: KubeObject, allocate: Allocators): void {
  object.spec ??= {};
  const spec = object.spec;
  if (isEmptyString(spec.sessionAffinity)) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && isNil(spec.sessionAffinityConfig?.clientIP?.timeoutSeconds)) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  }
  if (isEmptyString(spec.type)) spec.type = 'ClusterIP';
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  for (const p of ports) {
    if (!isObject(p)) continue;
    if (isEmptyString(p.protocol)) p.protocol = 'TCP';
    if (isNil(p.targetPort) || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  // apiservice.ExternallyAccessible: external IPs make only a ClusterIP Service one.
  const external =
    spec.type === 'NodePort' ||
    spec.type === 'LoadBalancer' ||
    (spec.type === 'ClusterIP' && Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0);
  if (external && isEmptyString(spec.externalTrafficPolicy)) spec.externalTrafficPolicy = 'Cluster';
  if (isNil(spec.internalTrafficPolicy) && spec.type !== 'ExternalName') spec.internalTrafficPolicy = 'Cluster';
  if (spec.type === 'LoadBalancer' && isNil(spec.allocateLoadBalancerNodePorts))
    spec.allocateLoadBalancerNodePorts = true;
  if (spec.type === 'ExternalName') return;
  // The registry's allocation: a cluster IP (or the headless None), its single-stack family, node ports. clusterIPs
  // given without clusterIP are left so: the registry validates them before it allocates, and refuses them.
  const givenIPs = Array.isArray(spec.clusterIPs) && spec.clusterIPs.length > 0;
  if (isEmptyString(spec.clusterIP) && !givenIPs) spec.clusterIP = allocate.clusterIP();
  if (!givenIPs && !isEmptyString(spec.clusterIP)) spec.clusterIPs = [spec.clusterIP];
  // initIPFamilyFields: a headless Service without a selector defaults to dual-stack families, whatever the cluster.
  const headlessSelectorless =
    spec.clusterIP === 'None' && (!isObject(spec.selector) || Object.keys(spec.selector).length === 0);
  if (isNil(spec.ipFamilyPolicy)) spec.ipFamilyPolicy = headlessSelectorless ? 'RequireDualStack' : 'SingleStack';
  if (isNil(spec.ipFamilies) || (Array.isArray(spec.ipFamilies) && spec.ipFamilies.length === 0))
    spec.ipFamilies = ['IPv4'];
  if (headlessSelectorless && spec.ipFamilyPolicy !== 'SingleStack' && spec.ipFamilies.length === 1)
    spec.ipFamilies = [...spec.ipFamilies, spec.ipFamilies[0] === 'IPv6' ? 'IPv4' : 'IPv6'];
  const wantsNodePorts =
    spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
  if (wantsNodePorts && allocate.nodePort)
    for (const p of ports) if (isObject(p) && !p.nodePort) p.nodePort = allocate.nodePort();
}

function defaultSubjects(object: KubeObject): void {
  if (isObject(object.roleRef) && isEmptyString(object.roleRef.apiGroup)) object.roleRef.apiGroup = RBAC_GROUP;
  for (const subject of Array.isArray(object.subjects) ? object.subjects : []) {
    if (!isObject(subject) || !isEmptyString(subject.apiGroup)) continue;
    if (subject.kind === 'ServiceAccount') subject.apiGroup = '';
    else if (subject.kind === 'User' || subject.kind === 'Group') subject.apiGroup = RBAC_GROUP;
  }
}

const SCALE_UP_POLICIES = [
  { type: 'Pods', value: 4, periodSeconds: 15 },
  { type: 'Percent', value: 100, periodSeconds: 15 },
];
const SCALE_DOWN_POLICIES = [{ type: 'Percent', value: 100, periodSeconds: 15 }];

/** GenerateHPAScaleUpRules / GenerateHPAScaleDownRules: each unset part of a given direction's rules. */
function defaultScalingRules(rules: Json, stabilizationWindowSeconds: number, policies: object[]): Json {
  const out = isObject(rules) ? rules : {};
  if (isNil(out.stabilizationWindowSeconds)) out.stabilizationWindowSeconds = stabilizationWindowSeconds;
  if (isEmptyString(out.selectPolicy)) out.selectPolicy = 'Max';
  if (isNil(out.policies)) out.policies = structuredClone(policies);
  return out;
}

function defaultHorizontalPodAutoscaler(spec: Json): void {
  if (isNil(spec.minReplicas)) spec.minReplicas = 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
    ];
  }
  for (const metric of spec.metrics) {
    for (const source of ['resource', 'pods', 'object', 'external', 'containerResource']) {
      const target = metric?.[source]?.target;
      if (!isObject(target)) continue;
      for (const key of ['value', 'averageValue'])
        if (!isNil(target[key])) target[key] = canonicalQuantity(target[key], false);
    }
  }
  if (isObject(spec.behavior)) {
    spec.behavior.scaleUp = defaultScalingRules(spec.behavior.scaleUp, 0, SCALE_UP_POLICIES);
    spec.behavior.scaleDown = defaultScalingRules(spec.behavior.scaleDown, 300, SCALE_DOWN_POLICIES);
  }
}

/** Fills server defaults in place. `allocate` hands out Service addresses the first time one is needed. */
export function defaultObject(kind: string, object: KubeObject, allocate: Allocators | (() => string)): void {
  const allocators: Allocators = typeof allocate === 'function' ? { clusterIP: allocate } : allocate;
  const spec = object.spec;
  switch (kind) {
    case 'Pod': {
      defaultPod(object);
      // Admission: Priority without a class, and DefaultTolerationSeconds.
      object.spec.preemptionPolicy ??= 'PreemptLowerPriority';
      object.spec.priority ??= 0;
      const tolerations: Json[] = Array.isArray(object.spec.tolerations) ? [...object.spec.tolerations] : [];
      for (const key of [NOT_READY, UNREACHABLE]) {
        if (!toleratesNoExecute(tolerations, key))
          tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
      }
      object.spec.tolerations = tolerations;
      break;
    }
    case 'PodTemplate':
      defaultPodTemplate(object.template);
      break;
    case 'Deployment':
      if (isObject(spec)) defaultDeployment(spec);
      break;
    case 'ReplicaSet':
    case 'ReplicationController':
      if (!isObject(spec)) break;
      if (isNil(spec.replicas)) spec.replicas = 1;
      if (kind === 'ReplicationController' && isObject(spec.template?.metadata?.labels)) {
        const labels = spec.template.metadata.labels;
        if (!isObject(spec.selector) || Object.keys(spec.selector).length === 0) spec.selector = { ...labels };
        if (Object.keys(object.metadata.labels ?? {}).length === 0) object.metadata.labels = { ...labels };
      }
      defaultPodTemplate(spec.template);
      break;
    case 'StatefulSet':
      if (isObject(spec)) defaultStatefulSet(spec);
      break;
    case 'DaemonSet':
      if (isObject(spec)) defaultDaemonSet(spec);
      break;
    case 'Job':
      if (isObject(spec)) defaultJob(object);
      break;
    case 'CronJob':
      if (!isObject(spec)) break;
      if (isEmptyString(spec.concurrencyPolicy)) spec.concurrencyPolicy = 'Allow';
      if (isNil(spec.suspend)) spec.suspend = false;
      if (isNil(spec.successfulJobsHistoryLimit)) spec.successfulJobsHistoryLimit = 3;
      if (isNil(spec.failedJobsHistoryLimit)) spec.failedJobsHistoryLimit = 1;
      defaultPodTemplate(spec.jobTemplate?.spec?.template);
      break;
    case 'Service':
      defaultService(object, allocators);
      break;
    case 'Endpoints':
      for (const subset of Array.isArray(object.subsets) ? object.subsets : []) {
        for (const p of Array.isArray(subset?.ports) ? subset.ports : [])
          if (isObject(p) && isEmptyString(p.protocol)) p.protocol = 'TCP';
      }
      break;
    case 'Namespace':
      object.spec ??= {};
      object.spec.finalizers ??= ['kubernetes'];
      object.status ??= { phase: 'Active' };
      object.metadata.labels = {
        ...(object.metadata.labels ?? {}),
        'kubernetes.io/metadata.name': object.metadata.name!,
      };
      break;
    case 'Secret':
      // Conversion rather than defaulting, but it happens at the same point: when the written object is decoded.
      mergeStringData(object);
      if (isEmptyString(object.type)) object.type = 'Opaque';
      break;
    case 'PersistentVolumeClaim':
      defaultPersistentVolumeClaimSpec(spec);
      break;
    case 'ResourceQuota':
      canonicalResourceList(spec?.hard);
      break;
    case 'LimitRange':
      for (const limit of Array.isArray(spec?.limits) ? spec.limits : []) {
        if (!isObject(limit)) continue;
        for (const key of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'])
          canonicalResourceList(limit[key]);
        if (limit.type !== 'Container') continue;
        // SetDefaults_LimitRangeItem: a default limit from max, a default request from the default limit, else min.
        const fill = (target: string, from: unknown) => {
          if (!isObject(from)) return;
          for (const [resource, quantity] of Object.entries(from)) {
            if (!isObject(limit[target])) limit[target] = {};
            if (limit[target][resource] === undefined) limit[target][resource] = quantity;
          }
        };
        fill('default', limit.max);
        fill('defaultRequest', limit.default);
        fill('defaultRequest', limit.min);
      }
      break;
    case 'PersistentVolume':
      if (!isObject(spec)) break;
      canonicalResourceList(spec.capacity);
      if (isEmptyString(spec.persistentVolumeReclaimPolicy)) spec.persistentVolumeReclaimPolicy = 'Retain';
      if (isNil(spec.volumeMode)) spec.volumeMode = 'Filesystem';
      break;
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      defaultSubjects(object);
      break;
    case 'NetworkPolicy':
      if (!isObject(spec)) break;
      if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) {
        spec.policyTypes = Array.isArray(spec.egress) && spec.egress.length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
      }
      for (const rule of [
        ...(Array.isArray(spec.ingress) ? spec.ingress : []),
        ...(Array.isArray(spec.egress) ? spec.egress : []),
      ]) {
        for (const p of Array.isArray(rule?.ports) ? rule.ports : [])
          if (isObject(p) && isNil(p.protocol)) p.protocol = 'TCP';
      }
      break;
    case 'IngressClass':
      if (isObject(spec?.parameters) && isNil(spec.parameters.scope)) spec.parameters.scope = 'Cluster';
      break;
    case 'HorizontalPodAutoscaler':
      if (isObject(spec)) defaultHorizontalPodAutoscaler(spec);
      break;
    case 'StorageClass':
      if (isNil(object.reclaimPolicy)) object.reclaimPolicy = 'Delete';
      if (isNil(object.volumeBindingMode)) object.volumeBindingMode = 'Immediate';
      break;
    case 'PriorityClass':
      if (isNil(object.preemptionPolicy)) object.preemptionPolicy = 'PreemptLowerPriority';
      break;
  }
}
