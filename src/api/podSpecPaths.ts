/** Where each built-in workload kind keeps its pod spec (Karmada's default/native interpreter reads the same). */
export function podSpecPathOf(apiVersion: unknown, kind: unknown): readonly string[] | undefined {
  switch (`${apiVersion}/${kind}`) {
    case 'v1/Pod':
      return POD;
    case 'apps/v1/Deployment':
    case 'apps/v1/StatefulSet':
    case 'apps/v1/ReplicaSet':
    case 'apps/v1/DaemonSet':
    case 'batch/v1/Job':
      return WORKLOAD;
    case 'batch/v1/CronJob':
      return CRON_JOB;
    default:
      return undefined;
  }
}

const POD = ['spec'] as const;
const WORKLOAD = ['spec', 'template', 'spec'] as const;
const CRON_JOB = ['spec', 'jobTemplate', 'spec', 'template', 'spec'] as const;

/** The pod spec of a built-in workload kind with its path, or undefined for any other kind or when it is no object. */
export function podSpecAt(
  manifest: unknown,
  apiVersion: unknown = (manifest as { apiVersion?: unknown } | null)?.apiVersion,
  kind: unknown = (manifest as { kind?: unknown } | null)?.kind,
): { path: readonly string[]; spec: Record<string, unknown> } | undefined {
  const path = podSpecPathOf(apiVersion, kind);
  if (!path) return undefined;
  let at: unknown = manifest;
  for (const step of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[step];
  }
  return at !== null && typeof at === 'object' && !Array.isArray(at)
    ? { path, spec: at as Record<string, unknown> }
    : undefined;
}
