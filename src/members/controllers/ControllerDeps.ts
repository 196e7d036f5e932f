import type { ResourceRegistry } from '../resources/ResourceRegistry.ts';
import type { ObjectStore } from '../store/ObjectStore.ts';

/** What every simulated controller is handed; nothing is read from module state or the environment. */
export interface ControllerDeps {
  store: ObjectStore;
  registry: ResourceRegistry;
  /** RFC 3339 seconds timestamp of the simulated clock. */
  now: () => string;
  /** Delay between a pod being bound to a node and it being Running and Ready. */
  readyDelayMs: number;
  /** Delay between a Job's pod running and it Succeeding. */
  jobPodDurationMs: number;
}

export function keyOf(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}/${name}`;
}

export function splitKey(key: string): [string | undefined, string] {
  const slash = key.indexOf('/');
  return [key.slice(0, slash) || undefined, key.slice(slash + 1)];
}
