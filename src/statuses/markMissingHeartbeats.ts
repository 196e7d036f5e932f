import { NEVER_UPDATED_REASON, STATUS_UNKNOWN_REASON } from '../api/conditions.ts';
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
/** Karmada's --cluster-startup-grace-period: how long a registered cluster may go without any status posted. */
export const STARTUP_GRACE_MS = 60_000;

/**
 * New bytes for the cluster files (existing: path → text) of the given Pull clusters that went silent at `now`:
 * - one whose last heartbeat is older than `graceMs`: Ready=Unknown naming that heartbeat;
 * - one without a file: a file recording when it was first seen (metadata.creationTimestamp, no status), from which
 *   Karmada's startup grace counts (a Cluster's creation there);
 * - one whose agent never posted (no heartbeat, no Ready condition) more than `startupGraceMs` after that:
 *   Ready=Unknown ClusterStatusNeverUpdated with Karmada's message;
 * each Unknown with the managed taints that follow (unreachable:NoSchedule, plus any ClusterTaintPolicy on Unknown).
 * A cluster already marked, or whose file has a Ready condition but no heartbeat (an agent that records none:
 * nothing to judge by) is left alone. Pure.
 */
export function markMissingHeartbeats(
  existing: ReadonlyMap<string, string>,
  clusters: readonly string[],
  now: Date,
  opts: ClusterFileOptions & { graceMs?: number; startupGraceMs?: number } = {},
): Map<string, string> {
  const out = new Map<string, string>();
  const grace = opts.graceMs ?? MONITOR_GRACE_MS;
  const startupGrace = opts.startupGraceMs ?? STARTUP_GRACE_MS;
  const writeFile = (path: string, file: ClusterStatusFile) =>
    out.set(path, stringify(file, { ...GO_YAML_STRINGIFY_OPTIONS, lineWidth: 0, aliasDuplicateObjects: false }));
  for (const name of clusters) {
    const path = `clusters/${name}.yaml`;
    const text = existing.get(path);
    const file = text ? (parseYamlValue(text) as ClusterStatusFile | null) : null;
    if (!file) {
      if (text === undefined)
        writeFile(path, {
          apiVersion: CLUSTER_API_VERSION,
          kind: 'Cluster',
          metadata: { name, creationTimestamp: formatTime(now) },
        });
      continue;
    }
    const conditions = file.status?.conditions ?? [];
    if (
      conditions.some(
        (c) =>
          c.type === 'Ready' &&
          c.status === 'Unknown' &&
          (c.reason === STATUS_UNKNOWN_REASON || c.reason === NEVER_UPDATED_REASON),
      )
    )
      continue;
    const heartbeat = file.metadata?.annotations?.[HEARTBEAT_ANNOTATION];
    const created = file.metadata?.creationTimestamp;
    let unknown: Condition;
    if (heartbeat) {
      if (!(now.getTime() - Date.parse(heartbeat) > grace)) continue;
      unknown = {
        type: 'Ready',
        status: 'Unknown',
        reason: STATUS_UNKNOWN_REASON,
        // Karmada's words (tryUpdateClusterHealth); when the agent last posted is the heartbeat annotation.
        message: 'Cluster status controller stopped posting cluster status.',
        lastTransitionTime: formatTime(now),
      };
    } else if (created && !conditions.some((c) => c.type === 'Ready')) {
      if (!(now.getTime() - Date.parse(created) > startupGrace)) continue;
      // Karmada's words (cluster_controller.go tryUpdateClusterHealth), so tools matching on them keep working.
      unknown = {
        type: 'Ready',
        status: 'Unknown',
        reason: NEVER_UPDATED_REASON,
        message: 'Cluster status controller never posted cluster status.',
        lastTransitionTime: formatTime(now),
      };
    } else continue;
    // In place, or appended when the agent never posted one, as tryUpdateClusterHealth sets it.
    const next = conditions.some((c) => c.type === 'Ready')
      ? conditions.map((c) => (c.type === 'Ready' ? unknown : c))
      : [...conditions, unknown];
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
    writeFile(path, {
      apiVersion: file.apiVersion,
      kind: 'Cluster',
      metadata: {
        name: file.metadata.name,
        ...(created ? { creationTimestamp: created } : {}),
        ...(heartbeat ? { annotations: { [HEARTBEAT_ANNOTATION]: heartbeat } } : {}),
      },
      ...(taints.length > 0 ? { spec: { taints } } : {}),
      status: { ...file.status, conditions: next },
    });
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
