import { describeCause } from './overrideCauses.ts';
import type { Plan } from './types.ts';

/** Per object, the override causes of its change, once for every set of clusters where they are the same. */
export function groupOverrideCauses(plan: Plan): { ref: string; clusters: string[]; causes: string }[] {
  const groups = new Map<string, { ref: string; clusters: string[]; causes: string }>();
  for (const [cluster, c] of Object.entries(plan.clusters))
    for (const o of [...c.added, ...c.changed, ...c.removed]) {
      if (!o.overrides?.length) continue;
      const causes = o.overrides.map(describeCause).join('; ');
      const key = `${o.ref}\n${causes}`;
      const group = groups.get(key) ?? { ref: o.ref, clusters: [], causes };
      groups.set(key, group);
      group.clusters.push(cluster);
    }
  return [...groups.values()].sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
}
