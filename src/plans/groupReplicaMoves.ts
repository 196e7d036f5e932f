import type { ReplicaMove } from './types.ts';

/** Moves per workload, in the order they came: one line each, "member1 1→2, member2 1→0". */
export function groupReplicaMoves(moves: readonly ReplicaMove[]): { ref: string; moves: string }[] {
  const byRef = new Map<string, string[]>();
  for (const m of moves) {
    const text = `${m.cluster} ${m.from}→${m.to}`;
    const list = byRef.get(m.ref);
    if (list) list.push(text);
    else byRef.set(m.ref, [text]);
  }
  return [...byRef].map(([ref, list]) => ({ ref, moves: list.join(', ') }));
}
