import type { KubeObject, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
import {
  everyDelayMs,
  intlTimeZone,
  lastCronRunBetween,
  lastEveryRunBetween,
  parseCronSchedule,
} from '../../time/cronSchedule.ts';
import { controlledBy, ownerReferenceTo, statusChanged } from './workloadPods.ts';
import { formatTime } from '../../time/formatTime.ts';

const CRONJOBS = 'batch/cronjobs';
const JOBS = 'batch/jobs';
const SCHEDULED_AT = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/**
 * CronJob → Jobs, as the cronjob controller (v2) runs them: at each scheduled minute of the member's clock a Job named
 * `<cronjob>-<minutes since the epoch>` from the jobTemplate, unless suspended or, with concurrencyPolicy Forbid, one
 * is still running (Replace deletes it first); only the latest missed run is made. Status lists the active Jobs and
 * the last schedule and success; finished Jobs beyond the history limits (3 successful, 1 failed) are deleted.
 */
export function cronJobController(deps: ControllerDeps, options: { tickMs?: number } = {}): Controller {
  const { store, registry } = deps;
  const tickMs = options.tickMs ?? 1000;
  /** Per CronJob, the minute up to which its schedule was searched: each tick then looks at the new minutes only. */
  const searched = new Map<string, number>();
  const iso = (ms: number) => formatTime(new Date(ms));

  function reconcile(key: string): void {
    const [namespace, name] = splitKey(key);
    const cj = store.get(CRONJOBS, namespace, name);
    if (!cj || cj.metadata.deletionTimestamp) {
      searched.delete(key);
      return;
    }
    const jobType = registry.byResourceKey(JOBS)!;
    let jobs = controlledBy(store, cj, JOBS);
    const finished = (job: KubeObject, type: 'Complete' | 'Failed') =>
      (job.status?.conditions ?? []).some(
        (c: { type?: string; status?: string }) => c.type === type && c.status === 'True',
      );
    const active = () => jobs.filter((j) => !finished(j, 'Complete') && !finished(j, 'Failed'));
    let lastScheduleTime: string | undefined = cj.status?.lastScheduleTime;

    const spec = typeof cj.spec?.schedule === 'string' ? cj.spec.schedule : undefined;
    const parsed = spec === undefined ? undefined : parseCronSchedule(spec);
    const schedule = parsed && !('error' in parsed) ? parsed : undefined;
    // `@every <duration>`, which kube-apiserver admits: robfig/cron's fixed interval from the last run.
    const delay = spec === undefined ? undefined : everyDelayMs(spec);
    // A zone Intl cannot compute in (one stored before validation refused it, or newer than this Node's ICU) runs
    // nothing, as kube-controller-manager runs nothing in a zone time.LoadLocation does not load.
    const timeZone = intlTimeZone(typeof cj.spec?.timeZone === 'string' ? cj.spec.timeZone : 'UTC');
    const now = Date.parse(deps.now());
    if ((schedule || delay) && timeZone && !cj.spec?.suspend) {
      const since = Date.parse(lastScheduleTime ?? cj.metadata.creationTimestamp ?? deps.now());
      let due: number | undefined;
      if (delay) due = lastEveryRunBetween(delay, since, now);
      else if (schedule) {
        due = lastCronRunBetween(schedule, Math.max(since, searched.get(key) ?? since), now, timeZone);
        searched.set(key, Math.floor(now / 60_000) * 60_000);
      }
      const deadline = cj.spec?.startingDeadlineSeconds;
      const late = due !== undefined && typeof deadline === 'number' && now - due > deadline * 1000;
      if (due !== undefined && !late) {
        const policy = cj.spec?.concurrencyPolicy ?? 'Allow';
        const running = active();
        if (policy === 'Replace')
          for (const j of running) store.delete(jobType, j.metadata.namespace, j.metadata.name!);
        if (policy !== 'Forbid' || running.length === 0) {
          const jobName = `${cj.metadata.name}-${Math.floor(due / 60_000)}`;
          if (!store.get(JOBS, namespace, jobName)) {
            const template = cj.spec?.jobTemplate ?? {};
            store.create(jobType, {
              apiVersion: 'batch/v1',
              kind: 'Job',
              metadata: {
                name: jobName,
                namespace: cj.metadata.namespace!,
                labels: { ...(template.metadata?.labels ?? {}) },
                annotations: { ...(template.metadata?.annotations ?? {}), [SCHEDULED_AT]: iso(due) },
                ownerReferences: [ownerReferenceTo(cj)],
              },
              spec: structuredClone(template.spec ?? {}),
            });
          }
          lastScheduleTime = iso(due);
          jobs = controlledBy(store, cj, JOBS);
        }
      }
    }

    // History: the newest finished Jobs are kept, as many as the limits say.
    const byStart = (a: KubeObject, b: KubeObject) =>
      String(b.metadata.creationTimestamp ?? '').localeCompare(String(a.metadata.creationTimestamp ?? ''));
    const limits: ['Complete' | 'Failed', number][] = [
      ['Complete', cj.spec?.successfulJobsHistoryLimit ?? 3],
      ['Failed', cj.spec?.failedJobsHistoryLimit ?? 1],
    ];
    for (const [type, limit] of limits)
      for (const old of jobs
        .filter((j) => finished(j, type))
        .sort(byStart)
        .slice(limit))
        store.delete(jobType, old.metadata.namespace, old.metadata.name!);
    jobs = controlledBy(store, cj, JOBS);

    const succeeded = jobs
      .filter((j) => finished(j, 'Complete'))
      .map((j) => String(j.status?.completionTime ?? ''))
      .filter(Boolean)
      .sort();
    const lastSuccessfulTime = succeeded.at(-1) ?? cj.status?.lastSuccessfulTime;
    const running = active();
    const status = {
      ...(running.length
        ? {
            active: running.map((j) => ({
              kind: 'Job',
              namespace: j.metadata.namespace,
              name: j.metadata.name,
              uid: j.metadata.uid,
              apiVersion: 'batch/v1',
              resourceVersion: j.metadata.resourceVersion,
            })),
          }
        : {}),
      ...(lastScheduleTime ? { lastScheduleTime } : {}),
      ...(lastSuccessfulTime ? { lastSuccessfulTime } : {}),
    };
    if (statusChanged(cj, status)) store.update(registry.byResourceKey(CRONJOBS)!, { ...structuredClone(cj), status });
  }

  // The clock, not an event, makes a run due: every CronJob is looked at each tick (the member's clock may jump, too).
  const timer = setInterval(() => {
    for (const o of store.list(CRONJOBS)) {
      const key = keyOf(o.metadata.namespace, o.metadata.name!);
      try {
        reconcile(key);
      } catch (error) {
        process.stderr.write(`cronjob ${key}: ${(error as Error)?.stack ?? error}\n`);
      }
    }
  }, tickMs);
  timer.unref();

  return {
    name: 'cronjob',
    keysFor(event: StoreEvent): string[] {
      const o = event.object;
      if (event.resource === CRONJOBS && event.type !== 'DELETED')
        return [keyOf(o.metadata.namespace, o.metadata.name!)];
      if (event.resource === JOBS)
        return (o.metadata.ownerReferences ?? [])
          .filter((r) => r.kind === 'CronJob' && r.controller)
          .map((r) => keyOf(o.metadata.namespace, r.name));
      return [];
    },
    reconcile,
    initialKeys: () => store.list(CRONJOBS).map((o) => keyOf(o.metadata.namespace, o.metadata.name!)),
    stop: () => clearInterval(timer),
  };
}
