// What `flotilla get shards` shows: the replicas' Leases on the host cluster, read once. A one-shot reader cannot
// watch a Lease change as the elector does, so liveness here is renewTime + leaseDurationSeconds against this
// machine's clock: a display, never a decision.
import type { LeaseObject } from '../leases/leaseRecord.ts';
import { recordOf } from '../leases/leaseRecord.ts';
import { claimsOf, LEADER_LEASE } from '../shards/planClaims.ts';
import { humanDuration } from '../time/humanDuration.ts';

export interface ShardRow {
  replica: string;
  leader: boolean;
  /** Renewed within its lease duration, by this machine's clock. */
  live: boolean;
  renewTime: string | undefined;
  clusters: { name: string; objects: number | undefined }[];
  objects: number;
}

export interface Shards {
  leader: { holder: string | undefined; leaseTransitions: number; renewTime: string | undefined } | undefined;
  replicas: ShardRow[];
  /** Push clusters (from the rendered branch) no live replica claims: none once the shards settled. */
  unowned: string[];
}

export function readShards(
  leader: LeaseObject | null,
  replicaLeases: readonly LeaseObject[],
  weights: ReadonlyMap<string, number> | undefined,
  now: number,
): Shards {
  const leaderRecord = leader ? recordOf(leader) : undefined;
  const leaderLive = leaderRecord ? isRecent(leaderRecord, now) : false;
  const replicas = replicaLeases
    .map((lease): ShardRow => {
      const record = recordOf(lease);
      const clusters = claimsOf(lease)
        .sort()
        .map((name) => ({ name, objects: weights?.get(name) }));
      return {
        replica: record.holderIdentity || `(released) ${lease.metadata.name}`,
        leader: leaderLive && record.holderIdentity !== '' && record.holderIdentity === leaderRecord?.holderIdentity,
        live: record.holderIdentity !== '' && isRecent(record, now),
        renewTime: lease.spec?.renewTime,
        clusters,
        objects: clusters.reduce((s, c) => s + (c.objects ?? 0), 0),
      };
    })
    .sort((a, b) => (a.replica < b.replica ? -1 : 1));
  const owned = new Set(replicas.filter((r) => r.live).flatMap((r) => r.clusters.map((c) => c.name)));
  return {
    leader: leaderRecord
      ? {
          holder: leaderLive ? leaderRecord.holderIdentity || undefined : undefined,
          leaseTransitions: leaderRecord.leaseTransitions,
          renewTime: leader?.spec?.renewTime,
        }
      : undefined,
    replicas,
    unowned: [...(weights?.keys() ?? [])].filter((c) => !owned.has(c)).sort(),
  };
}

function isRecent(record: ReturnType<typeof recordOf>, now: number): boolean {
  return record.renewTime !== undefined && record.renewTime + record.leaseDurationSeconds * 1000 > now;
}

/** kubectl-style table: one row per replica; wide adds the clusters. */
export function shardTable(shards: Shards, wide: boolean, now: number): { headers: string[]; rows: string[][] } {
  const headers = ['REPLICA', 'ROLE', 'STATUS', 'CLUSTERS', 'OBJECTS', 'RENEWED', ...(wide ? ['CLUSTER-NAMES'] : [])];
  const rows = shards.replicas.map((r) => [
    r.replica,
    r.leader ? 'leader' : 'replica',
    r.live ? 'Live' : 'Expired',
    String(r.clusters.length),
    String(r.objects),
    r.renewTime ? `${humanDuration(now - Date.parse(r.renewTime))} ago` : '<none>',
    ...(wide ? [r.clusters.map((c) => c.name).join(',') || '<none>'] : []),
  ]);
  for (const c of shards.unowned) rows.push(['<none>', '-', 'Unowned', '1', '-', '-', ...(wide ? [c] : [])]);
  return { headers, rows };
}

export { LEADER_LEASE };
