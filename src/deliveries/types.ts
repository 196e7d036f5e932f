import type { ObjectRef } from '../api/kinds.ts';

export type ConflictResolution = 'abort' | 'overwrite';

/**
 * `drift-repaired`: an object of ours that someone changed on the member while Git did not, forced back to what
 * Git says (not a `configured`: nothing in Git changed, so users see it apart).
 * `held`: a prune that prune safety stopped; the object stays on the member and in the inventory.
 */
export type ApplyAction =
  | 'created'
  | 'configured'
  | 'drift-repaired'
  | 'unchanged'
  | 'pruned'
  | 'held'
  | 'conflict'
  | 'failed';

/** What happened to one object on one member. */
export interface ApplyResult {
  ref: ObjectRef;
  /** Path of the manifest in the rendered branch; absent for prune results (the file is gone). */
  path?: string;
  action: ApplyAction;
  message: string;
  /**
   * A failure in Karmada's words, where Flotilla can give them: the error its execution controller puts after "Failed
   * to apply all manifests (0/1): " in the Work's Applied condition (the member's Status message, as client-go's error
   * says it; the object watcher's refusal of an object it does not manage). `message` is Flotilla's, with the fix.
   */
  error?: string;
  /** Set on results of the prune step: the object was in the inventory but no longer in the folder. */
  prune?: true;
  /** The object as the member last showed it (GET or apply response); the status stage reads it. */
  live?: Record<string, unknown>;
  /**
   * Not applied because nothing reached the member: it did not answer, or its cluster is not Ready and nothing was
   * sent. What it last reported about the object still stands (the status stage keeps it, as Karmada's execution
   * controller leaves a Work's status alone on a member it cannot reach or does not sync to).
   */
  unreachable?: true;
  /**
   * Dispatching to this cluster is suspended: nothing was sent, the object was only read (`live` when the member has
   * it). Whether it is applied stays what the last apply said, as a suspended Work keeps its Applied condition.
   */
  suspended?: true;
}

export const CONFLICT_RESOLUTION_ANNOTATION = 'work.karmada.io/conflict-resolution';
export const FIELD_MANAGER = 'flotilla';
