// Webster / Sainte-Laguë division over integers (Karmada pkg/util/helper/webstermethod.go and
// binding.go#Dispenser): each next seat goes to the party with the highest votes / (2 * seats + 1).
import type { TargetCluster } from '../api/binding.ts';
import { fnv1a32 } from '../bindings/bindingName.ts';

export interface Party {
  name: string;
  votes: number;
  seats: number;
}

/** true when `a` should get the next seat before `b` at equal priority. */
export type TieBreaker = (a: Party, b: Party) => boolean;

/**
 * Karmada's tie-break: fewer seats first, then by name, ascending, or descending when the FNV-1a-32
 * hash of the resource UID is odd. An empty UID sorts ascending.
 */
export function tieBreakerByUid(uid: string): TieBreaker {
  const descending = uid.length > 0 && (fnv1a32(uid) & 1) === 1;
  return (a, b) => {
    if (a.seats !== b.seats) return a.seats < b.seats;
    return descending ? a.name > b.name : a.name < b.name;
  };
}

/**
 * Hands out `newSeats` more seats on top of `initial` seats. Parties only in `initial` keep their seats
 * and have no votes. Result sorted by name; undefined when there are no parties at all.
 */
export function allocateWebsterSeats(
  newSeats: number,
  votes: ReadonlyMap<string, number>,
  initial: ReadonlyMap<string, number> = new Map(),
  tieBreaker?: TieBreaker,
): Party[] | undefined {
  const parties = new Map<string, Party>();
  for (const [name, seats] of initial) parties.set(name, { name, votes: 0, seats });
  for (const [name, v] of votes) {
    const existing = parties.get(name);
    if (existing) existing.votes = v;
    else parties.set(name, { name, votes: v, seats: 0 });
  }
  if (parties.size === 0) return undefined;
  const all = [...parties.values()];
  const first = (a: Party, b: Party): boolean => {
    const pa = a.votes / (2 * a.seats + 1);
    const pb = b.votes / (2 * b.seats + 1);
    if (pa !== pb) return pa > pb;
    if (tieBreaker) return tieBreaker(a, b);
    if (a.seats !== b.seats) return a.seats < b.seats;
    return a.name < b.name;
  };
  for (let left = newSeats; left > 0; left--) {
    let best = all[0] as Party;
    for (const p of all) if (p !== best && first(p, best)) best = p;
    best.seats++;
  }
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Divides `total` by weight with Karmada's UID tie-break (the Dispenser). `seats` are replicas already
 * held, kept and counted when the next seats are handed out. All weights 0: the held seats are returned
 * unchanged. The result lists every party (zero entries included), sorted by name. Also used to split
 * Job completions by each cluster's assigned replicas.
 */
export function divideByWebster(total: number, weights: { name: string; weight: number; seats?: number }[], uid: string): TargetCluster[] {
  const held = weights.filter((w) => w.seats !== undefined).map((w) => ({ name: w.name, replicas: w.seats as number }));
  if (total === 0 && held.length > 0) return held;
  if (weights.reduce((sum, w) => sum + w.weight, 0) === 0) return held;
  const votes = new Map(weights.map((w) => [w.name, w.weight]));
  const initial = new Map(held.map((h) => [h.name, h.replicas]));
  const parties = allocateWebsterSeats(total, votes, initial, tieBreakerByUid(uid)) ?? [];
  return parties.map((p) => ({ name: p.name, replicas: p.seats }));
}
