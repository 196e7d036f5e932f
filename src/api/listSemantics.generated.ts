// Generated from k8s.io/api 3fde3c43c3cf, k8s.io/apimachinery 40bf4b2b62f8, k8s.io/apiextensions-apiserver 2e78d6fca8b2 by scripts/apiFields/generateListSemantics.ts (npm run generate:list-semantics): do not edit.
// How kube-apiserver merges the list fields of the built-in types (the client-node model names of TYPE_FIELDS).

/** What the table was read from. */
export const LIST_SEMANTICS_SOURCE =
  'k8s.io/api 3fde3c43c3cf, k8s.io/apimachinery 40bf4b2b62f8, k8s.io/apiextensions-apiserver 2e78d6fca8b2';

/**
 * Each type's list fields that are not replaced whole, space-separated `field=<patch>/<apply>`. `<patch>` is how
 * strategic merge patch merges it: `merge:<key>` item by item on key, `merge` as a set of values, `replace`.
 * `<apply>` is how server-side apply does: `map:<key>,<key>`, `set` or `atomic`.
 */
export const LIST_FIELDS: Readonly<Record<string, string>> = {
  V1AllocatedDeviceStatus: 'conditions=replace/map:type',
  V1CSIDriverSpec: 'volumeLifecycleModes=replace/set',
  V1CSINodeSpec: 'drivers=merge:name/map:name',
  V1CertificateSigningRequestStatus: 'conditions=replace/map:type',
  V1ComponentStatus: 'conditions=merge:type/map:type',
  V1Container:
    'ports=merge:containerPort/map:containerPort,protocol env=merge:name/map:name volumeMounts=merge:mountPath/map:mountPath volumeDevices=merge:devicePath/map:devicePath',
  V1ContainerRestartRuleOnExitCodes: 'values=replace/set',
  V1ContainerStatus: 'volumeMounts=merge:mountPath/map:mountPath allocatedResourcesStatus=merge:name/map:name',
  V1CustomResourceDefinitionStatus: 'conditions=replace/map:type',
  V1DaemonSetStatus: 'conditions=merge:type/map:type',
  V1DeploymentStatus: 'conditions=merge:type/map:type',
  V1Endpoint: 'addresses=replace/set',
  V1EphemeralContainer:
    'ports=merge:containerPort/map:containerPort,protocol env=merge:name/map:name volumeMounts=merge:mountPath/map:mountPath volumeDevices=merge:devicePath/map:devicePath',
  V1FlowSchemaStatus: 'conditions=merge:type/map:type',
  V1JobStatus: 'conditions=merge:type/atomic',
  V1MutatingAdmissionPolicySpec: 'matchConditions=merge:name/map:name',
  V1MutatingWebhook: 'matchConditions=merge:name/map:name',
  V1MutatingWebhookConfiguration: 'webhooks=merge:name/map:name',
  V1NamespaceStatus: 'conditions=merge:type/map:type',
  V1NodeAllocatableResourceClaimStatus: 'containers=replace/set',
  V1NodeSpec: 'podCIDRs=merge/set',
  V1NodeStatus: 'conditions=merge:type/map:type addresses=merge:type/map:type',
  V1NonResourcePolicyRule: 'verbs=replace/set nonResourceURLs=replace/set',
  V1ObjectMeta: 'ownerReferences=merge:uid/map:uid finalizers=merge/set',
  V1PersistentVolumeClaimStatus: 'conditions=merge:type/map:type',
  V1PodDisruptionBudgetStatus: 'conditions=merge:type/map:type',
  V1PodFailurePolicyOnExitCodesRequirement: 'values=replace/set',
  V1PodSpec:
    'volumes=merge:name/map:name initContainers=merge:name/map:name containers=merge:name/map:name ephemeralContainers=merge:name/map:name imagePullSecrets=merge:name/map:name hostAliases=merge:ip/map:ip topologySpreadConstraints=merge:topologyKey/map:topologyKey,whenUnsatisfiable schedulingGates=merge:name/map:name resourceClaims=merge:name/map:name',
  V1PodStatus:
    'conditions=merge:type/map:type hostIPs=merge:ip/atomic podIPs=merge:ip/map:ip resourceClaimStatuses=merge:name/map:name',
  V1PriorityLevelConfigurationStatus: 'conditions=merge:type/map:type',
  V1ReplicaSetStatus: 'conditions=merge:type/map:type',
  V1ReplicationControllerStatus: 'conditions=merge:type/map:type',
  V1ResourceClaimStatus: 'reservedFor=merge:uid/map:uid devices=replace/map:driver,device,pool,shareID',
  V1ResourcePolicyRule: 'verbs=replace/set apiGroups=replace/set resources=replace/set namespaces=replace/set',
  V1ResourceRequirements: 'claims=replace/map:name',
  V1ResourceStatus: 'resources=replace/map:resourceID',
  V1ServiceAccount: 'secrets=merge:name/map:name',
  V1ServiceCIDRStatus: 'conditions=merge:type/map:type',
  V1ServiceSpec: 'ports=merge:port/map:port,protocol',
  V1ServiceStatus: 'conditions=merge:type/map:type',
  V1StatefulSetStatus: 'conditions=merge:type/map:type',
  V1UncountedTerminatedPods: 'succeeded=replace/set failed=replace/set',
  V1ValidatingAdmissionPolicyBindingSpec: 'validationActions=replace/set',
  V1ValidatingAdmissionPolicySpec: 'matchConditions=merge:name/map:name variables=merge:name/map:name',
  V1ValidatingAdmissionPolicyStatus: 'conditions=replace/map:type',
  V1ValidatingWebhook: 'matchConditions=merge:name/map:name',
  V1ValidatingWebhookConfiguration: 'webhooks=merge:name/map:name',
  V1alpha1MutatingAdmissionPolicySpec: 'matchConditions=merge:name/map:name',
  V1alpha1ServerStorageVersion: 'decodableVersions=replace/set servedVersions=replace/set',
  V1alpha1StorageVersionStatus: 'storageVersions=replace/map:apiServerID conditions=replace/map:type',
  V1alpha2PodGroupSpec: 'resourceClaims=merge:name/map:name',
  V1alpha2PodGroupStatus: 'conditions=merge:type/map:type resourceClaimStatuses=merge:name/map:name',
  V1alpha2PodGroupTemplate: 'resourceClaims=merge:name/map:name',
  V1alpha2WorkloadSpec: 'podGroupTemplates=replace/map:name',
  V1alpha3DeviceTaintRuleStatus: 'conditions=merge:type/map:type',
  V1alpha3ResourcePoolStatusRequestStatus: 'conditions=merge:type/map:type',
  V1beta1AllocatedDeviceStatus: 'conditions=replace/map:type',
  V1beta1MutatingAdmissionPolicySpec: 'matchConditions=merge:name/map:name',
  V1beta1PodCertificateRequestStatus: 'conditions=merge:type/map:type',
  V1beta1ResourceClaimStatus: 'reservedFor=merge:uid/map:uid devices=replace/map:driver,device,pool,shareID',
  V1beta1ServiceCIDRStatus: 'conditions=merge:type/map:type',
  V1beta1StorageVersionMigrationStatus: 'conditions=merge:type/map:type',
  V1beta2AllocatedDeviceStatus: 'conditions=replace/map:type',
  V1beta2DeviceTaintRuleStatus: 'conditions=merge:type/map:type',
  V1beta2ResourceClaimStatus: 'reservedFor=merge:uid/map:uid devices=replace/map:driver,device,pool,shareID',
  V2HorizontalPodAutoscalerStatus: 'conditions=merge:type/map:type',
};

/** The declared defaults of list item fields that key a list, `field=value` space-separated (a port's protocol). */
export const LIST_KEY_DEFAULTS: Readonly<Record<string, string>> = {
  V1ContainerPort: 'protocol=TCP',
  V1LocalObjectReference: 'name=',
  V1ServicePort: 'protocol=TCP',
};
