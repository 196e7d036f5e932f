import type { ObjectRef } from '../api/kinds.ts';

/**
 * The identity of a Karmada object as every stage keys it: cluster-scoped kinds (Cluster, the Cluster*
 * policies) have no namespace; namespaced policies default to `default`, as kubectl would place them.
 * One function, so a policy written without a namespace is the same object when it is valid, broken or old.
 */
export function karmadaRef(o: {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
}): ObjectRef {
  const scoped = o.kind.startsWith('Cluster');
  return {
    apiVersion: o.apiVersion,
    kind: o.kind,
    namespace: scoped ? '' : o.metadata.namespace || 'default',
    name: o.metadata.name,
  };
}
