import type { StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
import {
  controlledBy,
  controllerKeys,
  createPod,
  PodCreateRefused,
  RefusedCreates,
  isActive,
  isReady,
  PODS,
  podFromTemplate,
  setCondition,
  statusChanged,
} from './workloadPods.ts';

const JOBS = 'batch/jobs';

/**
 * Job → Pods: keeps min(parallelism, completions - succeeded) pods running until `completions` pods have
 * Succeeded (the simulated kubelet completes Job pods), then marks the Job Complete. Suspend deletes the
 * active pods.
 */
export function jobController(deps: ControllerDeps): Controller {
  const { store, registry } = deps;
  const refusals = new RefusedCreates();

  function reconcile(key: string): void {
    const [namespace, name] = splitKey(key);
    refusals.cleared(namespace!, key);
    const job = store.get(JOBS, namespace, name);
    if (!job || job.metadata.deletionTimestamp) return;
    // A finished Job stays finished: deleting its pods (or their garbage collection) runs nothing again.
    if (
      job.status?.conditions?.some(
        (c: { type?: string; status?: string }) => c.type === 'Complete' && c.status === 'True',
      )
    )
      return;
    const podType = registry.byResourceKey(PODS)!;
    const completions: number = job.spec?.completions ?? 1;
    const parallelism: number = job.spec?.parallelism ?? 1;
    const owned = controlledBy(store, job, PODS);
    // Counted into status as pods finish (the real controller tracks them with a finalizer): a pod deleted after it
    // succeeded or failed still counts.
    const succeeded = Math.max(owned.filter((p) => p.status?.phase === 'Succeeded').length, job.status?.succeeded ?? 0);
    const failed = Math.max(owned.filter((p) => p.status?.phase === 'Failed').length, job.status?.failed ?? 0);
    let active = owned.filter(isActive);
    const done = succeeded >= completions;
    const suspended = Boolean(job.spec?.suspend);
    if (done || suspended) {
      for (const pod of active) store.delete(podType, pod.metadata.namespace, pod.metadata.name!);
      active = [];
    } else {
      const want = Math.min(parallelism, completions - succeeded);
      const labels = {
        'batch.kubernetes.io/job-name': job.metadata.name!,
        'job-name': job.metadata.name!,
        'batch.kubernetes.io/controller-uid': job.metadata.uid!,
        'controller-uid': job.metadata.uid!,
      };
      for (let i = active.length; i < want; i++) {
        const created = refusals.attempt(namespace!, key, () =>
          createPod(store, podType, podFromTemplate(job, undefined, labels), Date.parse(deps.now())),
        );
        if (created instanceof PodCreateRefused) break;
        active.push(created);
      }
    }
    const now = deps.now();
    let conditions = job.status?.conditions;
    if (done) {
      conditions = setCondition(
        conditions,
        'SuccessCriteriaMet',
        'True',
        'CompletionsReached',
        'Reached expected number of succeeded pods',
        now,
        { lastProbeTime: '' },
      );
      conditions = setCondition(
        conditions,
        'Complete',
        'True',
        'CompletionsReached',
        'Reached expected number of succeeded pods',
        now,
        { lastProbeTime: '' },
      );
    } else if (suspended) {
      conditions = setCondition(conditions, 'Suspended', 'True', 'JobSuspended', 'Job suspended', now, {
        lastProbeTime: '',
      });
    }
    const status = {
      ...(job.status?.startTime || !suspended ? { startTime: job.status?.startTime ?? now } : {}),
      ...(done ? { completionTime: job.status?.completionTime ?? now } : {}),
      ...(active.length ? { active: active.length } : {}),
      ...(succeeded ? { succeeded } : {}),
      ...(failed ? { failed } : {}),
      ready: active.filter(isReady).length,
      terminating: 0,
      uncountedTerminatedPods: {},
      ...(conditions ? { conditions } : {}),
    };
    if (statusChanged(job, status)) store.update(registry.byResourceKey(JOBS)!, { ...structuredClone(job), status });
  }

  return {
    name: 'job',
    keysFor(event: StoreEvent): string[] {
      const o = event.object;
      if (event.resource === JOBS && event.type !== 'DELETED') return [keyOf(o.metadata.namespace, o.metadata.name!)];
      if (event.resource === PODS) {
        return [...refusals.keysFor(event), ...controllerKeys(o, 'Job')];
      }
      return refusals.keysFor(event);
    },
    reconcile,
    initialKeys: () => store.list(JOBS).map((o) => keyOf(o.metadata.namespace, o.metadata.name!)),
  };
}
