// A Service exported from member1 and imported on member2, as Karmada's mcs e2e sets it up: the two CRDs on both,
// Deployment + Service + ServiceExport on member1, ServiceImport on member2. Shared by the reconciler-pass test and
// the daemon test.
import { clusterYaml } from '../../helpers/fleet.ts';

export const crd = (kind: string, plural: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.multicluster.x-k8s.io
spec:
  group: multicluster.x-k8s.io
  scope: Namespaced
  names: {kind: ${kind}, plural: ${plural}, singular: ${kind.toLowerCase()}, listKind: ${kind}List}
  versions:
    - name: v1alpha1
      served: true
      storage: true
      schema:
        openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;
export const deployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, ports: [{containerPort: 8080}]}]
`;
export const SERVICE = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: 8080, protocol: TCP}]
`;
export const EXPORT = `apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceExport
metadata: {name: web, namespace: default}
`;
export const IMPORT = `apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata: {name: web, namespace: default}
spec:
  type: ClusterSetIP
  ports: [{name: http, port: 80, protocol: TCP}]
`;
/** A CrossCluster MultiClusterService for web, from `providers` to `consumers` (each list as written, empty or not). */
export const crossClusterService = (
  providers: string[],
  consumers: string[],
) => `apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterService
metadata: {name: web, namespace: default}
spec:
  types: [CrossCluster]
  providerClusters: [${providers.map((name) => `{name: ${name}}`).join(', ')}]
  consumerClusters: [${consumers.map((name) => `{name: ${name}}`).join(', ')}]
`;
export const POLICIES = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: mcs-crds}
spec:
  resourceSelectors:
    - {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: serviceexports.multicluster.x-k8s.io}
    - {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: serviceimports.multicluster.x-k8s.io}
  placement: {clusterAffinity: {clusterNames: [member1, member2]}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: exporter, namespace: default}
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: web}
    - {apiVersion: v1, kind: Service, name: web}
    - {apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceExport, name: web}
  placement: {clusterAffinity: {clusterNames: [member1]}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: importer, namespace: default}
spec:
  resourceSelectors:
    - {apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport, name: web}
  placement: {clusterAffinity: {clusterNames: [member2]}}
`;

/** The config repo's files: web at `replicas`, exported from member1 and imported on member2 unless told otherwise. */
export const mcsFiles = (
  replicas: number,
  exported = true,
  imported = true,
  registration: (name: string) => string = clusterYaml,
): Record<string, string | null> => ({
  'clusters/member1.yaml': registration('member1'),
  'clusters/member2.yaml': registration('member2'),
  'templates/crds.yaml': `${crd('ServiceExport', 'serviceexports')}---\n${crd('ServiceImport', 'serviceimports')}`,
  'templates/web.yaml': `${deployment(replicas)}---\n${SERVICE}`,
  'templates/export.yaml': exported ? EXPORT : null,
  'templates/import.yaml': imported ? IMPORT : null,
  'policies/mcs.yaml': POLICIES,
});
