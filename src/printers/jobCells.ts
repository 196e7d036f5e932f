// The STATUS and COMPLETIONS of a Job as kube-apiserver's printJob writes them. Shared by `flotilla get` and the
// member emulator's Tables.

type Condition = { type?: unknown; status?: unknown };

/** hasJobCondition: the first condition of a type decides. */
function hasCondition(conditions: unknown, type: string): boolean {
  const list = Array.isArray(conditions) ? (conditions as Condition[]) : [];
  return list.find((c) => c?.type === type)?.status === 'True';
}

/** Complete and Failed win over a pending deletion, which wins over Suspended and FailureTarget. */
export function jobStatus(conditions: unknown, deleting: boolean): string {
  if (hasCondition(conditions, 'Complete')) return 'Complete';
  if (hasCondition(conditions, 'Failed')) return 'Failed';
  if (deleting) return 'Terminating';
  if (hasCondition(conditions, 'Suspended')) return 'Suspended';
  if (hasCondition(conditions, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

/** `succeeded/completions`; without completions a work queue shows `succeeded/1`, `of <parallelism>` above one. */
export function jobCompletions(spec: unknown, succeeded: unknown): string {
  const s = (spec && typeof spec === 'object' ? spec : {}) as Record<string, unknown>;
  const done = typeof succeeded === 'number' ? succeeded : 0;
  if (typeof s.completions === 'number') return `${done}/${s.completions}`;
  const parallelism = typeof s.parallelism === 'number' ? s.parallelism : 0;
  return parallelism > 1 ? `${done}/1 of ${parallelism}` : `${done}/1`;
}
