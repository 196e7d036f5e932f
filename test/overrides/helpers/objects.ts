// Small builders for override tests: members clusters, workloads in the shapes Karmada's tests use, policies.
import type { Cluster } from '../../../src/api/cluster.ts';
import type { OverridePolicy, OverrideSpec } from '../../../src/api/policy.ts';

export type Obj = Record<string, unknown>;

export function cluster(name: string, labels?: Record<string, string>): Cluster {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name, ...(labels ? { labels } : {}) },
    spec: { syncMode: 'Push' },
  };
}

export function overridePolicy(name: string, spec: OverrideSpec, namespace = 'default'): OverridePolicy {
  return { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'OverridePolicy', metadata: { name, namespace }, spec };
}

export function clusterOverridePolicy(name: string, spec: OverrideSpec): OverridePolicy {
  return { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'ClusterOverridePolicy', metadata: { name }, spec };
}

/** A workload whose pod template holds the given containers (Pod puts them straight under spec). */
export function workload(
  kind: string,
  containers: Obj[],
  metadata: Obj = { name: 'nginx', labels: { app: 'nginx' } },
): Obj {
  const apiVersion = kind === 'Pod' ? 'v1' : kind === 'Job' ? 'batch/v1' : 'apps/v1';
  if (kind === 'Pod') return { apiVersion, kind, metadata, spec: { containers } };
  return {
    apiVersion,
    kind,
    metadata,
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'nginx' } },
      template: { metadata: { labels: { app: 'nginx' } }, spec: { containers } },
    },
  };
}

/** The containers of a manifest built by `workload`. */
export function containersOf(manifest: Obj): Obj[] {
  const spec = manifest.spec as Obj;
  if (manifest.kind === 'Pod') return spec.containers as Obj[];
  return ((spec.template as Obj).spec as Obj).containers as Obj[];
}

export function metadataOf(manifest: Obj): Obj {
  return manifest.metadata as Obj;
}
