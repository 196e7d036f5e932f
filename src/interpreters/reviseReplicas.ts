import { customReviseReplicas, type KindInterpreter } from './customizations.ts';

/**
 * Karmada's ReviseReplica (default/native/revisereplica.go): each member gets the replica count the scheduler gave
 * it, even under Duplicated. Like helper.ApplyReplica, only a field the template sets is revised: a Job without
 * parallelism keeps running with the member's default. Returns a new object; kinds without the hook are returned
 * unchanged.
 */
export function reviseReplicas(
  manifest: Record<string, unknown>,
  replicas: number,
  custom?: KindInterpreter,
): Record<string, unknown> {
  const declared = custom ? customReviseReplicas(custom, manifest, replicas) : undefined;
  if (declared) return declared;
  const field = (() => {
    switch (`${manifest.apiVersion}/${manifest.kind}`) {
      case 'apps/v1/Deployment':
      case 'apps/v1/StatefulSet':
      case 'apps/v1/ReplicaSet':
        return 'replicas';
      case 'batch/v1/Job':
        return 'parallelism';
      default:
        return undefined;
    }
  })();
  const spec = manifest.spec as Record<string, unknown> | undefined;
  if (!field || typeof spec?.[field] !== 'number') return manifest;
  return { ...manifest, spec: { ...(manifest.spec as Record<string, unknown>), [field]: replicas } };
}

/** Job completions split per cluster (binding/common.go#applyJobCompletions): only when the template sets them. */
export function reviseJobCompletions(manifest: Record<string, unknown>, completions: number): Record<string, unknown> {
  const spec = manifest.spec as Record<string, unknown> | undefined;
  if (manifest.kind !== 'Job' || spec?.completions === undefined) return manifest;
  return { ...manifest, spec: { ...spec, completions } };
}
