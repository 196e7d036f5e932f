import type { Plan } from './types.ts';

/** What the exit code of `plan` says: would any cluster see anything change? */
export function planHasChanges(plan: Plan): boolean {
  return Object.keys(plan.clusters).length > 0 || plan.replicas.length > 0;
}
