// The handoff protocol of cluster ownership, pure. Each replica publishes the clusters it claims in an annotation of
// its own membership Lease, and may apply a cluster only once the claim is CONFIRMED: published, and then a read of
// every replica's Lease showed no other live claim on it. Two replicas claiming at once cannot both confirm: whoever
// read second sees the other's claim (each published before reading) and yields. A confirmed claim stays until its
// owner releases it (its Lease no longer lists it) or its Lease expires; only then may another claim it.
import type { LeaseObject } from '../leases/leaseRecord.ts';
import { recordOf } from '../leases/leaseRecord.ts';

/** The annotation of a replica's Lease listing the clusters it claims: a JSON array of names. */
export const CLAIMS_ANNOTATION = 'flotilla.io/clusters';
/** Membership Leases carry this label, so one list finds every replica. */
export const REPLICA_LABEL = 'flotilla.io/role';
export const REPLICA_LABEL_VALUE = 'replica';
export const REPLICA_SELECTOR = `${REPLICA_LABEL}=${REPLICA_LABEL_VALUE}`;
export const LEADER_LEASE = 'flotilla-leader';

export function replicaLeaseName(identity: string): string {
  return `flotilla-replica-${identity}`;
}

/** One replica's Lease as this process last observed it. */
export interface PeerObservation {
  lease: string;
  holder: string;
  claims: string[];
  leaseDurationSeconds: number;
  /** Local time the Lease last changed, as the elector measures expiry. */
  observedAt: number;
  raw: string;
  resourceVersion: string | undefined;
}

export function claimsOf(lease: LeaseObject): string[] {
  try {
    const parsed = JSON.parse(lease.metadata.annotations?.[CLAIMS_ANNOTATION] ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

/** The Leases just listed, each with its local observation time carried over while it is unchanged. */
export function observePeers(
  previous: ReadonlyMap<string, PeerObservation>,
  leases: readonly LeaseObject[],
  now: number,
): Map<string, PeerObservation> {
  const out = new Map<string, PeerObservation>();
  for (const lease of leases) {
    const name = lease.metadata.name;
    const raw = JSON.stringify([lease.spec ?? {}, lease.metadata.annotations?.[CLAIMS_ANNOTATION] ?? '']);
    const before = previous.get(name);
    const record = recordOf(lease);
    out.set(name, {
      lease: name,
      holder: record.holderIdentity,
      claims: claimsOf(lease),
      leaseDurationSeconds: record.leaseDurationSeconds,
      observedAt: before?.raw === raw ? before.observedAt : now,
      raw,
      resourceVersion: lease.metadata.resourceVersion,
    });
  }
  return out;
}

/** Held and not expired on this process's clock: a released Lease (no holder) or a silent one counts for nothing. */
export function isLive(peer: PeerObservation, now: number): boolean {
  return peer.holder !== '' && peer.observedAt + peer.leaseDurationSeconds * 1000 > now;
}

/**
 * A replica Lease nobody renewed for this long (released, or its pod gone) is deleted, so Leases named after pods
 * of past rollouts do not pile up: ten lease durations, at least a minute.
 */
export function staleAfterMs(peer: PeerObservation): number {
  return Math.max(60_000, 10 * peer.leaseDurationSeconds * 1000);
}

export function isStale(peer: PeerObservation, now: number): boolean {
  return !isLive(peer, now) && peer.observedAt + staleAfterMs(peer) <= now;
}

export interface ClaimState {
  /** What this replica publishes. */
  claims: ReadonlySet<string>;
  /** What it may apply: claims published and then read back with no rival. */
  confirmed: ReadonlySet<string>;
}

export interface ClaimInput {
  me: string;
  state: ClaimState;
  /** The claims in this replica's Lease as written BEFORE the read `others` comes from. */
  published: ReadonlySet<string>;
  /** Other replicas' live Leases: holder → claims. */
  others: ReadonlyMap<string, readonly string[]>;
  /** The assignment (assignClusters) this replica computed: cluster → replica. */
  desired: ReadonlyMap<string, string>;
  /** Clusters a running pass is applying: released only once it is over. */
  busy: ReadonlySet<string>;
}

export interface ClaimPlan {
  state: ClaimState;
  /** Claims given up because they belong elsewhere now. */
  released: string[];
  /** Unconfirmed claims withdrawn because another replica claims the cluster too. */
  yielded: string[];
  /** New claims, to publish (confirmed on a later read). */
  claimed: string[];
  /** Claims confirmed by this read. */
  confirmed: string[];
}

export function planClaims(input: ClaimInput): ClaimPlan {
  const { me, state, published, desired, busy } = input;
  const rivals = new Set([...input.others.values()].flat());
  const claims = new Set(state.claims);
  const confirmed = new Set(state.confirmed);
  const plan: ClaimPlan = { state: { claims, confirmed }, released: [], yielded: [], claimed: [], confirmed: [] };
  for (const c of [...state.claims].sort()) {
    if (desired.get(c) !== me) {
      // Stop starting applies at once; the claim itself goes when no pass is applying the cluster any more.
      confirmed.delete(c);
      if (!busy.has(c)) {
        claims.delete(c);
        plan.released.push(c);
      }
    } else if (!confirmed.has(c)) {
      if (rivals.has(c)) {
        claims.delete(c);
        plan.yielded.push(c);
      } else if (published.has(c)) {
        confirmed.add(c);
        plan.confirmed.push(c);
      }
    }
  }
  for (const [c, owner] of [...desired].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (owner !== me || claims.has(c) || rivals.has(c)) continue;
    claims.add(c);
    plan.claimed.push(c);
  }
  return plan;
}

/** Who holds what, for the assignment's stickiness: live claims, this replica's own included. */
export function currentOwners(me: string, mine: ReadonlySet<string>, others: ReadonlyMap<string, readonly string[]>) {
  const owners = new Map<string, string>();
  for (const [holder, claims] of [...others].sort(([a], [b]) => (a < b ? -1 : 1)))
    for (const c of claims) if (!owners.has(c)) owners.set(c, holder);
  for (const c of mine) owners.set(c, me);
  return owners;
}
