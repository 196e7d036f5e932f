// The fields of Karmada's CRDs that Flotilla reads beside its policies, in the format of apiFields.generated.ts
// (`field`, `field:Type`, `field:[Type` a list, `field:{Type` a map). Read from charts/karmada/_crds/bases
// (autoscaling.karmada.io_federatedhpas, _cronfederatedhpas, apps.karmada.io_workloadrebalancers,
// config.karmada.io_resourceinterpretercustomizations,
// policy.karmada.io_federatedresourcequotas): kube-apiserver prunes what a CRD's schema does not declare,
// and kubectl's strict field validation refuses it. A FederatedHPA's spec and status are Kubernetes'
// autoscaling/v2 HorizontalPodAutoscaler types, field for field.
import { CHECKED_LUA_HOOKS } from './interpreterCustomization.ts';

/** `apiVersion/Kind` → the type of its objects. */
export const KARMADA_KIND_TYPES: Readonly<Record<string, string>> = {
  'autoscaling.karmada.io/v1alpha1/FederatedHPA': 'KarmadaFederatedHPA',
  'autoscaling.karmada.io/v1alpha1/CronFederatedHPA': 'KarmadaCronFederatedHPA',
  'apps.karmada.io/v1alpha1/WorkloadRebalancer': 'KarmadaWorkloadRebalancer',
  'config.karmada.io/v1alpha1/ResourceInterpreterCustomization': 'KarmadaResourceInterpreterCustomization',
  'policy.karmada.io/v1alpha1/FederatedResourceQuota': 'KarmadaFederatedResourceQuota',
};

const LUA = 'KarmadaLuaScript';

export const KARMADA_TYPE_FIELDS: Readonly<Record<string, string>> = {
  KarmadaFederatedHPA:
    'apiVersion kind metadata:V1ObjectMeta spec:V2HorizontalPodAutoscalerSpec status:V2HorizontalPodAutoscalerStatus',
  KarmadaCronFederatedHPA:
    'apiVersion kind metadata:V1ObjectMeta spec:KarmadaCronFederatedHPASpec status:KarmadaCronFederatedHPAStatus',
  KarmadaCronFederatedHPASpec: 'rules:[KarmadaCronFederatedHPARule scaleTargetRef:V2CrossVersionObjectReference',
  KarmadaCronFederatedHPARule:
    'failedHistoryLimit name schedule successfulHistoryLimit suspend targetMaxReplicas targetMinReplicas targetReplicas timeZone',
  KarmadaCronFederatedHPAStatus: 'executionHistories:[KarmadaExecutionHistory',
  KarmadaExecutionHistory:
    'failedExecutions:[KarmadaFailedExecution nextExecutionTime ruleName successfulExecutions:[KarmadaSuccessfulExecution',
  KarmadaFailedExecution: 'executionTime message scheduleTime',
  KarmadaSuccessfulExecution: 'appliedMaxReplicas appliedMinReplicas appliedReplicas executionTime scheduleTime',
  KarmadaWorkloadRebalancer:
    'apiVersion kind metadata:V1ObjectMeta spec:KarmadaWorkloadRebalancerSpec status:KarmadaWorkloadRebalancerStatus',
  KarmadaWorkloadRebalancerSpec: 'ttlSecondsAfterFinished workloads:[KarmadaObjectReference',
  KarmadaObjectReference: 'apiVersion kind name namespace',
  KarmadaWorkloadRebalancerStatus: 'finishTime observedGeneration observedWorkloads:[KarmadaObservedWorkload',
  KarmadaObservedWorkload: 'reason result workload:KarmadaObjectReference',
  KarmadaResourceInterpreterCustomization:
    'apiVersion kind metadata:V1ObjectMeta spec:KarmadaResourceInterpreterCustomizationSpec',
  KarmadaResourceInterpreterCustomizationSpec:
    'customizations:KarmadaCustomizationRules target:KarmadaCustomizationTarget',
  KarmadaCustomizationRules: CHECKED_LUA_HOOKS.map((hook) => `${hook}:${LUA}`).join(' '),
  [LUA]: 'luaScript',
  KarmadaCustomizationTarget: 'apiVersion kind',
  KarmadaFederatedResourceQuota:
    'apiVersion kind metadata:V1ObjectMeta spec:KarmadaFederatedResourceQuotaSpec status:KarmadaFederatedResourceQuotaStatus',
  KarmadaFederatedResourceQuotaSpec: 'overall staticAssignments:[KarmadaStaticClusterAssignment',
  KarmadaStaticClusterAssignment: 'clusterName hard',
  KarmadaFederatedResourceQuotaStatus: 'aggregatedStatus:[KarmadaClusterQuotaStatus overall overallUsed',
  KarmadaClusterQuotaStatus: 'clusterName hard used',
};
