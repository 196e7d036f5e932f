// A custom resource kind the tests of interpreter customizations share: apps.example.io/v1alpha1 Workload, its CRD,
// and a Workload `shop` that names its ConfigMap (spec.configRef) and has a pod template.

/** The Workload CRD, namespaced, served and stored at v1alpha1, its schema open. */
export const WORKLOAD_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: workloads.apps.example.io}
spec:
  group: apps.example.io
  names: {kind: Workload, plural: workloads}
  scope: Namespaced
  versions: [{name: v1alpha1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}]
`;

/** Workload shop: `replicas`, its ConfigMap shop-config, one container. */
export function workload(replicas: number): string {
  return `apiVersion: apps.example.io/v1alpha1
kind: Workload
metadata: {name: shop}
spec:
  replicas: ${replicas}
  configRef: {name: shop-config}
  template:
    metadata: {labels: {app: shop}}
    spec: {containers: [{name: shop, image: shop:1}]}
`;
}

/** An InterpreterCustomization of Workload naming its ConfigMap at `namePath` as a dependency (propagateDeps). */
export function dependencyCustomization(namePath = 'spec.configRef.name'): string {
  return `apiVersion: flotilla.io/v1alpha1
kind: InterpreterCustomization
metadata: {name: workload}
spec:
  target: {apiVersion: apps.example.io/v1alpha1, kind: Workload}
  customizations:
    dependencyInterpretation:
      dependencies: [{apiVersion: v1, kind: ConfigMap, namePath: ${namePath}}]
`;
}

/** A PropagationPolicy placing Workload shop on `clusters`, dragging its dependencies along (propagateDeps). */
export function shopPolicy(clusters: readonly string[]): string {
  return `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: shop, namespace: default}
spec:
  propagateDeps: true
  resourceSelectors: [{apiVersion: apps.example.io/v1alpha1, kind: Workload, name: shop}]
  placement:
    clusterAffinity: {clusterNames: [${clusters.join(', ')}]}
`;
}
