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
