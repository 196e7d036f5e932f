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
