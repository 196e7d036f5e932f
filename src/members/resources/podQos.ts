import type { KubeObject } from '../types.ts';
import { nanoValue, parseQuantity } from '../../quantities/canonicalQuantity.ts';

type Json = any;

const QOS_RESOURCES = ['cpu', 'memory'];

/**
 * A pod's QoS class (pkg/apis/core/helper/qos GetPodQOS), from its containers' cpu and memory after defaulting:
 * nothing requested or limited is BestEffort; limits on both for every container, with requests equal to
 * limits, is Guaranteed; anything else Burstable.
 */
export function podQosClass(pod: KubeObject): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let guaranteed = true;
  const containers: Json[] = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  const add = (into: Map<string, bigint>, list: Json): Set<string> => {
    const found = new Set<string>();
    for (const name of QOS_RESOURCES) {
      const q = typeof list?.[name] === 'string' ? parseQuantity(list[name]) : undefined;
      if (!q || q.mantissa === 0n) continue;
      into.set(name, (into.get(name) ?? 0n) + nanoValue(q));
      found.add(name);
    }
    return found;
  };
  for (const c of containers) {
    add(requests, c?.resources?.requests);
    const limited = add(limits, c?.resources?.limits);
    if (QOS_RESOURCES.some((name) => !limited.has(name))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed && [...requests].every(([name, value]) => limits.get(name) === value) && requests.size === limits.size)
    return 'Guaranteed';
  return 'Burstable';
}
