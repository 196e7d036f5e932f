import { kustomizeImage, type KustomizeOptions } from './unitOptions.ts';

type Kustomization = Record<string, unknown>;

/** An image argument's `*`: keep the value the kustomization's entry has. */
const PRESERVE = '*';

/**
 * A KustomizeUnit's options written into the unit's own kustomization, as Argo CD applies an Application's
 * `source.kustomize` with `kustomize edit` on its copy of the folder (pure): namePrefix, nameSuffix and namespace
 * replace the kustomization's own (an overlay's `namePrefix: kustomize-` becomes `staging-`, not `staging-kustomize-`),
 * an image of a name the kustomization already lists is replaced (`edit set image`), labels and annotations
 * are added over its commonLabels and commonAnnotations (`edit add label|annotation --force`).
 */
export function applyKustomizeOptions(kustomization: Kustomization, k: KustomizeOptions): Kustomization {
  const out: Kustomization = { ...kustomization };
  if (k.namePrefix) out.namePrefix = k.namePrefix;
  if (k.nameSuffix) out.nameSuffix = k.nameSuffix;
  if (k.namespace) out.namespace = k.namespace;
  if (k.images?.length) {
    // `kustomize edit set image` replaces an entry of the same name with the one it is given (a tag alone drops the
    // entry's newName), keeps a value only where the argument says `*`, and writes the list sorted by name.
    const byName = new Map<string, Record<string, unknown>>();
    for (const i of Array.isArray(out.images) ? out.images : [])
      if (i && typeof i === 'object') byName.set(String((i as { name?: unknown }).name), { ...(i as object) });
    for (const spec of k.images) {
      const set = kustomizeImage(spec);
      if (!set) continue;
      const known = byName.get(set.name) ?? {};
      const entry: Record<string, unknown> = { name: set.name };
      for (const field of ['newName', 'newTag', 'digest'] as const) {
        const value = set[field] === PRESERVE ? known[field] : set[field];
        if (value !== undefined && value !== '') entry[field] = value;
      }
      byName.set(set.name, entry);
    }
    out.images = [...byName.values()].sort((a, b) => compareGo(String(a.name), String(b.name)));
  }
  if (k.commonLabels && Object.keys(k.commonLabels).length > 0)
    out.commonLabels = { ...asMap(out.commonLabels), ...k.commonLabels };
  if (k.commonAnnotations && Object.keys(k.commonAnnotations).length > 0)
    out.commonAnnotations = { ...asMap(out.commonAnnotations), ...k.commonAnnotations };
  return out;
}

/** Go's `<` on strings: byte order, which is UTF-16 order for the ASCII names images have. */
function compareGo(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function asMap(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
