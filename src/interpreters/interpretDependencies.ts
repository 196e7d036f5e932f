import type { Customizations } from '../api/interpreterCustomization.ts';
import type { ObjectRef } from '../api/kinds.ts';
import { customDependencies } from './customizations.ts';
import { podSpecOf } from './podTemplate.ts';

/**
 * Objects a workload's pod template references (pkg/util/helper/pod.go): ConfigMaps and Secrets from
 * volumes (projected too), env/envFrom and imagePullSecrets; the ServiceAccount unless `default`;
 * PVCs from volumes — all in the workload's namespace. StatefulSet PVCs created from
 * volumeClaimTemplates are not dependencies. A declared dependencyInterpretation hook replaces all of it.
 */
export function interpretDependencies(manifest: Record<string, unknown>, namespace: string, custom?: Customizations): ObjectRef[] {
  const declared = custom ? customDependencies(custom, manifest, namespace) : undefined;
  if (declared) return declared;
  const pod = podSpecOf(manifest) as Record<string, any> | undefined;
  if (!pod) return [];
  const found = new Map<string, ObjectRef>();
  const add = (apiVersion: string, kind: string, name: unknown) => {
    if (typeof name !== 'string' || name === '') return;
    found.set(`${kind}/${name}`, { apiVersion, kind, namespace, name });
  };
  const claimTemplates = new Set<string>(
    manifest.kind === 'StatefulSet'
      ? (((manifest.spec as any)?.volumeClaimTemplates ?? []) as { metadata?: { name?: string } }[]).map((t) => t.metadata?.name ?? '')
      : [],
  );
  for (const v of (pod.volumes ?? []) as any[]) {
    add('v1', 'ConfigMap', v?.configMap?.name);
    add('v1', 'Secret', v?.secret?.secretName);
    if (v?.persistentVolumeClaim?.claimName && !claimTemplates.has(v.name)) add('v1', 'PersistentVolumeClaim', v.persistentVolumeClaim.claimName);
    for (const s of (v?.projected?.sources ?? []) as any[]) {
      add('v1', 'ConfigMap', s?.configMap?.name);
      add('v1', 'Secret', s?.secret?.name);
    }
  }
  for (const c of [...((pod.containers ?? []) as any[]), ...((pod.initContainers ?? []) as any[])]) {
    for (const e of (c?.env ?? []) as any[]) {
      add('v1', 'ConfigMap', e?.valueFrom?.configMapKeyRef?.name);
      add('v1', 'Secret', e?.valueFrom?.secretKeyRef?.name);
    }
    for (const e of (c?.envFrom ?? []) as any[]) {
      add('v1', 'ConfigMap', e?.configMapRef?.name);
      add('v1', 'Secret', e?.secretRef?.name);
    }
  }
  for (const s of (pod.imagePullSecrets ?? []) as any[]) add('v1', 'Secret', s?.name);
  if (pod.serviceAccountName && pod.serviceAccountName !== 'default') add('v1', 'ServiceAccount', pod.serviceAccountName);
  return [...found.values()].sort((a, b) => (`${a.kind}/${a.name}` < `${b.kind}/${b.name}` ? -1 : 1));
}
