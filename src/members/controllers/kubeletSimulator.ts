import type { KubeObject, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
import { isTerminal, PODS, setPodCondition, statusChanged } from './workloadPods.ts';

const NODES = '/nodes';
const TERMINATING = '/terminating';

/**
 * The kubelet, KWOK-style: no containers, only status. A pod bound to a node shows ContainerCreating, turns
 * Running and Ready after `readyDelayMs` with an IP from its node's pod CIDR, and — when a Job owns it —
 * Succeeds `jobPodDurationMs` later; a pod deleted with a grace period is removed `readyDelayMs` after. Timers are
 * keyed by pod uid, so a restart re-arms whatever was pending.
 */
export function kubeletSimulator(deps: ControllerDeps): Controller & { pendingTimers(): number } {
  const { store, registry } = deps;
  const timers = new Map<string, NodeJS.Timeout>();

  const podType = () => registry.byResourceKey(PODS)!;
  const ownedByJob = (pod: KubeObject) => (pod.metadata.ownerReferences ?? []).some((r) => r.kind === 'Job');

  function arm(pod: KubeObject, delayMs: number, step: (pod: KubeObject) => void): void {
    const uid = pod.metadata.uid!;
    if (timers.has(uid)) return;
    const key = keyOf(pod.metadata.namespace, pod.metadata.name!);
    const timer = setTimeout(() => {
      timers.delete(uid);
      const [namespace, name] = splitKey(key);
      const current = store.get(PODS, namespace, name);
      if (current && current.metadata.uid === uid && !current.metadata.deletionTimestamp) step(current);
    }, delayMs);
    timer.unref();
    timers.set(uid, timer);
  }

  function allocateIp(pod: KubeObject): string {
    const node = store.get(NODES, undefined, pod.spec.nodeName);
    const cidr: string = node?.spec?.podCIDR ?? '10.244.0.0/24';
    const prefix = cidr.split('/')[0]!.split('.').slice(0, 3).join('.');
    const used = new Set(
      store
        .list(PODS)
        .filter((p) => p.spec?.nodeName === pod.spec.nodeName)
        .map((p) => p.status?.podIP),
    );
    for (let host = 2; host < 255; host++) if (!used.has(`${prefix}.${host}`)) return `${prefix}.${host}`;
    return `${prefix}.254`;
  }

  function hostIp(pod: KubeObject): string {
    const node = store.get(NODES, undefined, pod.spec.nodeName);
    return (node?.status?.addresses ?? []).find((a: any) => a.type === 'InternalIP')?.address ?? '10.0.0.1';
  }

  const containers = (pod: KubeObject): any[] => pod.spec?.containers ?? [];
  const initContainers = (pod: KubeObject): any[] => pod.spec?.initContainers ?? [];
  const sidecar = (c: any): boolean => c.restartPolicy === 'Always';
  // The kubelet's status of a container not started yet: ContainerCreating, or PodInitializing in a pod with init
  // containers (convertToAPIContainerStatuses' default waiting state).
  const waitingStatus = (c: any, reason: string) => ({
    name: c.name,
    image: c.image,
    imageID: '',
    ready: false,
    restartCount: 0,
    started: false,
    state: { waiting: { reason } },
    lastState: {},
  });

  /**
   * Init containers once the pod runs: each ran to completion (Completed, exit 0, ready as the prober reports a
   * succeeded init container) except sidecars (restartPolicy Always), which keep running.
   */
  function initStatuses(pod: KubeObject, startedAt: string, now: string, sidecarsStopped = false): any[] {
    return initContainers(pod).map((c) => {
      const containerID = `kwok://${pod.metadata.uid}-${c.name}`;
      const running = sidecar(c) && !sidecarsStopped;
      return {
        name: c.name,
        image: c.image,
        imageID: `docker.io/${c.image}`,
        containerID,
        ready: running || !sidecar(c),
        restartCount: 0,
        started: running,
        state: running
          ? { running: { startedAt } }
          : { terminated: { exitCode: 0, reason: 'Completed', startedAt, finishedAt: now, containerID } },
        lastState: {},
      };
    });
  }

  function markCreating(pod: KubeObject): void {
    const now = deps.now();
    const inits = initContainers(pod);
    let conditions = setPodCondition(pod.status?.conditions, 'PodScheduled', 'True', '', '', now);
    conditions =
      inits.length > 0
        ? setPodCondition(
            conditions,
            'Initialized',
            'False',
            'ContainersNotInitialized',
            `containers with incomplete status: [${inits.map((c) => c.name).join(' ')}]`,
            now,
          )
        : setPodCondition(conditions, 'Initialized', 'True', '', '', now);
    conditions = setPodCondition(
      conditions,
      'Ready',
      'False',
      'ContainersNotReady',
      `containers with unready status: [${containers(pod)
        .map((c) => c.name)
        .join(' ')}]`,
      now,
    );
    conditions = setPodCondition(
      conditions,
      'ContainersReady',
      'False',
      'ContainersNotReady',
      `containers with unready status: [${containers(pod)
        .map((c) => c.name)
        .join(' ')}]`,
      now,
    );
    const status = {
      ...(pod.status ?? {}),
      phase: 'Pending',
      hostIP: hostIp(pod),
      hostIPs: [{ ip: hostIp(pod) }],
      conditions,
      ...(inits.length > 0 ? { initContainerStatuses: inits.map((c) => waitingStatus(c, 'PodInitializing')) } : {}),
      containerStatuses: containers(pod).map((c) =>
        waitingStatus(c, inits.length > 0 ? 'PodInitializing' : 'ContainerCreating'),
      ),
    };
    if (statusChanged(pod, status)) store.update(podType(), { ...structuredClone(pod), status });
  }

  function markRunning(pod: KubeObject): void {
    const now = deps.now();
    let conditions = pod.status?.conditions;
    for (const type of ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']) {
      conditions = setPodCondition(conditions, type, 'True', '', '', now);
    }
    const ip = pod.status?.podIP ?? allocateIp(pod);
    store.update(podType(), {
      ...structuredClone(pod),
      status: {
        ...(pod.status ?? {}),
        phase: 'Running',
        podIP: ip,
        podIPs: [{ ip }],
        hostIP: hostIp(pod),
        hostIPs: [{ ip: hostIp(pod) }],
        startTime: pod.status?.startTime ?? now,
        conditions,
        ...(initContainers(pod).length > 0
          ? { initContainerStatuses: initStatuses(pod, pod.status?.startTime ?? now, now) }
          : {}),
        containerStatuses: containers(pod).map((c) => ({
          name: c.name,
          image: c.image,
          imageID: `docker.io/${c.image}`,
          containerID: `kwok://${pod.metadata.uid}-${c.name}`,
          ready: true,
          restartCount: 0,
          started: true,
          state: { running: { startedAt: now } },
          lastState: {},
        })),
      },
    });
  }

  function markSucceeded(pod: KubeObject): void {
    const now = deps.now();
    let conditions = pod.status?.conditions;
    conditions = setPodCondition(conditions, 'Ready', 'False', 'PodCompleted', '', now);
    conditions = setPodCondition(conditions, 'ContainersReady', 'False', 'PodCompleted', '', now);
    store.update(podType(), {
      ...structuredClone(pod),
      status: {
        ...(pod.status ?? {}),
        phase: 'Succeeded',
        conditions,
        ...(initContainers(pod).length > 0
          ? { initContainerStatuses: initStatuses(pod, pod.status?.startTime ?? now, now, true) }
          : {}),
        containerStatuses: containers(pod).map((c) => ({
          name: c.name,
          image: c.image,
          imageID: `docker.io/${c.image}`,
          containerID: `kwok://${pod.metadata.uid}-${c.name}`,
          ready: false,
          restartCount: 0,
          started: false,
          lastState: {},
          state: {
            terminated: { exitCode: 0, reason: 'Completed', startedAt: pod.status?.startTime ?? now, finishedAt: now },
          },
        })),
      },
    });
  }

  /**
   * A pod deleted with a grace period: its containers stop (at once: they run no process) and the kubelet's status
   * manager then deletes it for good, with no grace period left and its uid as a precondition.
   */
  function terminate(pod: KubeObject): void {
    const uid = pod.metadata.uid!;
    const timerKey = `${uid}${TERMINATING}`;
    if (timers.has(timerKey)) return;
    const timer = setTimeout(() => {
      timers.delete(timerKey);
      const current = store.get(PODS, pod.metadata.namespace, pod.metadata.name!);
      if (!current || current.metadata.uid !== uid) return;
      store.delete(podType(), pod.metadata.namespace, pod.metadata.name!, { uid }, undefined, {
        period: 0,
        requested: 0,
      });
    }, deps.readyDelayMs);
    timer.unref();
    timers.set(timerKey, timer);
  }

  function reconcile(key: string): void {
    const [namespace, name] = splitKey(key);
    const pod = store.get(PODS, namespace, name);
    if (pod?.spec?.nodeName && pod.metadata.deletionTimestamp && (pod.metadata.deletionGracePeriodSeconds ?? 0) > 0)
      return terminate(pod);
    if (!pod || !pod.spec?.nodeName || pod.metadata.deletionTimestamp || isTerminal(pod)) return;
    if (pod.status?.phase !== 'Running') {
      if (!pod.status?.hostIP) markCreating(pod);
      arm(pod, deps.readyDelayMs, markRunning);
    } else if (ownedByJob(pod)) {
      arm(pod, deps.jobPodDurationMs, markSucceeded);
    }
  }

  return {
    name: 'kubelet',
    keysFor(event: StoreEvent): string[] {
      if (event.resource !== PODS) return [];
      const o = event.object;
      if (event.type === 'DELETED') {
        for (const timerKey of [o.metadata.uid!, `${o.metadata.uid}${TERMINATING}`]) {
          clearTimeout(timers.get(timerKey));
          timers.delete(timerKey);
        }
        return [];
      }
      return o.spec?.nodeName ? [keyOf(o.metadata.namespace, o.metadata.name!)] : [];
    },
    reconcile,
    initialKeys: () =>
      store
        .list(PODS)
        .filter((p) => p.spec?.nodeName)
        .map((p) => keyOf(p.metadata.namespace, p.metadata.name!)),
    stop(): void {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
    pendingTimers: () => timers.size,
  };
}
