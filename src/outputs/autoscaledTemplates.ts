// FederatedHPA decisions joined to the source model: Karmada's FederatedHPA writes the replicas it decides into the
// resource template (its scale subresource); Flotilla never writes to the user's branch, so the render takes them
// from the status commit it pins and gives the template that count before the scheduler divides it.
import { createHash } from 'node:crypto';
import { describeRef, parseRefKey } from '../api/kinds.ts';
import type { ConfigModel } from '../api/model.ts';
import { DEFAULT_STATUS_REF } from '../branches/status/branch.ts';
import { readAutoscaledReplicas, type AutoscaledEntry } from '../branches/status/autoscalerDecisions.ts';
import { AUTOSCALED_TRAILER } from '../branches/rendered/trailers.ts';
import { readRecordedState } from './recordedState.ts';
import { readRef } from '../commits/readRef.ts';
import type { GitRepo } from '../commits/types.ts';

export type AutoscaledReplicas = ReadonlyMap<string, AutoscaledEntry>;

/**
 * The model with each autoscaled template's spec.replicas set to its decision; templates without spec are left alone,
 * and so is a template whose Git count moved since its members' count was synced (Git's edit is the later write).
 */
export function withAutoscaledReplicas(model: ConfigModel, autoscaled: AutoscaledReplicas): ConfigModel {
  if (autoscaled.size === 0) return model;
  const templates = new Map(model.templates);
  for (const [key, { replicas, by, gitReplicas }] of autoscaled) {
    const t = templates.get(key);
    const spec = t?.manifest.spec;
    if (!t || !spec || typeof spec !== 'object') continue;
    const inGit = (spec as { replicas?: unknown }).replicas;
    if (gitReplicas !== undefined && gitReplicas !== (typeof inGit === 'number' ? inGit : 1)) continue;
    templates.set(key, {
      ...t,
      manifest: { ...t.manifest, spec: { ...spec, replicas } },
      autoscaledBy: `${by}: ${replicas} replica(s)${typeof inGit === 'number' ? `, ${inGit} in Git` : ''}`,
    });
  }
  return { ...model, templates };
}

/**
 * A short hash of every decision (target and replicas), '' when there is none: recorded on output commits, so the
 * next sync renders again when a decision changed although the source did not.
 */
export function autoscaledKey(autoscaled: AutoscaledReplicas): string {
  if (autoscaled.size === 0) return '';
  // A synced count names the Git count it holds for: the same count recorded against a new Git count renders again.
  const parts = [...autoscaled.keys()].sort().map((k) => {
    const { replicas, gitReplicas } = autoscaled.get(k)!;
    return `${k}=${replicas}${gitReplicas === undefined ? '' : `@${gitReplicas}`}`;
  });
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);
}

/** The workloads whose decision differs between two sets: its count, its autoscaler, or the Git count it holds for. Pure. */
export function movedAutoscaledKeys(before: AutoscaledReplicas, after: AutoscaledReplicas): Set<string> {
  const moved = new Set<string>();
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(key);
    const now = after.get(key);
    if (was?.replicas !== now?.replicas || was?.by !== now?.by || was?.gitReplicas !== now?.gitReplicas) moved.add(key);
  }
  return moved;
}

/**
 * Since the render whose trailers these are: the decisions it used (read again from the status commit it records) and
 * the workloads whose decision moved, which render again, alone. 'all' when those decisions cannot be read again (the
 * state came from a file, or its commit is gone or no longer gives the recorded key): every template renders then.
 */
export async function autoscaleMovesSince(
  repo: GitRepo,
  trailers: Readonly<Record<string, string | undefined>>,
  autoscaled: AutoscaledReplicas,
): Promise<{ before: AutoscaledReplicas; moved: ReadonlySet<string> } | 'all'> {
  const recorded = trailers[AUTOSCALED_TRAILER] ?? '';
  const before = await readRecordedState<AutoscaledReplicas>(
    trailers,
    recorded,
    new Map(),
    (commit) => readAutoscaledReplicas(repo, commit),
    autoscaledKey,
  );
  if (!before) return 'all';
  const moved = movedAutoscaledKeys(before, autoscaled);
  // Keys of different decisions are different sets: an empty difference would mean the record lies.
  return moved.size > 0 || autoscaledKey(autoscaled) === recorded ? { before, moved } : 'all';
}

/**
 * What changed between two sets of decisions, one line per workload, e.g. `FederatedHPA default/web: Deployment
 * default/web 2 -> 4 replicas`: the reason a render of an unchanged source commit gives in its message, so the
 * output branch's log says an autoscaler moved the replicas, not that the cluster state changed. Pure.
 */
export function describeAutoscaleMoves(
  before: AutoscaledReplicas,
  after: AutoscaledReplicas,
  inGit: (key: string) => number | undefined = () => undefined,
): string[] {
  const lines: string[] = [];
  for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const was = before.get(key);
    const now = after.get(key);
    if (was?.replicas === now?.replicas && was?.by === now?.by) continue;
    const ref = describeRef(parseRefKey(key));
    const git = was ? undefined : inGit(key);
    lines.push(
      now
        ? `${now.by}: ${ref} ${was ? `${was.replicas} -> ` : git !== undefined ? `${git} (Git) -> ` : ''}${now.replicas} replicas`
        : `${was!.by} no longer decides: ${ref} back to the replicas in Git`,
    );
  }
  return lines;
}

/** The decisions on the status branch's head (what the next render would use), for explain and plan. */
export async function statusBranchAutoscaled(
  repo: GitRepo,
  statusRef = DEFAULT_STATUS_REF,
): Promise<AutoscaledReplicas> {
  return readAutoscaledReplicas(repo, (await readRef(repo, statusRef)) ?? null);
}
