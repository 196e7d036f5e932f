import { ApiError } from '../ApiError.ts';
import { randomSuffix } from '../store/randomSuffix.ts';
import type { KubeObject } from '../types.ts';

// The ServiceAccount admission plugin (plugin/pkg/admission/serviceaccount) on pod create: the pod runs as
// `default` unless it names an account, the account must exist, and unless automounting is turned off (on the
// pod, else on the account) a projected `kube-api-access-xxxxx` volume with the token, the root CA and the
// namespace is mounted read-only in every container.

const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

export function tokenVolume(name: string): Record<string, unknown> {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        {
          downwardAPI: {
            items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
          },
        },
      ],
      defaultMode: 420,
    },
  };
}

/**
 * Admits a pod being created in place. `account` is the ServiceAccount the pod names (after defaulting), or
 * undefined when it does not exist, which is a 403 unless `requireAccount` is false.
 */
export function admitPod(
  pod: KubeObject,
  lookup: (name: string) => KubeObject | undefined,
  requireAccount = true,
): void {
  pod.spec ??= {};
  const spec = pod.spec;
  if (!spec.serviceAccountName) spec.serviceAccountName = 'default';
  spec.serviceAccount = spec.serviceAccountName;
  const account = lookup(spec.serviceAccountName);
  if (!account && requireAccount) {
    const namespace = pod.metadata.namespace ?? '';
    throw new ApiError(
      403,
      'Forbidden',
      `pods "${pod.metadata.name ?? ''}" is forbidden: error looking up service account ${namespace}/${spec.serviceAccountName}: serviceaccount "${spec.serviceAccountName}" not found`,
      { name: pod.metadata.name ?? '', kind: 'pods' },
    );
  }
  const automount = spec.automountServiceAccountToken ?? account?.automountServiceAccountToken ?? true;
  if (!automount) return;
  const containers = [
    ...(Array.isArray(spec.containers) ? spec.containers : []),
    ...(Array.isArray(spec.initContainers) ? spec.initContainers : []),
  ];
  const mountsToken = (c: any) => (c?.volumeMounts ?? []).some((m: any) => m?.mountPath === TOKEN_MOUNT_PATH);
  if (containers.length > 0 && containers.every(mountsToken)) return;
  const name = `kube-api-access-${randomSuffix()}`;
  spec.volumes = [...(Array.isArray(spec.volumes) ? spec.volumes : []), tokenVolume(name)];
  for (const c of containers) {
    if (c && typeof c === 'object' && !mountsToken(c))
      c.volumeMounts = [
        ...(Array.isArray(c.volumeMounts) ? c.volumeMounts : []),
        { name, readOnly: true, mountPath: TOKEN_MOUNT_PATH },
      ];
  }
}
