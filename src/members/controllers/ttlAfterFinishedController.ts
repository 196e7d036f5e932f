import type { KubeObject, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
import { finalizersOnDelete } from './garbageCollector.ts';

const JOBS = 'batch/jobs';

/**
 * Kubernetes' TTL-after-finished controller (pkg/controller/ttlafterfinished): a Job with ttlSecondsAfterFinished is
 * deleted that long after its Complete or Failed condition turned True, in the foreground so its pods go first.
 * ingress-nginx's admission Jobs set 0: on a real cluster they are gone once done, and `kubectl get all` lists none.
 */
export function ttlAfterFinishedController(deps: ControllerDeps): Controller {
  const { store, registry } = deps;
  const timers = new Map<string, NodeJS.Timeout>();

  function cancel(key: string): void {
    const timer = timers.get(key);
    if (timer) clearTimeout(timer);
    timers.delete(key);
  }

  function reconcile(key: string): void {
    cancel(key);
    const [namespace, name] = splitKey(key);
    const job = store.get(JOBS, namespace, name);
    if (!job || job.metadata.deletionTimestamp) return;
    const expireAt = expiry(job);
    if (expireAt === undefined) return;
    const remaining = expireAt - Date.parse(deps.now());
    if (remaining <= 0) {
      // The controller's delete carries the uid it looked at as a precondition, and Foreground propagation.
      store.delete(registry.byResourceKey(JOBS)!, namespace, name, { uid: job.metadata.uid! }, (had) =>
        finalizersOnDelete(had, 'Foreground'),
      );
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(key);
      reconcile(key);
    }, remaining);
    timer.unref();
    timers.set(key, timer);
  }

  return {
    name: 'ttl-after-finished',
    keysFor(event: StoreEvent): string[] {
      if (event.resource !== JOBS) return [];
      const key = keyOf(event.object.metadata.namespace, event.object.metadata.name!);
      if (event.type === 'DELETED') {
        cancel(key);
        return [];
      }
      return [key];
    },
    reconcile,
    initialKeys: () => store.list(JOBS).map((o) => keyOf(o.metadata.namespace, o.metadata.name!)),
    stop(): void {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** When a finished Job with a TTL expires (ms since the epoch): its finish time (jobFinishTime) plus the TTL. */
function expiry(job: KubeObject): number | undefined {
  const ttl = job.spec?.ttlSecondsAfterFinished;
  if (typeof ttl !== 'number') return undefined;
  const finished = (job.status?.conditions ?? []).find(
    (c: { type?: string; status?: string }) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
  const at = Date.parse(finished?.lastTransitionTime ?? '');
  return Number.isNaN(at) ? undefined : at + ttl * 1000;
}
