import { stringify } from 'yaml';
import { GO_YAML_STRINGIFY_OPTIONS } from '../yaml/goYamlSchema.ts';
import type { Cluster } from '../api/cluster.ts';
import { CLUSTER_API_VERSION } from '../api/kinds.ts';

export interface JoinRequest {
  name: string;
  syncMode: 'Push' | 'Pull';
  /** As the user typed it: relative paths resolve against the reconciler's --credentials-dir. */
  kubeconfigPath: string;
  context: string;
  provider?: string;
  region?: string;
  zones?: string[];
  labels?: Record<string, string>;
}

/** The registration `flotilla join` commits: a Cluster that names its kubeconfig and context, never a credential. Pure. */
export function buildClusterYaml(req: JoinRequest): string {
  const cluster: Cluster = {
    apiVersion: CLUSTER_API_VERSION,
    kind: 'Cluster',
    metadata: { name: req.name, ...(req.labels && Object.keys(req.labels).length ? { labels: req.labels } : {}) },
    spec: {
      syncMode: req.syncMode,
      ...(req.provider ? { provider: req.provider } : {}),
      ...(req.region ? { region: req.region } : {}),
      ...(req.zones?.length ? { zones: req.zones } : {}),
      kubeconfigRef: { path: req.kubeconfigPath, context: req.context },
    },
  };
  const header =
    '# Registered with flotilla join. Credentials never live in Git: kubeconfigRef names a kubeconfig\n' +
    "# file outside the repo (relative paths resolve against the reconciler's --credentials-dir) and a context.\n";
  return header + stringify(cluster, { ...GO_YAML_STRINGIFY_OPTIONS, lineWidth: 0 });
}
