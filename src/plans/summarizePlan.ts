import type { ClusterPlan, Plan } from './types.ts';

/** How many objects a plan adds, changes, removes and releases: Terraform's `Plan: 1 to add, …` counts. */
export interface PlanCounts {
  add: number;
  change: number;
  remove: number;
  release: number;
}

/** The counts over every cluster, and on how many clusters something changes. */
export interface PlanSummary extends PlanCounts {
  clusters: number;
}

export function clusterCounts(c: ClusterPlan): PlanCounts {
  return { add: c.added.length, change: c.changed.length, remove: c.removed.length, release: c.released.length };
}

export function summarizePlan(plan: Plan): PlanSummary {
  const total: PlanSummary = { add: 0, change: 0, remove: 0, release: 0, clusters: 0 };
  for (const c of Object.values(plan.clusters)) {
    const n = clusterCounts(c);
    total.add += n.add;
    total.change += n.change;
    total.remove += n.remove;
    total.release += n.release;
    total.clusters++;
  }
  return total;
}

/**
 * The line a reviewer reads first, as Terraform's: `Plan: 3 objects to add, 2 to change, 1 to remove, 4 released on 3
 * clusters.` Released objects are counted only when there are some: they are no deletion, and rare.
 */
export function summaryLine(s: PlanSummary): string {
  const objects = s.add === 1 ? 'object' : 'objects';
  const released = s.release > 0 ? `, ${s.release} released` : '';
  return `Plan: ${s.add} ${objects} to add, ${s.change} to change, ${s.remove} to remove${released} on ${s.clusters} ${s.clusters === 1 ? 'cluster' : 'clusters'}.`;
}
