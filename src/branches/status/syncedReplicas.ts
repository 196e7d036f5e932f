// syncedreplicas/<namespace>/<name>.yaml on the status branch: the replicas of a Deployment its members' HPAs scale,
// as Karmada's deployment replicas syncer (pkg/controllers/deploymentreplicassyncer) writes them into the resource
// template's spec.replicas: the members' status.replicas summed, for a Divided placement. Flotilla never writes to
// the user's branch, so the status side records the count here (statuses/syncDeploymentReplicas.ts) and the render
// gives the template that count before the scheduler divides it, as Karmada's next schedule of the rewritten template
// does. The count holds only while Git's spec.replicas is still the one it was recorded against: a later edit in Git
// is the later write, as the user's update of the template is in Karmada, until the members' sum is synced again.
// Part of the branch contract (docs/BRANCHES.md, docs/schemas/status-syncedreplicas.schema.json).
import { stringify } from 'yaml';
import { refKey } from '../../api/kinds.ts';
import { parseYamlValue } from '../../yaml/blockYaml.ts';
import { GO_YAML_STRINGIFY_OPTIONS } from '../../yaml/goYamlSchema.ts';

export const SYNCED_REPLICAS_FOLDER = 'syncedreplicas/';

export interface SyncedReplicasFile {
  apiVersion: 'apps/v1';
  kind: 'Deployment';
  metadata: { namespace: string; name: string };
  /** The template's replicas from now on: the members' status.replicas summed. */
  replicas: number;
  /** Git's spec.replicas when this was recorded (1 when Git gives none, the API server's default). */
  gitReplicas: number;
  /** The template's replicas the members' sum replaced (the binding's replicas). */
  previousReplicas: number;
  /** Each member's status.replicas that made the sum. */
  clusters: Record<string, number>;
  /** When it was recorded, RFC 3339. */
  time: string;
}

export function syncedReplicasPath(namespace: string, name: string): string {
  return `${SYNCED_REPLICAS_FOLDER}${namespace}/${name}.yaml`;
}

export function serializeSyncedReplicas(f: SyncedReplicasFile): string {
  return stringify(f, GO_YAML_STRINGIFY_OPTIONS);
}

export function parseSyncedReplicas(text: string): SyncedReplicasFile {
  const v = parseYamlValue(text) as Partial<SyncedReplicasFile> | null;
  if (
    !v ||
    v.kind !== 'Deployment' ||
    typeof v.metadata?.namespace !== 'string' ||
    typeof v.metadata?.name !== 'string' ||
    !Number.isInteger(v.replicas) ||
    !Number.isInteger(v.gitReplicas)
  )
    throw new Error('expected a synced Deployment with metadata and integer replicas and gitReplicas');
  return v as SyncedReplicasFile;
}

export function syncedReplicasKey(f: Pick<SyncedReplicasFile, 'metadata'>): string {
  return refKey({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: f.metadata.namespace, name: f.metadata.name });
}
