// Annotations Karmada's binding controller writes on a Work and never on its manifest (binding/common.go
// RecordAppliedOverrides; ctrlutil/work.go CreateOrUpdateWork copies other annotations into the manifest, not these).
// The rendered branch has no Work apart from its manifest, so the manifest holds them for the Work; they are not among
// its managed-annotations, and the applier takes them off before a member gets the object, which so never has them.

export const APPLIED_OVERRIDES_ANNOTATION = 'policy.karmada.io/applied-overrides';
export const APPLIED_CLUSTER_OVERRIDES_ANNOTATION = 'policy.karmada.io/applied-cluster-overrides';

export const WORK_ONLY_ANNOTATIONS: readonly string[] = [
  APPLIED_CLUSTER_OVERRIDES_ANNOTATION,
  APPLIED_OVERRIDES_ANNOTATION,
];

/** The manifest as the member gets it: without the Work's own annotations (the same object when it has none). */
export function withoutWorkOnlyAnnotations<T>(manifest: T): T {
  const meta = (manifest as { metadata?: { annotations?: unknown } } | null)?.metadata;
  const annotations = meta?.annotations;
  if (typeof annotations !== 'object' || annotations === null) return manifest;
  if (!WORK_ONLY_ANNOTATIONS.some((k) => Object.hasOwn(annotations, k))) return manifest;
  const kept = Object.fromEntries(Object.entries(annotations).filter(([k]) => !WORK_ONLY_ANNOTATIONS.includes(k)));
  return { ...(manifest as object), metadata: { ...(meta as object), annotations: kept } } as T;
}
