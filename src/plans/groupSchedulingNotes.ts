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
