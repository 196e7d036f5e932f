// Builders for scheduler tests: clusters and requests written inline, no fixtures on disk.
import type { TargetCluster } from '../../src/api/binding.ts';
import type { Cluster, ClusterSpec, ClusterStatus, ResourceList } from '../../src/api/cluster.ts';
import type { Placement } from '../../src/api/policy.ts';
import type { CandidateCluster, SchedulingRequest } from '../../src/assignments/types.ts';

export function cluster(
  name: string,
  spec: Partial<ClusterSpec> = {},
  status?: ClusterStatus,
  labels?: Record<string, string>,
): Cluster {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name, ...(labels ? { labels } : {}) },
    spec: { syncMode: 'Push', ...spec },
    ...(status ? { status } : {}),
  };
}

/** A cluster with a resource summary: allocatable minus allocated (allocating empty). */
export function clusterWithResources(
  name: string,
  allocatable: ResourceList,
  allocated: ResourceList = {},
  spec: Partial<ClusterSpec> = {},
): Cluster {
  return cluster(name, spec, {
    apiEnablements: [{ groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] }],
    resourceSummary: { allocatable, allocated, allocating: {} },
  });
}

/** A cluster whose free capacity is `pods` replicas (no resource requests in the request). */
export function clusterWithPods(name: string, pods: number, spec: Partial<ClusterSpec> = {}): Cluster {
  return clusterWithResources(name, { pods }, {}, spec);
}

export function candidate(name: string, allocatable = 0, extra: Partial<CandidateCluster> = {}): CandidateCluster {
  return {
    name,
    cluster: cluster(name),
    score: 0,
    overflowOrder: 0,
    availableReplicas: allocatable,
    allocatableReplicas: allocatable,
    ...extra,
  };
}

export function request(
  placement: Placement,
  replicas: number,
  previous: TargetCluster[] = [],
  extra: Partial<SchedulingRequest> = {},
): SchedulingRequest {
  return {
    resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'nginx', uid: '' },
    placement,
    replicas,
    previous,
    ...extra,
  };
}

/** Compares target clusters ignoring order, like Karmada's IsScheduleResultEqual. */
export function sameTargets(a: readonly TargetCluster[], b: readonly TargetCluster[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((x) => b.some((y) => y.name === x.name && y.replicas === x.replicas));
}

export function targets(spec: string): TargetCluster[] {
  if (spec.trim() === '') return [];
  return spec.split(/\s+/).map((pair) => {
    const [name = '', replicas = '0'] = pair.split('=');
    return { name, replicas: Number(replicas) };
  });
}

export function show(list: readonly TargetCluster[] | undefined): string {
  return (list ?? []).map((tc) => `${tc.name}=${tc.replicas}`).join(' ');
}

export const DYNAMIC: Placement = {
  replicaScheduling: {
    replicaSchedulingType: 'Divided',
    replicaDivisionPreference: 'Weighted',
    weightPreference: { dynamicWeight: 'AvailableReplicas' },
  },
};
export const AGGREGATED: Placement = {
  replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
};
