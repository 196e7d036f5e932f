import { groupOf, parseRefKey } from '../api/kinds.ts';
import type { HeldPrune, PruneHoldReason } from '../branches/status/inventory.ts';

export type { HeldPrune, PruneHoldReason };

/** The trailer on a source commit that lets the deletions of that commit through when prune safety holds them. */
export const ALLOW_PRUNE_TRAILER = 'Flotilla-Allow-Prune';

/** How the source commit read. Anything but `ok` means the deletions come from a broken read, never from intent. */
export type SourceState = 'ok' | 'empty' | 'unreadable' | 'missing';

/**
 * The source commit whose render took an object out of a cluster's folder ('' when that was before the commits
 * looked at), and the Flotilla-Allow-Prune trailer covering it: its own, or a later commit's (`allowedAt`).
 */
export interface DeletingCommit {
  commit: string;
  allowReason?: string | undefined;
  allowedAt?: string | undefined;
}

/** Which commit deleted `refKey` on `cluster` and what allows it; undefined allows nothing (fail closed). */
export type DeletionAttribution = (cluster: string, refKey: string) => DeletingCommit | undefined;

export interface PruneInput {
  /** Per cluster: how many objects it holds before the change. */
  current: ReadonlyMap<string, number>;
  /** Per cluster: refKeys the change would delete there. */
  removals: ReadonlyMap<string, readonly string[]>;
  /**
   * The value of the Flotilla-Allow-Prune trailer when every removal comes from one commit (plan: the change under
   * review), if any. Otherwise `deletedBy` says which commit made each removal: a trailer lets through only the
   * deletions of the commit that carries it, never those of an earlier or later one.
   */
  allowReason?: string | undefined;
  deletedBy?: DeletionAttribution;
  source: SourceState;
  /** Share of a cluster's objects whose deletion is held, exclusive. Default 0.5 (more than half). */
  threshold?: number;
  /**
   * How the user gives the trailer. 'amend' (plan: the PR's head commit can still be amended) or 'new-commit'
   * (sync and the applier: the commit is pushed already, so a follow-up commit carries it). Default 'amend'.
   */
  allowWith?: 'amend' | 'new-commit';
}

export interface PruneVerdict {
  /** Deletions that must not happen (yet). Empty when nothing is held. */
  held: HeldPrune[];
  /** Deletions that would have been held, let through by the trailer. */
  allowed: HeldPrune[];
  allowedBy?: string;
  /** What to do about `held`, or '' when nothing is held. */
  fix: string;
}

/**
 * The prune guard shared by plan, sync and the applier. Deleting most of a cluster, all of it, or any
 * Namespace or CRD (which takes every object inside with it) is held until a human says so in the trailer of the
 * commit that deletes it, or of a follow-up (allowReason, or deletedBy per object: readDeletingCommits.ts). A source
 * that reads as empty, unreadable or missing is a broken read, not a request to delete: those removals are held
 * whatever the trailer says.
 */
export function checkPruneSafety(input: PruneInput): PruneVerdict {
  const clusters = [...input.removals.keys()].filter((c) => (input.removals.get(c) ?? []).length > 0).sort();
  if (input.source !== 'ok') {
    const reason =
      input.source === 'empty'
        ? 'SOURCE_EMPTY'
        : input.source === 'unreadable'
          ? 'SOURCE_UNREADABLE'
          : 'SOURCE_MISSING';
    const held = clusters.map(
      (cluster): HeldPrune => ({
        cluster,
        reason,
        refs: [...input.removals.get(cluster)!].sort(),
        message: `the source commit is ${input.source}: that never means "delete everything", so ${cluster} keeps its objects`,
      }),
    );
    return {
      held,
      allowed: [],
      fix: held.length
        ? 'restore the source (templates, policies and Cluster objects); to retire everything on purpose, delete the templates but keep the Cluster objects, and add the trailer'
        : '',
    };
  }
  const threshold = input.threshold ?? 0.5;
  const holds: HeldPrune[] = [];
  for (const cluster of clusters) {
    const removed = [...input.removals.get(cluster)!].sort();
    const total = input.current.get(cluster) ?? 0;
    if (total > 0 && removed.length >= total) {
      holds.push({
        cluster,
        reason: 'EVERYTHING',
        refs: removed,
        message: `would delete all ${total} objects on ${cluster}`,
      });
      continue;
    }
    if (total > 0 && removed.length / total > threshold) {
      holds.push({
        cluster,
        reason: 'OVER_THRESHOLD',
        refs: removed,
        message: `would delete ${removed.length} of ${total} objects on ${cluster} (more than ${Math.round(threshold * 100)}%)`,
      });
      continue;
    }
    const namespaces = removed.filter((r) => isKind(r, '', 'Namespace'));
    const crds = removed.filter((r) => isKind(r, 'apiextensions.k8s.io', 'CustomResourceDefinition'));
    if (namespaces.length)
      holds.push({
        cluster,
        reason: 'NAMESPACE',
        refs: namespaces,
        message: `would delete ${namespaces.length} Namespace(s) on ${cluster}, and with them every object inside`,
      });
    if (crds.length)
      holds.push({
        cluster,
        reason: 'CRD',
        refs: crds,
        message: `would delete ${crds.length} CustomResourceDefinition(s) on ${cluster}, and with them every custom resource of that kind`,
      });
  }
  const reason = input.allowReason?.trim();
  if (reason) return { held: [], allowed: holds, allowedBy: reason, fix: '' };
  const held: HeldPrune[] = [];
  const allowed: HeldPrune[] = [];
  const reasons = new Set<string>();
  for (const hold of holds) {
    const by = (ref: string) => input.deletedBy?.(hold.cluster, ref)?.allowReason?.trim();
    const yes = hold.refs.filter((ref) => by(ref));
    const no = hold.refs.filter((ref) => !by(ref));
    for (const ref of yes) reasons.add(by(ref)!);
    if (yes.length > 0) allowed.push({ ...hold, refs: yes });
    if (no.length > 0) held.push({ ...hold, refs: no });
  }
  return {
    held,
    allowed,
    ...(reasons.size > 0 ? { allowedBy: [...reasons].join('; ') } : {}),
    fix: held.length ? allowPruneFix(input.allowWith ?? 'amend') : '',
  };
}

/** The one sentence that tells a user how to let held deletions through. */
export function allowPruneFix(allowWith: 'amend' | 'new-commit'): string {
  return allowWith === 'amend'
    ? `if these deletions are intended, end the head commit message with the trailer "${ALLOW_PRUNE_TRAILER}: <reason>" (git commit --amend --trailer "${ALLOW_PRUNE_TRAILER}: <reason>")`
    : `if these deletions are intended, push a commit carrying the trailer "${ALLOW_PRUNE_TRAILER}: <reason>", e.g. git commit --allow-empty -m "allow prune" --trailer "${ALLOW_PRUNE_TRAILER}: retiring app X" && git push`;
}

function isKind(key: string, group: string, kind: string): boolean {
  const ref = parseRefKey(key);
  return ref.kind === kind && groupOf(ref.apiVersion) === group;
}
