// Karmada's graceful eviction controller on one binding after it was scheduled
// (pkg/controllers/gracefuleviction/rb_graceful_eviction_controller.go: syncBinding -> assessEvictionTasks): which
// tasks end now, and which clusters keep their copy meanwhile.
import type { GracefulEvictionTask, TargetCluster } from '../api/binding.ts';
import type { AggregatedStatusItem } from '../branches/status/statusFiles.ts';
import { assessEvictionTasks, type TaskEnd } from './gracefulEviction.ts';

/** What the controller reads besides the binding: the time, the binding's observed status and the default grace. */
export interface EvictionClock {
  now: Date;
  observed: readonly AggregatedStatusItem[] | undefined;
  /** A task without its own gracePeriodSeconds ends after this long. Default 600 (--graceful-eviction-timeout). */
  gracePeriodSeconds?: number | undefined;
}

export interface SyncedEvictionTasks {
  tasks: GracefulEvictionTask[];
  ended: TaskEnd[];
  /**
   * Clusters with a task that are not in the new result, sorted: they keep their previous copy until it ends (a
   * Directly task's cluster none).
   */
  evicting: string[];
}

/**
 * Ends the tasks that are due against the new result (targets; `scheduled` false when the scheduler failed and kept the
 * previous one: then only time ends a task). A task the taint manager created in this very render (evictedNow) waits
 * for the next one: no status can describe the new result yet. Without a clock (a render with no notion of time) no
 * task ends.
 */
export function syncEvictionTasks(
  tasks: GracefulEvictionTask[],
  evictedNow: ReadonlySet<string>,
  targets: readonly TargetCluster[],
  clock: EvictionClock | undefined,
  scheduled = true,
): SyncedEvictionTasks {
  let kept = tasks;
  let ended: TaskEnd[] = [];
  if (clock && tasks.length > 0) {
    const assessed = assessEvictionTasks(
      tasks.filter((t) => !evictedNow.has(t.fromCluster)),
      clock.now,
      scheduled ? targets : undefined,
      clock.observed,
      clock.gracePeriodSeconds,
    );
    kept = [...assessed.kept, ...tasks.filter((t) => evictedNow.has(t.fromCluster))];
    ended = assessed.ended;
  }
  // ObtainBindingSpecExistingClusters: a Directly task's cluster holds no copy (its Work is an orphan at once).
  const evicting = kept
    .filter((t) => t.purgeMode !== 'Directly')
    .map((t) => t.fromCluster)
    .filter((c) => !targets.some((t) => t.name === c))
    .sort();
  return { tasks: kept, ended, evicting };
}
