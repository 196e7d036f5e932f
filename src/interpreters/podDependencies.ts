import { podReferences } from './podReferences.ts';

/** A dependency as Karmada's interpreters name it (DependentObjectReference by name). */
export interface PodDependency {
  apiVersion: 'v1';
  kind: 'ConfigMap' | 'Secret' | 'ServiceAccount' | 'PersistentVolumeClaim';
  namespace?: string;
  name: string;
}

/**
 * helper.GetDependenciesFromPodTemplate (what Lua's kube.getPodDependencies gives): ConfigMaps, then Secrets, then the
 * ServiceAccount, then PVCs, each named once; no namespace when `namespace` is ''. Go iterates its sets in random
 * order; names are sorted here so a render is repeatable.
 */
export function podDependencies(podSpec: Record<string, unknown>, namespace: string): PodDependency[] {
  const found = podReferences(podSpec);
  const refs = (kind: PodDependency['kind'], names: Set<string>): PodDependency[] =>
    [...names].sort().map((name) => ({ apiVersion: 'v1', kind, ...(namespace ? { namespace } : {}), name }));
  return [
    ...refs('ConfigMap', found.configMaps),
    ...refs('Secret', found.secrets),
    ...refs('ServiceAccount', found.serviceAccounts),
    ...refs('PersistentVolumeClaim', found.persistentVolumeClaims),
  ];
}
