import { STATUS_UNKNOWN_REASON } from '../api/conditions.ts';
import { HEARTBEAT_ANNOTATION } from '../branches/status/statusFiles.ts';
// Karmada's cluster monitor (controllers/cluster/cluster_controller.go): a cluster whose status nobody has posted
// within the monitor grace period is Ready=Unknown. Flotilla probes Push clusters itself; a Pull cluster's status is
// written by its agent, which records a heartbeat, and this reads the status branch for heartbeats that stopped.
import { stringify } from 'yaml';
import { parseYamlValue } from '../yaml/blockYaml.ts';
import { GO_YAML_STRINGIFY_OPTIONS } from '../yaml/goYamlSchema.ts';
import type { Cluster, Condition } from '../api/cluster.ts';
import { CLUSTER_API_VERSION } from '../api/kinds.ts';
import { buildManagedTaints } from '../taints/clusterTaints.ts';
import { formatTime } from '../time/formatTime.ts';
import type { ClusterFileOptions } from './buildStatusFiles.ts';
import type { ClusterStatusFile } from '../branches/status/statusFiles.ts';

/** Karmada's --cluster-monitor-grace-period. */
export const MONITOR_GRACE_MS = 40_000;
/** How old a heartbeat may get before an agent writes a new one with nothing else changed: half the grace period. */
export const HEARTBEAT_INTERVAL_MS = MONITOR_GRACE_MS / 2;

/**
 * New bytes for the cluster files (existing: path → text) of the given clusters whose last heartbeat is older than
 * `graceMs` at `now`: Ready=Unknown naming that heartbeat, and the managed taints that follow (unreachable:NoSchedule,
 * plus any ClusterTaintPolicy on Unknown). A cluster already marked, without a file, or whose file has no heartbeat
 * (an agent that records none: nothing to judge by) is left alone. Pure.
 */
export function markMissingHeartbeats(
  existing: ReadonlyMap<string, string>,
  clusters: readonly string[],
  now: Date,
  opts: ClusterFileOptions & { graceMs?: number } = {},
): Map<string, string> {
  const out = new Map<string, string>();
  const grace = opts.graceMs ?? MONITOR_GRACE_MS;
  for (const name of clusters) {
    const path = `clusters/${name}.yaml`;
    const text = existing.get(path);
    const file = text ? (parseYamlValue(text) as ClusterStatusFile | null) : null;
    const heartbeat = file?.metadata?.annotations?.[HEARTBEAT_ANNOTATION];
    if (!file || !heartbeat || !(now.getTime() - Date.parse(heartbeat) > grace)) continue;
    const conditions = file.status?.conditions ?? [];
    if (conditions.some((c) => c.type === 'Ready' && c.status === 'Unknown' && c.reason === STATUS_UNKNOWN_REASON))
      continue;
    const unknown: Condition = {
      type: 'Ready',
      status: 'Unknown',
      reason: STATUS_UNKNOWN_REASON,
      message: `no status update from the Pull agent since its last heartbeat at ${heartbeat} (grace period ${grace / 1000}s)`,
      lastTransitionTime: formatTime(now),
    };
    const next = [unknown, ...conditions.filter((c) => c.type !== 'Ready')];
    const cluster: Cluster = opts.clusters?.get(name) ?? {
      apiVersion: CLUSTER_API_VERSION,
      kind: 'Cluster',
      metadata: { name },
      spec: { syncMode: 'Pull' },
    };
    const taints = buildManagedTaints(
      file.spec?.taints ?? [],
      next,
      opts.taintPolicies ?? [],
      cluster,
      formatTime(now),
    );
    // The agent's pending observation is void: nothing observed it since.
    const marked: ClusterStatusFile = {
      apiVersion: file.apiVersion,
      kind: 'Cluster',
      metadata: { name: file.metadata.name, annotations: { [HEARTBEAT_ANNOTATION]: heartbeat } },
      ...(taints.length > 0 ? { spec: { taints } } : {}),
      status: { ...file.status, conditions: next },
    };
    out.set(path, stringify(marked, { ...GO_YAML_STRINGIFY_OPTIONS, lineWidth: 0, aliasDuplicateObjects: false }));
  }
  return out;
}

/** The Clusters Git registers in Pull mode that this writer does not report on itself: their agents post status. */
export function agentClusters(
  clusters: ReadonlyMap<string, Cluster> | undefined,
  reported: Iterable<string>,
): string[] {
  const own = new Set(reported);
  return [...(clusters ?? new Map<string, Cluster>())]
    .filter(([name, c]) => c.spec.syncMode === 'Pull' && !own.has(name))
    .map(([name]) => name)
    .sort();
}
