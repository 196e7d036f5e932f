// Graceful eviction on a binding (Karmada's GracefulEvictCluster, binding_types_helper.go) and the lifetime of its
// tasks (controllers/gracefuleviction/evictiontask.go).
import type { GracefulEvictionTask, TargetCluster } from '../api/binding.ts';
import type { AggregatedStatusItem } from '../branches/status/statusFiles.ts';

/** Karmada's --graceful-eviction-timeout. */
export const DEFAULT_GRACE_PERIOD_SECONDS = 600;

/**
 * Removes the cluster from the result and records a task for it (none when one exists already). The replica sum
 * now falls short of spec.replicas, so the scheduler places the missing replicas on the remaining clusters.
 */
export function gracefulEvictCluster(
  clusters: readonly TargetCluster[],
  tasks: readonly GracefulEvictionTask[],
  name: string,
  task: Omit<GracefulEvictionTask, 'fromCluster' | 'replicas'>,
): { clusters: TargetCluster[]; tasks: GracefulEvictionTask[] } {
  const evicted = clusters.find((c) => c.name === name);
  if (!evicted) return { clusters: [...clusters], tasks: [...tasks] };
  const rest = clusters.filter((c) => c.name !== name);
  if (tasks.some((t) => t.fromCluster === name)) return { clusters: rest, tasks: [...tasks] };
  return {
    clusters: rest,
    tasks: [...tasks, { fromCluster: name, ...(evicted.replicas > 0 ? { replicas: evicted.replicas } : {}), ...task }],
  };
}

export type TaskEnd = { task: GracefulEvictionTask; why: 'confirmed' | 'gracePeriodEnded' | 'replacementsHealthy' };

/**
 * Which tasks end now (pure). suppressDeletion true keeps a task for ever, false ends it at once; otherwise it ends
 * when older than its grace period, or when every cluster of the new result reports the object Healthy with the
 * replicas the result gives it (a report from before the change would otherwise end the task too early). `result`
 * undefined: the scheduler did not place the binding this time (Karmada's hasScheduled false), so only time ends a
 * task; an empty result it did place has nothing left to wait for.
 */
export function assessEvictionTasks(
  tasks: readonly GracefulEvictionTask[],
  now: Date,
  result: readonly TargetCluster[] | undefined,
  observed: readonly AggregatedStatusItem[] | undefined,
  defaultGraceSeconds = DEFAULT_GRACE_PERIOD_SECONDS,
): { kept: GracefulEvictionTask[]; ended: TaskEnd[] } {
  const kept: GracefulEvictionTask[] = [];
  const ended: TaskEnd[] = [];
  for (const task of tasks) {
    if (task.suppressDeletion === true) {
      kept.push(task);
      continue;
    }
    if (task.suppressDeletion === false) {
      ended.push({ task, why: 'confirmed' });
      continue;
    }
    const grace = (task.gracePeriodSeconds ?? defaultGraceSeconds) * 1000;
    if (now.getTime() > Date.parse(task.creationTimestamp) + grace) ended.push({ task, why: 'gracePeriodEnded' });
    else if (result && allHealthy(result, observed ?? [])) ended.push({ task, why: 'replacementsHealthy' });
    else kept.push(task);
  }
  return { kept, ended };
}

function allHealthy(result: readonly TargetCluster[], observed: readonly AggregatedStatusItem[]): boolean {
  return result.every((target) => {
    const item = observed.find((i) => i.clusterName === target.name);
    if (!item || !item.applied || item.health !== 'Healthy') return false;
    const s = item.status ?? {};
    const reported =
      typeof s.updatedReplicas === 'number'
        ? s.updatedReplicas
        : typeof s.replicas === 'number'
          ? s.replicas
          : undefined;
    return target.replicas === 0 || reported === undefined || reported >= target.replicas;
  });
}

/**
 * The earliest moment from which a task may end by time alone (epoch milliseconds): its creation plus its grace period.
 * assessEvictionTasks ends it once the clock is past that. Undefined when no task ends by time.
 */
export function earliestGraceEnd(
  tasks: readonly GracefulEvictionTask[],
  defaultGraceSeconds = DEFAULT_GRACE_PERIOD_SECONDS,
): number | undefined {
  const times = tasks
    .filter((t) => t.suppressDeletion === undefined)
    .map((t) => Date.parse(t.creationTimestamp) + (t.gracePeriodSeconds ?? defaultGraceSeconds) * 1000);
  return times.length ? Math.min(...times) : undefined;
}

/**
 * When the earliest task ends by time alone: the next moment a render is due even if nothing else changes, a second
 * after its grace end, so the clock is past it.
 */
export function nextTaskDeadline(
  tasks: readonly GracefulEvictionTask[],
  defaultGraceSeconds = DEFAULT_GRACE_PERIOD_SECONDS,
): Date | undefined {
  const end = earliestGraceEnd(tasks, defaultGraceSeconds);
  return end === undefined ? undefined : new Date(afterGraceEnd(end));
}

/** When a render ends a task whose grace ends at `end` (epoch milliseconds): a second after, so the clock is past it. */
export function afterGraceEnd(end: number): number {
  return end + 1000;
}
