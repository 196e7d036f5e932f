import type { IndexEntry } from '../branches/rendered/outputIndex.ts';

// Karmada's deploymentreplicassyncer writes the members' status.replicas back into the template's spec.replicas when
// an HPA on the members governs it (retain-replicas). Flotilla never writes to the user's branch, so the views do it
// instead: what `get` and `describe` show as the desired count of such a workload is what the members run.

// biome-ignore lint/suspicious/noExplicitAny: an untyped Kubernetes manifest
type Obj = Record<string, any>;

/**
 * The manifest with spec.replicas set to the members' status.replicas when HPAs scale it (the index entry's
 * scaledBy) and the status branch has that count; otherwise the manifest as it is. A new object. Pure.
 */
export function replicasFromMembers(
  manifest: Obj,
  entry: Pick<IndexEntry, 'scaledBy'> | undefined,
  status: Obj | undefined,
): Obj {
  if (!entry?.scaledBy?.length || typeof status?.replicas !== 'number') return manifest;
  if (manifest.spec?.replicas === status.replicas) return manifest;
  return { ...manifest, spec: { ...(manifest.spec ?? {}), replicas: status.replicas } };
}

/**
 * The manifest with spec.replicas set to a FederatedHPA's or CronFederatedHPA's decision, as Karmada's autoscalers
 * write it into the resource template; Flotilla keeps the decision on the status branch instead. A template without
 * a spec (nothing to scale) is left as it is, as the render leaves it. A new object when it changes. Pure.
 */
export function replicasFromAutoscaler(manifest: Obj, decision: { replicas: number } | undefined): Obj {
  if (!decision || !manifest.spec || typeof manifest.spec !== 'object') return manifest;
  if (manifest.spec.replicas === decision.replicas) return manifest;
  return { ...manifest, spec: { ...manifest.spec, replicas: decision.replicas } };
}
