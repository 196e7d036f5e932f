/** Where each built-in workload kind keeps its pod spec (Karmada's default/native interpreter). */
export function podSpecOf(manifest: Record<string, unknown>): Record<string, unknown> | undefined {
  // biome-ignore lint/suspicious/noExplicitAny: walks an untyped Kubernetes manifest by field name
  const spec = manifest.spec as Record<string, any> | undefined;
  switch (`${manifest.apiVersion}/${manifest.kind}`) {
    case 'v1/Pod':
      return spec;
    case 'apps/v1/Deployment':
    case 'apps/v1/StatefulSet':
    case 'apps/v1/ReplicaSet':
    case 'apps/v1/DaemonSet':
    case 'batch/v1/Job':
      return spec?.template?.spec;
    case 'batch/v1/CronJob':
      return spec?.jobTemplate?.spec?.template?.spec;
    default:
      return undefined;
  }
}
