// The host cluster, where the Leases live: a kubeconfig the operator names (--leader-elect-kubeconfig, read where it
// is, as --kubeconfig is), or the pod's own service account as client-go's rest.InClusterConfig reads it.
import { isIPv6 } from 'node:net';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { connectKubeTarget } from '../deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../deliveries/KubeTarget.ts';

/** Where a pod's service account is mounted. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export type HostClusterSource =
  | { kind: 'kubeconfig'; file: string; context: string | undefined }
  | { kind: 'in-cluster'; host: string; port: string; serviceAccountDir?: string };

export function describeHostCluster(source: HostClusterSource): string {
  return source.kind === 'kubeconfig'
    ? `kubeconfig ${source.file}${source.context ? ` context ${source.context}` : ''}`
    : `in-cluster config (https://${hostPort(source.host, source.port)})`;
}

export async function connectHostCluster(source: HostClusterSource): Promise<KubeTarget> {
  const kc = new KubeConfig();
  if (source.kind === 'kubeconfig') {
    kc.loadFromFile(source.file);
    if (source.context && !kc.getContextObject(source.context))
      throw new Error(
        `--leader-elect-kubeconfig ${source.file} has no context ${JSON.stringify(source.context)}; fix: pass one of ${kc
          .getContexts()
          .map((c) => c.name)
          .join(', ')}`,
      );
    return connectKubeTarget(kc, {
      name: 'host',
      timeoutMs: 10_000,
      ...(source.context ? { context: source.context } : {}),
    });
  }
  const dir = source.serviceAccountDir ?? SERVICE_ACCOUNT_DIR;
  // The token file is re-read (client-node's tokenFile provider), so a rotated projected token keeps working.
  kc.loadFromOptions({
    clusters: [
      {
        name: 'in-cluster',
        server: `https://${hostPort(source.host, source.port)}`,
        caFile: path.join(dir, 'ca.crt'),
        skipTLSVerify: false,
      },
    ],
    users: [
      { name: 'service-account', authProvider: { name: 'tokenFile', config: { tokenFile: path.join(dir, 'token') } } },
    ],
    contexts: [{ name: 'in-cluster', cluster: 'in-cluster', user: 'service-account' }],
    currentContext: 'in-cluster',
  });
  return connectKubeTarget(kc, { name: 'host', timeoutMs: 10_000 });
}

function hostPort(host: string, port: string): string {
  return `${isIPv6(host) ? `[${host}]` : host}:${port}`;
}
