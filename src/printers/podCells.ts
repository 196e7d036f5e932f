import { humanDuration } from '../time/humanDuration.ts';
import type { PrintedObject } from './printedObject.ts';

/** The READY, STATUS and RESTARTS cells of `kubectl get pods`. */
export interface PodCells {
  ready: string;
  status: string;
  restarts: string;
}

// A port of printPod (pkg/printers/internalversion/printers.go): init containers first (the first unfinished one
// names the status, `Init:1/2` while it has not failed), sidecars (restartPolicy Always) counted as containers once
// started, then the regular containers, last first, and deletion over everything but a terminal phase.
export function podCells(pod: PrintedObject, now: number): PodCells {
  const spec = pod.spec ?? {};
  const status = pod.status ?? {};
  const initSpecs = new Map<string, any>((spec.initContainers ?? []).map((c: any) => [c.name, c]));
  const restartable = (name: string) => initSpecs.get(name)?.restartPolicy === 'Always';
  const total =
    (spec.containers ?? []).length + [...initSpecs.values()].filter((c) => c.restartPolicy === 'Always').length;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart = 0;
  let lastSidecarRestart = 0;
  const finishedAt = (cs: any): number => Date.parse(cs.lastState?.terminated?.finishedAt ?? '') || 0;
  let reason: string = status.reason || status.phase || '';
  if ((status.conditions ?? []).some((c: any) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated'))
    reason = 'SchedulingGated';

  let initializing = false;
  const inits: any[] = status.initContainerStatuses ?? [];
  for (let i = 0; i < inits.length; i++) {
    const cs = inits[i];
    restarts += cs.restartCount ?? 0;
    lastRestart = Math.max(lastRestart, finishedAt(cs));
    if (restartable(cs.name)) {
      sidecarRestarts += cs.restartCount ?? 0;
      lastSidecarRestart = Math.max(lastSidecarRestart, finishedAt(cs));
    }
    const terminated = cs.state?.terminated;
    const waiting = cs.state?.waiting;
    if (terminated && (terminated.exitCode ?? 0) === 0) continue;
    if (restartable(cs.name) && cs.started) {
      if (cs.ready) ready++;
      continue;
    }
    if (terminated) {
      reason = terminated.reason
        ? `Init:${terminated.reason}`
        : terminated.signal
          ? `Init:Signal:${terminated.signal}`
          : `Init:ExitCode:${terminated.exitCode ?? 0}`;
    } else if (waiting?.reason && waiting.reason !== 'PodInitializing') reason = `Init:${waiting.reason}`;
    else reason = `Init:${i}/${initSpecs.size}`;
    initializing = true;
    break;
  }

  const initialized = (status.conditions ?? []).some((c: any) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initialized) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let running = false;
    const containers: any[] = status.containerStatuses ?? [];
    for (let i = containers.length - 1; i >= 0; i--) {
      const cs = containers[i];
      restarts += cs.restartCount ?? 0;
      lastRestart = Math.max(lastRestart, finishedAt(cs));
      const terminated = cs.state?.terminated;
      if (cs.state?.waiting?.reason) reason = cs.state.waiting.reason;
      else if (terminated?.reason) reason = terminated.reason;
      else if (terminated)
        reason = terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode ?? 0}`;
      else if (cs.ready && cs.state?.running) {
        running = true;
        ready++;
      }
    }
    if (reason === 'Completed' && running) {
      const podReady = (status.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');
      reason = podReady ? 'Running' : 'NotReady';
    }
  }

  if (pod.metadata.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && status.phase !== 'Succeeded' && status.phase !== 'Failed')
    reason = 'Terminating';

  const restartsText =
    restarts !== 0 && lastRestart > 0 ? `${restarts} (${humanDuration(now - lastRestart)} ago)` : String(restarts);
  return { ready: `${ready}/${total}`, status: reason, restarts: restartsText };
}
