import { horizontalPodAutoscalerViolations } from './autoscalingRules.ts';
import {
  limitRangeViolations,
  namespaceViolations,
  persistentVolumeClaimViolations,
  resourceQuotaViolations,
} from './coreResourceRules.ts';
import { configMapViolations, secretViolations, serviceSpecViolations } from './coreRules.ts';
import type { Json, KubeViolation } from './fieldViolations.ts';
import { ingressClassViolations, ingressViolations, networkPolicyViolations } from './networkingRules.ts';
import { podDisruptionBudgetViolations } from './policyRules.ts';
import { RBAC_GROUP, bindingViolations, roleViolations } from './rbacRules.ts';
import { SCHEDULING_GROUP, priorityClassViolations } from './schedulingRules.ts';
import { STORAGE_GROUP, storageClassViolations } from './storageRules.ts';

// Which kind rules kube-apiserver runs on a create of a built-in kind (its metadata, pod specs and workloads apart),
// shared by `flotilla validate` and the member emulator, so both refuse what a real API server refuses alike.

/** The violations of `object`, a `group`/`kind` being created as the API server holds it (defaulted); [] for other kinds. */
export function builtinKindViolations(group: string, kind: string, object: Json): KubeViolation[] {
  switch (`${group}/${kind}`) {
    case '/Service':
      return serviceSpecViolations(object);
    case '/ConfigMap':
      return configMapViolations(object);
    case '/Secret':
      return secretViolations(object);
    case '/Namespace':
      return namespaceViolations(object);
    case '/PersistentVolumeClaim':
      return persistentVolumeClaimViolations(object);
    case '/LimitRange':
      return limitRangeViolations(object);
    case '/ResourceQuota':
      return resourceQuotaViolations(object);
    case 'autoscaling/HorizontalPodAutoscaler':
      return horizontalPodAutoscalerViolations(object);
    case `${SCHEDULING_GROUP}/PriorityClass`:
      return priorityClassViolations(object);
    case `${STORAGE_GROUP}/StorageClass`:
      return storageClassViolations(object);
    case 'policy/PodDisruptionBudget':
      return podDisruptionBudgetViolations(object);
    case `${RBAC_GROUP}/Role`:
    case `${RBAC_GROUP}/ClusterRole`:
      return roleViolations(object, kind === 'Role');
    case `${RBAC_GROUP}/RoleBinding`:
    case `${RBAC_GROUP}/ClusterRoleBinding`:
      return bindingViolations(object, kind === 'RoleBinding');
    case 'networking.k8s.io/Ingress':
      return ingressViolations(object);
    case 'networking.k8s.io/IngressClass':
      return ingressClassViolations(object);
    case 'networking.k8s.io/NetworkPolicy':
      return networkPolicyViolations(object);
    default:
      return [];
  }
}
