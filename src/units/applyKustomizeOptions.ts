import { kustomizeImage, type KustomizeOptions } from './unitOptions.ts';

type Kustomization = Record<string, unknown>;

/**
 * A KustomizeUnit's options written into the unit's own kustomization, as Argo CD applies an Application's
 * `source.kustomize` with `kustomize edit` on its copy of the folder (pure): namePrefix, nameSuffix and namespace
 * replace the kustomization's own (an overlay's `namePrefix: kustomize-` becomes `staging-`, not `staging-kustomize-`),
 * an image of a name the kustomization already lists is updated in place (`edit set image`), labels and annotations
 * are added over its commonLabels and commonAnnotations (`edit add label|annotation --force`).
 */
export function applyKustomizeOptions(kustomization: Kustomization, k: KustomizeOptions): Kustomization {
  const out: Kustomization = { ...kustomization };
  if (k.namePrefix) out.namePrefix = k.namePrefix;
  if (k.nameSuffix) out.nameSuffix = k.nameSuffix;
  if (k.namespace) out.namespace = k.namespace;
  if (k.images?.length) {
    const images = (Array.isArray(out.images) ? out.images : []).map((i) => ({ ...(i as Record<string, unknown>) }));
    for (const spec of k.images) {
      const set = kustomizeImage(spec);
      const known = images.find((i) => i.name === set.name);
      if (!known) {
        images.push({ ...set });
        continue;
      }
      if (set.newName) known.newName = set.newName;
      if (set.newTag) {
        known.newTag = set.newTag;
        delete known.digest;
      }
      if (set.digest) {
        known.digest = set.digest;
        delete known.newTag;
      }
    }
    out.images = images;
  }
  if (k.commonLabels && Object.keys(k.commonLabels).length > 0)
    out.commonLabels = { ...asMap(out.commonLabels), ...k.commonLabels };
  if (k.commonAnnotations && Object.keys(k.commonAnnotations).length > 0)
    out.commonAnnotations = { ...asMap(out.commonAnnotations), ...k.commonAnnotations };
  return out;
}

function asMap(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
