import type { Plan } from '../../../src/plans/types.ts';

/** A plan of base a…a and head b…b that changes nothing, with the given parts: what the renderers are tested on. */
export function emptyPlan(over: Partial<Plan> = {}): Plan {
  return {
    base: 'a'.repeat(40),
    head: 'b'.repeat(40),
    errors: [],
    warnings: [],
    clusters: {},
    replicas: [],
    scheduling: [],
    lookTwice: [],
    prune: { held: [], allowed: [], fix: '' },
    ...over,
  };
}
