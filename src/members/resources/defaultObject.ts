import type { KubeObject } from '../types.ts';

// The API server's defaulting for the fields controllers and clients commonly read back. It runs on every
// write (like the real defaulting on decode), so a field an applier drops comes back defaulted.

// biome-ignore lint/suspicious/noExplicitAny: reads fields of an untyped Kubernetes object (KubeObject.spec/status)
function defaultPodSpec(spec: any): void {
  if (!spec) return;
  spec.restartPolicy ??= 'Always';
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.securityContext ??= {};
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
    if (!c || typeof c !== 'object') continue;
    const image: string = c.image ?? '';
    const tagged = /:[^/]+$/.test(image) || image.includes('@');
    c.imagePullPolicy ??= !tagged || image.endsWith(':latest') ? 'Always' : 'IfNotPresent';
    c.terminationMessagePath ??= '/dev/termination-log';
    c.terminationMessagePolicy ??= 'File';
    c.resources ??= {};
    for (const p of c.ports ?? []) if (p && typeof p === 'object') p.protocol ??= 'TCP';
  }
}

/** Fills server defaults in place. `allocateClusterIP` hands out a Service IP the first time one is needed. */
export function defaultObject(kind: string, object: KubeObject, allocateClusterIP: () => string): void {
  const spec = object.spec;
  switch (kind) {
    case 'Pod':
      object.spec ??= {};
      defaultPodSpec(object.spec);
      object.spec.enableServiceLinks ??= true;
      object.spec.preemptionPolicy ??= 'PreemptLowerPriority';
      object.spec.priority ??= 0;
      object.spec.tolerations ??= [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ];
      break;
    case 'Deployment':
      if (!spec) break;
      spec.replicas ??= 1;
      spec.revisionHistoryLimit ??= 10;
      spec.progressDeadlineSeconds ??= 600;
      spec.strategy ??= { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } };
      defaultPodSpec(spec.template?.spec);
      break;
    case 'ReplicaSet':
    case 'ReplicationController':
      if (!spec) break;
      spec.replicas ??= 1;
      defaultPodSpec(spec.template?.spec);
      break;
    case 'StatefulSet':
      if (!spec) break;
      spec.replicas ??= 1;
      spec.podManagementPolicy ??= 'OrderedReady';
      spec.revisionHistoryLimit ??= 10;
      spec.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { partition: 0 } };
      defaultPodSpec(spec.template?.spec);
      break;
    case 'DaemonSet':
      if (!spec) break;
      spec.revisionHistoryLimit ??= 10;
      spec.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };
      defaultPodSpec(spec.template?.spec);
      break;
    case 'Job':
      if (!spec) break;
      spec.parallelism ??= 1;
      spec.completions ??= 1;
      spec.backoffLimit ??= 6;
      spec.completionMode ??= 'NonIndexed';
      spec.suspend ??= false;
      defaultPodSpec(spec.template?.spec);
      break;
    case 'CronJob':
      if (!spec) break;
      spec.concurrencyPolicy ??= 'Allow';
      spec.suspend ??= false;
      spec.successfulJobsHistoryLimit ??= 3;
      spec.failedJobsHistoryLimit ??= 1;
      break;
    case 'Service':
      object.spec ??= {};
      object.spec.type ??= 'ClusterIP';
      object.spec.sessionAffinity ??= 'None';
      if (object.spec.clusterIP === undefined || object.spec.clusterIP === '') {
        object.spec.clusterIP = object.spec.type === 'ExternalName' ? undefined : allocateClusterIP();
        if (object.spec.clusterIP) object.spec.clusterIPs = [object.spec.clusterIP];
      }
      object.spec.internalTrafficPolicy ??= 'Cluster';
      object.spec.ipFamilies ??= ['IPv4'];
      object.spec.ipFamilyPolicy ??= 'SingleStack';
      for (const p of object.spec.ports ?? []) {
        if (!p || typeof p !== 'object') continue;
        p.protocol ??= 'TCP';
        p.targetPort ??= p.port;
      }
      break;
    case 'Namespace':
      object.spec ??= {};
      object.spec.finalizers ??= ['kubernetes'];
      object.status ??= { phase: 'Active' };
      object.metadata.labels = { ...(object.metadata.labels ?? {}), 'kubernetes.io/metadata.name': object.metadata.name! };
      break;
    case 'Secret':
      object.type ??= 'Opaque';
      break;
  }
}
