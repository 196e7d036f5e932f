import { badRequest } from '../ApiError.ts';
import type { KubeObject } from '../types.ts';

/**
 * The container a log, exec or attach request reaches, chosen as kube-apiserver's validateContainer
 * (pkg/registry/core/pod/strategy.go) chooses it: the named one, which must exist among the init, regular and
 * ephemeral containers; else the only regular container; else a 400 naming every container in that order.
 */
export function podStreamContainer(pod: KubeObject, requested: string): string {
  const name = pod.metadata.name;
  const containers = (pod.spec?.containers ?? []) as { name?: string }[];
  const all = [
    ...((pod.spec?.initContainers ?? []) as { name?: string }[]),
    ...containers,
    ...((pod.spec?.ephemeralContainers ?? []) as { name?: string }[]),
  ].map((c) => c.name ?? '');
  if (requested !== '') {
    if (!all.includes(requested)) throw badRequest(`container ${requested} is not valid for pod ${name}`);
    return requested;
  }
  if (containers.length === 1) return containers[0]!.name ?? '';
  if (containers.length === 0) throw badRequest(`a container name must be specified for pod ${name}`);
  // Go's %s of a []string: the names in brackets, separated by spaces.
  throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${all.join(' ')}]`);
}

interface ContainerStatus {
  name?: string;
  containerID?: string;
  state?: { waiting?: { reason?: string }; running?: object; terminated?: { containerID?: string } };
  lastState?: { terminated?: { containerID?: string } };
}

/**
 * Why the kubelet has no log to stream for `container` (kubelet validateContainerLogStatus, relayed by the API
 * server as a 400 with its words): no status yet, no earlier run for `previous`, not started, or ended without a
 * container. Undefined when there is a log to read.
 */
export function containerLogRefusal(pod: KubeObject, container: string, previous: boolean): string | undefined {
  const which = `container ${JSON.stringify(container)} in pod ${JSON.stringify(pod.metadata.name)}`;
  const status = ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses']
    .flatMap((key) => (pod.status?.[key] ?? []) as ContainerStatus[])
    .find((s) => s.name === container);
  if (!status) {
    // The emulated kubelet reports regular and init containers; an ephemeral one has no status to judge by.
    const reported = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])] as { name?: string }[];
    return reported.some((c) => c.name === container) ? `${which} is not available` : undefined;
  }
  const last = status.lastState?.terminated;
  const { waiting, running, terminated } = status.state ?? {};
  if (previous) return last?.containerID ? undefined : `previous terminated ${which} not found`;
  if (running) return undefined;
  if (terminated) return terminated.containerID || last?.containerID ? undefined : `${which} is terminated`;
  if (last) return last.containerID ? undefined : `${which} is terminated`;
  if (waiting) {
    if (waiting.reason === 'ErrImagePull') return `${which} is waiting to start: image can't be pulled`;
    if (waiting.reason === 'ImagePullBackOff') return `${which} is waiting to start: trying and failing to pull image`;
    return `${which} is waiting to start: ${waiting.reason ?? ''}`;
  }
  return `${which} is waiting to start - no logs yet`;
}
