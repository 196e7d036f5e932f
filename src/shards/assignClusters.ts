// Which replica applies which Push cluster: consistent hashing with bounded loads (Mirrokni, Thorup and
// Zadimoghaddam, "Consistent Hashing with Bounded Loads", SODA 2018), weighted by each cluster's object count and
// sticky to the current owners, so a replica joining or leaving moves only the clusters it must.
import { fnv1a32 } from '../hashing/fnv1a32.ts';

/** Points per replica on the ring: enough that each replica's arcs are about even. */
const VIRTUAL_NODES = 64;

/** The bound: no replica is given more than this × the average load, unless one cluster alone weighs more. */
export const DEFAULT_LOAD_BOUND = 1.05;

export interface AssignmentInput {
  /** The live replicas. */
  replicas: readonly string[];
  /** Each Push cluster and its weight (its object count on the rendered branch; at least 1). */
  weights: ReadonlyMap<string, number>;
  /** Who holds each cluster now: kept where the bound allows. */
  current?: ReadonlyMap<string, string>;
  /** 1 + ε of the paper; default DEFAULT_LOAD_BOUND. */
  loadBound?: number;
}

/** cluster → replica; empty when there is no replica. */
export function assignClusters(input: AssignmentInput): Map<string, string> {
  const replicas = [...new Set(input.replicas)].sort();
  const out = new Map<string, string>();
  if (replicas.length === 0) return out;
  const weight = (c: string) => Math.max(1, input.weights.get(c) ?? 1);
  const clusters = [...input.weights.keys()].sort();
  const total = clusters.reduce((s, c) => s + weight(c), 0);
  const heaviest = clusters.reduce((m, c) => Math.max(m, weight(c)), 0);
  const capacity = Math.max(heaviest, ((input.loadBound ?? DEFAULT_LOAD_BOUND) * total) / replicas.length);
  const ring = buildRing(replicas);
  const load = new Map(replicas.map((r) => [r, 0]));

  // Keep what each live owner holds, shedding only what puts it over the bound: the fewest clusters that do it.
  const live = new Set(replicas);
  const held = new Map<string, string[]>();
  for (const c of clusters) {
    const owner = input.current?.get(c);
    if (owner && live.has(owner)) held.set(owner, [...(held.get(owner) ?? []), c]);
  }
  for (const [owner, mine] of held) {
    const kept = shedOverBound(mine, weight, capacity);
    for (const c of kept) out.set(c, owner);
    load.set(
      owner,
      kept.reduce((s, c) => s + weight(c), 0),
    );
  }

  // Place the rest, heaviest first: each goes to the first replica clockwise from its hash that stays under the
  // average with it, else under the bound. Preferring the average sends what an owner shed to the replica short of
  // its share (a newcomer), not to another owner that happens to have room.
  const average = total / replicas.length;
  const rest = clusters.filter((c) => !out.has(c)).sort((a, b) => weight(b) - weight(a) || (a < b ? -1 : 1));
  for (const c of rest) {
    const order = preferenceOf(ring, c, replicas.length);
    const w = weight(c);
    const fits = order.find((r) => load.get(r)! + w <= average) ?? order.find((r) => load.get(r)! + w <= capacity);
    const chosen = fits ?? order.reduce((best, r) => (load.get(r)! < load.get(best)! ? r : best));
    out.set(c, chosen);
    load.set(chosen, load.get(chosen)! + w);
  }
  return out;
}

/** The replicas in ring order from the cluster's point, each once. */
export function preferenceOf(
  ring: readonly { point: number; replica: string }[],
  cluster: string,
  n: number,
): string[] {
  const at = fnv1a32(cluster);
  let i = ring.findIndex((p) => p.point >= at);
  if (i < 0) i = 0;
  const order: string[] = [];
  for (let k = 0; k < ring.length && order.length < n; k++) {
    const r = ring[(i + k) % ring.length]!.replica;
    if (!order.includes(r)) order.push(r);
  }
  return order;
}

export function buildRing(replicas: readonly string[]): { point: number; replica: string }[] {
  return replicas
    .flatMap((replica) =>
      Array.from({ length: VIRTUAL_NODES }, (_, i) => ({ point: fnv1a32(`${replica}#${i}`), replica })),
    )
    .sort((a, b) => a.point - b.point || (a.replica < b.replica ? -1 : 1));
}

/**
 * The clusters an owner keeps under `capacity`: while over, it gives up the lightest cluster that alone brings it
 * under, or else its heaviest, so as few clusters as possible move.
 */
function shedOverBound(mine: readonly string[], weight: (c: string) => number, capacity: number): string[] {
  const kept = [...mine].sort((a, b) => weight(a) - weight(b) || (a < b ? -1 : 1));
  let sum = kept.reduce((s, c) => s + weight(c), 0);
  while (sum > capacity && kept.length > 0) {
    const excess = sum - capacity;
    let i = kept.findIndex((c) => weight(c) >= excess);
    if (i < 0) i = kept.length - 1;
    sum -= weight(kept[i]!);
    kept.splice(i, 1);
  }
  return kept;
}

/** Total weight per replica (every replica listed, 0 when it holds nothing). */
export function loadsOf(
  assignment: ReadonlyMap<string, string>,
  weights: ReadonlyMap<string, number>,
  replicas: readonly string[],
): Map<string, number> {
  const loads = new Map(replicas.map((r) => [r, 0]));
  for (const [c, r] of assignment) loads.set(r, (loads.get(r) ?? 0) + Math.max(1, weights.get(c) ?? 1));
  return loads;
}
