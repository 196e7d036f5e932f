import type { KubeObject } from '../types.ts';
import type { ObjectStore } from '../store/ObjectStore.ts';

export const NAMESPACES = '/namespaces';

/**
 * The namespace, if controllers may still create content in it: it exists and its phase is Active (a
 * Terminating one refuses new objects, and the per-namespace controllers leave it alone).
 */
export function activeNamespace(store: ObjectStore, name: string): KubeObject | undefined {
  const ns = store.get(NAMESPACES, undefined, name);
  if (!ns || ns.metadata.deletionTimestamp || (ns.status?.phase ?? 'Active') !== 'Active') return undefined;
  return ns;
}
