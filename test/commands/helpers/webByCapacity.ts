// Deployment web, asking 1 CPU a replica, divided over member1 and member2 by their free capacity (Karmada's
// dynamicWeight: AvailableReplicas), and the Cluster status `--cluster-status` reads that capacity from.
import { clusterYaml } from '../../helpers/fleet.ts';

/** Deployment web with `replicas`; `metadata` adds fields to its metadata (a label change keeps the replicas). */
export function webDeployment(replicas: number, metadata = ''): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web${metadata}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx, resources: {requests: {cpu: "1"}}}]}
`;
}

/** Divides web over member1 and member2 by free capacity. */
export const WEB_BY_CAPACITY_POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Weighted, weightPreference: {dynamicWeight: AvailableReplicas}}
`;

/** A `--cluster-status` file: one Cluster per entry, nothing allocated, `free` CPUs allocatable. */
export function freeCapacity(free: Record<string, number>): string {
  return Object.entries(free)
    .map(
      ([name, cpu]) => `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: ${name}}
status:
  apiEnablements: [{groupVersion: apps/v1, resources: [{name: deployments, kind: Deployment}]}]
  resourceSummary: {allocatable: {cpu: "${cpu}", pods: "110"}}
`,
    )
    .join('---\n');
}

/** A config repo's files: member1 and member2 registered, `deployment` as web, and the policy above. */
export function webByCapacityFiles(deployment: string): Record<string, string> {
  return {
    'clusters/member1.yaml': clusterYaml('member1'),
    'clusters/member2.yaml': clusterYaml('member2'),
    'templates/web.yaml': deployment,
    'policies/web.yaml': WEB_BY_CAPACITY_POLICY,
  };
}
