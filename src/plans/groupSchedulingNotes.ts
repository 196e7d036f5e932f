import { describePlanRef } from './describePlanRef.ts';
import type { SchedulingNote } from './types.ts';

/** Refs named before the rest of a group is only counted. */
const NAMED = 5;

/**
 * Notes that say the same thing (policy, status, message, per-cluster reasons) once, naming the templates they cover:
 * a cluster label change that moves fifty templates of one policy is one reason, read once, not fifty times.
 */
export function groupSchedulingNotes(notes: readonly SchedulingNote[]): { refs: string[]; note: SchedulingNote }[] {
  const groups = new Map<string, { refs: string[]; note: SchedulingNote }>();
  for (const note of notes) {
    const { ref, ...said } = note;
    const key = JSON.stringify(said);
    const group = groups.get(key);
    if (group) group.refs.push(ref);
    else groups.set(key, { refs: [ref], note });
  }
  return [...groups.values()];
}

/** "ConfigMap fleet/a", or "ConfigMap fleet/a, … and 45 more (50 templates)". */
export function describeRefs(refs: readonly string[]): string {
  const named = refs.slice(0, NAMED).map(describePlanRef).join(', ');
  return refs.length > NAMED ? `${named} and ${refs.length - NAMED} more (${refs.length} templates)` : named;
}

/** Clusters one scheduling note says the same thing of: the outcome, the replicas it gives, and why. */
export interface ClusterOutcome {
  clusters: string[];
  outcome: string;
  replicas?: number;
  why: string;
}

/**
 * A note's per-cluster reasons with the clusters they share said once, in the order each first appears (by name, as
 * the note lists them): on a fleet of 500 clusters most are filtered for one reason, and a relabel's plan at that size
 * was 61 MB of those lines, one per cluster per template. Every cluster is still named, so a search for one finds it.
 */
export function groupClusterOutcomes(clusters: SchedulingNote['clusters']): ClusterOutcome[] {
  const groups = new Map<string, ClusterOutcome>();
  for (const c of clusters) {
    const key = `${c.outcome}\0${c.replicas ?? ''}\0${c.why}`;
    const group = groups.get(key);
    if (group) group.clusters.push(c.cluster);
    else
      groups.set(key, {
        clusters: [c.cluster],
        outcome: c.outcome,
        ...(c.replicas !== undefined ? { replicas: c.replicas } : {}),
        why: c.why,
      });
  }
  return [...groups.values()];
}
