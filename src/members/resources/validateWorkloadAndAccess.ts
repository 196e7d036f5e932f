import type { FieldError } from '../ApiError.ts';
import { cronJobViolations, jobViolations } from '../../kubeValidation/batchRules.ts';
import { builtinKindViolations } from '../../kubeValidation/builtinKindRules.ts';
import type { KubeViolation } from '../../kubeValidation/fieldViolations.ts';
import { workloadViolations } from '../../kubeValidation/appsRules.ts';

// The API server's validation of the kinds a controller's own manifests are made of, so a `kubectl apply
// --dry-run=server` against a member says what a real one says: the apps/v1 workloads (pkg/apis/apps/validation
// ValidateDeploymentSpec, ValidateStatefulSetSpec, ValidateDaemonSetSpec, ValidateReplicaSetSpec, with the pod
// template's ValidatePodSpec, and every other workload's pod spec:
// kubeValidation/appsRules.ts and podSpecRules.ts), Jobs and CronJobs (kubeValidation/batchRules.ts),
// and the kinds kubeValidation/builtinKindRules.ts knows (Services, PodDisruptionBudgets, RBAC, Ingresses,
// IngressClasses, NetworkPolicies, HorizontalPodAutoscalers, PersistentVolumeClaims, Namespaces, LimitRanges,
// ResourceQuotas, PriorityClasses, StorageClasses), which `flotilla validate` holds templates to as well.

type Json = any;

/** The errors of `object` (an update of `previous`), a `group`/`kind` this module knows; [] for any other. */
export function validateWorkloadAndAccess(group: string, kind: string, object: Json, previous?: Json): FieldError[] {
  const key = `${group}/${kind}`;
  switch (key) {
    case 'batch/Job':
      return [...jobViolations(object, previous), ...workloadViolations(group, kind, object)].map(asFieldError);
    case 'batch/CronJob':
      return [...cronJobViolations(object, previous), ...workloadViolations(group, kind, object)].map(asFieldError);
    case 'apps/Deployment':
    case 'apps/StatefulSet':
    case 'apps/DaemonSet':
    case 'apps/ReplicaSet':
    case '/ReplicationController':
    case '/PodTemplate':
    case '/Pod':
      return workloadViolations(group, kind, object).map(asFieldError);
    // Secrets and ConfigMaps are validateConfigData's.
    case '/Secret':
    case '/ConfigMap':
      return [];
    // Their updates are checked for metadata and immutable fields alone (ValidateNamespaceUpdate,
    // ValidatePriorityClassUpdate, ValidateStorageClassUpdate), never their spec again.
    case '/Namespace':
    case 'scheduling.k8s.io/PriorityClass':
    case 'storage.k8s.io/StorageClass':
      return previous ? [] : builtinKindViolations(group, kind, object).map(asFieldError);
    default:
      return builtinKindViolations(group, kind, object).map(asFieldError);
  }
}

const asFieldError = (v: KubeViolation): FieldError => ({
  type: v.type,
  field: v.field,
  body: v.detail,
});
