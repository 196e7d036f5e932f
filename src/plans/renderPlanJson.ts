import type { Problem } from '../errors/problem.ts';
import type { HeldPrune } from '../deliveries/checkPruneSafety.ts';
import { clusterCounts, summarizePlan, type PlanCounts, type PlanSummary } from './summarizePlan.ts';
import type { Plan, ReplicaMove } from './types.ts';

/**
 * The machine-readable plan: a stable contract for CI bots, so diffs and explanations stay out of it. It may gain
 * fields (a bot ignores those it does not know); none is renamed or removed.
 */
export interface PlanJson {
  base: string;
  head: string;
  errors: Problem[];
  /** released: left on the member, no longer managed (preserveResourcesOnDeletion); never deleted. */
  clusters: Record<
    string,
    { added: string[]; changed: string[]; removed: string[]; released: string[]; summary: PlanCounts }
  >;
  replicas: ReplicaMove[];
  /** Deletions the prune guard holds; empty when none are, or the trailer allowed them. */
  held: HeldPrune[];
  /** The counts of `Plan: N objects to add, …` over every cluster, and how many clusters see a change. */
  summary: PlanSummary;
}

export function renderPlanJson(plan: Plan): string {
  return `${JSON.stringify(planJson(plan), null, 2)}\n`;
}

/** The contract's object, which `-o json` and `-o yaml` both print. */
export function planJson(plan: Plan): PlanJson {
  return {
    base: plan.base,
    head: plan.head,
    errors: plan.errors,
    clusters: Object.fromEntries(
      Object.entries(plan.clusters).map(([name, c]) => [
        name,
        {
          added: c.added.map((o) => o.ref),
          changed: c.changed.map((o) => o.ref),
          removed: c.removed.map((o) => o.ref),
          released: c.released.map((o) => o.ref),
          summary: clusterCounts(c),
        },
      ]),
    ),
    replicas: plan.replicas,
    held: plan.prune.held,
    summary: summarizePlan(plan),
  };
}
