// The API server's defaulting of pod specs (k8s.io/kubernetes pkg/apis/core/v1/defaults.go). The generated
// defaulters walk into every pod template, so a Deployment's, StatefulSet's, Job's or CronJob's template reads
// back with the same defaults as a Pod; SetDefaults_Pod's extras apply to Pods only.

import { canonicalQuantity, canonicalResourceList } from '../../quantities/canonicalQuantity.ts';
import { VOLUME_SOURCES } from '../../kubeValidation/volumeSources.ts';

type Json = any;

/** A Go string field is defaulted when it is empty, and JSON null or absence both decode to empty. */
export function isEmptyString(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** A Go pointer, slice or map field is defaulted when nil: absent or JSON null. */
export function isNil(value: unknown): boolean {
  return value === undefined || value === null;
}

const isObject = (value: unknown): value is Record<string, Json> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `nginx` and `nginx:latest` pull Always, any other tag or a digest IfNotPresent (parsers.ParseImageName). */
function pullPolicyFor(image: string): 'Always' | 'IfNotPresent' {
  if (image.includes('@')) return 'IfNotPresent';
  const lastSegment = image.slice(image.lastIndexOf('/') + 1);
  const colon = lastSegment.lastIndexOf(':');
  const tag = colon >= 0 ? lastSegment.slice(colon + 1) : 'latest';
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultHttpGet(handler: Json): void {
  if (!isObject(handler?.httpGet)) return;
  if (isEmptyString(handler.httpGet.path)) handler.httpGet.path = '/';
  if (isEmptyString(handler.httpGet.scheme)) handler.httpGet.scheme = 'HTTP';
}

function defaultProbe(probe: Json): void {
  if (!isObject(probe)) return;
  // int32 fields, not pointers: zero means unset.
  if (!probe.timeoutSeconds) probe.timeoutSeconds = 1;
  if (!probe.periodSeconds) probe.periodSeconds = 10;
  if (!probe.successThreshold) probe.successThreshold = 1;
  if (!probe.failureThreshold) probe.failureThreshold = 3;
  defaultHttpGet(probe);
}

function defaultFieldRef(fieldRef: Json): void {
  if (isObject(fieldRef) && isEmptyString(fieldRef.apiVersion)) fieldRef.apiVersion = 'v1';
}

function defaultContainer(c: Json): void {
  if (!isObject(c)) return;
  if (isEmptyString(c.imagePullPolicy)) c.imagePullPolicy = pullPolicyFor(String(c.image ?? ''));
  if (isEmptyString(c.terminationMessagePath)) c.terminationMessagePath = '/dev/termination-log';
  if (isEmptyString(c.terminationMessagePolicy)) c.terminationMessagePolicy = 'File';
  if (isNil(c.resources)) c.resources = {};
  canonicalResourceList(c.resources.limits);
  canonicalResourceList(c.resources.requests);
  for (const p of Array.isArray(c.ports) ? c.ports : [])
    if (isObject(p) && isEmptyString(p.protocol)) p.protocol = 'TCP';
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(c[probe]);
  if (isObject(c.lifecycle)) for (const hook of ['postStart', 'preStop']) defaultHttpGet(c.lifecycle[hook]);
  for (const env of Array.isArray(c.env) ? c.env : []) defaultFieldRef(env?.valueFrom?.fieldRef);
}

/** 0644, the mode secret, configMap, downwardAPI and projected volumes default to. */
const DEFAULT_MODE = 420;

function defaultVolume(v: Json): void {
  if (!isObject(v)) return;
  if (VOLUME_SOURCES.every((source) => isNil(v[source]))) v.emptyDir = {};
  for (const source of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    if (isObject(v[source]) && isNil(v[source].defaultMode)) v[source].defaultMode = DEFAULT_MODE;
  }
  if (isObject(v.hostPath) && isNil(v.hostPath.type)) v.hostPath.type = '';
  if (isObject(v.emptyDir) && !isNil(v.emptyDir.sizeLimit))
    v.emptyDir.sizeLimit = canonicalQuantity(v.emptyDir.sizeLimit, false);
  for (const item of Array.isArray(v.downwardAPI?.items) ? v.downwardAPI.items : []) defaultFieldRef(item?.fieldRef);
  for (const source of Array.isArray(v.projected?.sources) ? v.projected.sources : []) {
    for (const item of Array.isArray(source?.downwardAPI?.items) ? source.downwardAPI.items : [])
      defaultFieldRef(item?.fieldRef);
    if (isObject(source?.serviceAccountToken) && isNil(source.serviceAccountToken.expirationSeconds))
      source.serviceAccountToken.expirationSeconds = 3600;
  }
  if (isObject(v.ephemeral?.volumeClaimTemplate?.spec))
    defaultPersistentVolumeClaimSpec(v.ephemeral.volumeClaimTemplate.spec);
}

export function defaultPersistentVolumeClaimSpec(spec: Json): void {
  if (!isObject(spec)) return;
  if (isNil(spec.volumeMode)) spec.volumeMode = 'Filesystem';
  canonicalResourceList(spec.resources?.requests);
  canonicalResourceList(spec.resources?.limits);
}

/** SetDefaults_PodSpec and the defaults of everything inside it: containers, probes, volumes. */
export function defaultPodSpec(spec: Json): void {
  if (!isObject(spec)) return;
  if (isEmptyString(spec.dnsPolicy)) spec.dnsPolicy = 'ClusterFirst';
  if (isEmptyString(spec.restartPolicy)) spec.restartPolicy = 'Always';
  if (isNil(spec.securityContext)) spec.securityContext = {};
  if (isNil(spec.terminationGracePeriodSeconds)) spec.terminationGracePeriodSeconds = 30;
  if (isEmptyString(spec.schedulerName)) spec.schedulerName = 'default-scheduler';
  // v1 conversion: the deprecated serviceAccount fills an empty serviceAccountName, and always reads back as it.
  if (isEmptyString(spec.serviceAccountName) && !isEmptyString(spec.serviceAccount))
    spec.serviceAccountName = spec.serviceAccount;
  if (isEmptyString(spec.serviceAccountName)) delete spec.serviceAccount;
  else spec.serviceAccount = spec.serviceAccountName;
  for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
    for (const c of Array.isArray(spec[list]) ? spec[list] : []) defaultContainer(c);
  }
  for (const v of Array.isArray(spec.volumes) ? spec.volumes : []) defaultVolume(v);
  canonicalResourceList(spec.overhead);
  canonicalResourceList(spec.resources?.limits);
  canonicalResourceList(spec.resources?.requests);
}

/** A pod template's spec, wherever it sits. */
export function defaultPodTemplate(template: Json): void {
  if (isObject(template)) defaultPodSpec(template.spec);
}

/**
 * SetDefaults_Pod on top of the pod spec defaults: requests default to limits per container, service links
 * on, and with hostNetwork every container port is also a host port.
 */
export function defaultPod(pod: Json): void {
  pod.spec ??= {};
  const spec = pod.spec;
  defaultPodSpec(spec);
  for (const list of ['containers', 'initContainers']) {
    for (const c of Array.isArray(spec[list]) ? spec[list] : []) {
      const limits = c?.resources?.limits;
      if (!isObject(limits)) continue;
      c.resources.requests = { ...limits, ...(isObject(c.resources.requests) ? c.resources.requests : {}) };
    }
  }
  if (isNil(spec.enableServiceLinks)) spec.enableServiceLinks = true;
  if (spec.hostNetwork === true) {
    for (const list of ['containers', 'initContainers']) {
      for (const c of Array.isArray(spec[list]) ? spec[list] : []) {
        for (const p of Array.isArray(c?.ports) ? c.ports : [])
          if (isObject(p) && !p.hostPort) p.hostPort = p.containerPort;
      }
    }
  }
}
