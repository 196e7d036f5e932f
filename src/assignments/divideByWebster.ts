// Webster / Sainte-Laguë division over integers (Karmada pkg/util/helper/webstermethod.go and
// binding.go#Dispenser): each next seat goes to the party with the highest votes / (2 * seats + 1).
import type { TargetCluster } from '../api/binding.ts';
import { fnv1a32 } from '../hashing/fnv1a32.ts';

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
 *
 * Karmada hands out one seat per step. Here the result is the same, in time independent of the seat count
 * (a repository decides the count: 2147483647 replicas must not take half a minute): a party's next seats
 * are its offers votes/(2s+1), s = seats, s+1, ..., each strictly lower than the one before, and a step
 * always takes the best offer left, so the result is the `newSeats` best offers in one order (priority,
 * then the tie-breaker). A threshold bisected over the priorities gives every party, at once, the offers
 * above it; the few seats left go one by one from a heap. Votes must be finite and not negative; `tieBreaker`
 * must be a strict order. Parties without votes get no new seats while any party has votes; when none has,
 * no seat can be weighed and none is handed out (divideByWebster returns before that).
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
  const voters = all.filter((p) => p.votes > 0);
  if (newSeats > 0 && voters.length > 0) {
    const threshold = seatThreshold(voters, newSeats);
    let given = 0;
    for (const p of voters) {
      const count = offersAbove(p, threshold, newSeats);
      p.seats += count;
      given += count;
    }
    handOutOneByOne(voters, newSeats - given, first);
  }
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * How many of `p`'s next offers are above `threshold` (> 0), computed with the same floating-point division
 * the seat-by-seat comparison uses; more than `cap` reads as cap + 1.
 */
function offersAbove(p: Party, threshold: number, cap: number): number {
  const above = (k: number): boolean => p.votes / (2 * k + 1) > threshold;
  if (!above(p.seats)) return 0;
  const last = p.seats + cap;
  if (above(last)) return cap + 1;
  // The estimate is off by a rounding error at most; the two loops step over it.
  const estimate = Math.floor((p.votes / threshold - 1) / 2);
  let k = Number.isFinite(estimate) ? Math.min(Math.max(estimate, p.seats), last) : last;
  while (!above(k)) k--;
  while (k + 1 < last && above(k + 1)) k++;
  return k - p.seats + 1;
}

/**
 * A priority for which the offers strictly above it are no more than `seats`, and at most one per party fewer:
 * the heap hands out the rest. Bracketed around the Webster divisor's estimate, then bisected.
 */
function seatThreshold(voters: readonly Party[], seats: number): number {
  const countAbove = (threshold: number): number => {
    let count = 0;
    for (const p of voters) {
      count += offersAbove(p, threshold, seats);
      if (count > seats) return count;
    }
    return count;
  };
  const close = (count: number): boolean => count <= seats && seats - count <= voters.length;
  // Each party gets about votes / (2 * threshold) seats in all: start from the threshold that hands out them all.
  const votes = voters.reduce((s, p) => s + p.votes, 0);
  const held = voters.reduce((s, p) => s + p.seats, 0);
  let high = votes / (2 * (seats + held));
  let count = countAbove(high);
  if (close(count)) return high;
  let low = high;
  if (count <= seats) {
    while (countAbove(low) <= seats && low > Number.MIN_VALUE) low /= 2;
  } else {
    while ((count = countAbove(high)) > seats) high *= 2;
    if (close(count)) return high;
  }
  // Bisection down to adjacent doubles at most: then at most one offer per party sits at `high` itself.
  for (let i = 0; i < 2200; i++) {
    const mid = low + (high - low) / 2;
    if (mid <= low || mid >= high) break;
    const c = countAbove(mid);
    if (c <= seats) {
      high = mid;
      if (close(c)) break;
    } else low = mid;
  }
  return high;
}

/** Karmada's seat-by-seat step for the last `seats`, the best party taken from a binary heap. */
function handOutOneByOne(parties: Party[], seats: number, first: (a: Party, b: Party) => boolean): void {
  if (seats <= 0) return;
  const heap: Party[] = [];
  const swap = (i: number, j: number): void => {
    const t = heap[i] as Party;
    heap[i] = heap[j] as Party;
    heap[j] = t;
  };
  const down = (start: number): void => {
    for (let i = start; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < heap.length && first(heap[l] as Party, heap[best] as Party)) best = l;
      if (r < heap.length && first(heap[r] as Party, heap[best] as Party)) best = r;
      if (best === i) return;
      swap(i, best);
      i = best;
    }
  };
  heap.push(...parties);
  for (let i = Math.floor(heap.length / 2) - 1; i >= 0; i--) down(i);
  for (let left = seats; left > 0; left--) {
    (heap[0] as Party).seats++;
    down(0);
  }
}

/**
 * Divides `total` by weight with Karmada's UID tie-break (the Dispenser). `seats` are replicas already
 * held, kept and counted when the next seats are handed out. All weights 0: the held seats are returned
 * unchanged. The result lists every party (zero entries included), sorted by name. Also used to split
 * Job completions by each cluster's assigned replicas.
 */
export function divideByWebster(
  total: number,
  weights: { name: string; weight: number; seats?: number }[],
  uid: string,
): TargetCluster[] {
  const held = weights.filter((w) => w.seats !== undefined).map((w) => ({ name: w.name, replicas: w.seats as number }));
  if (total === 0 && held.length > 0) return held;
  if (weights.reduce((sum, w) => sum + w.weight, 0) === 0) return held;
  const votes = new Map(weights.map((w) => [w.name, w.weight]));
  const initial = new Map(held.map((h) => [h.name, h.replicas]));
  const parties = allocateWebsterSeats(total, votes, initial, tieBreakerByUid(uid)) ?? [];
  return parties.map((p) => ({ name: p.name, replicas: p.seats }));
}
