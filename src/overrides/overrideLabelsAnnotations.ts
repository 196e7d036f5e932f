// labelsOverrider / annotationsOverrider: add, remove or replace keys of metadata.labels or metadata.annotations.
import type { LabelAnnotationOverrider } from '../api/policy.ts';
import type { JsonPatchOperation } from '../patches/jsonPatch.ts';
import { applyEachAsPatch, isManifest, type Manifest, type OverrideStep } from './overrideStep.ts';

export type LabelAnnotationField = 'labels' | 'annotations';

/**
 * Each overrider in turn, each as its own patch. remove and replace skip keys that are not there; add creates
 * the map when missing (or when it is not a map of strings) and overwrites existing keys. Only `/` in a key is
 * escaped (to `~1`), as Karmada does; `~` is not valid in label or annotation keys.
 */
export function applyLabelAnnotationOverriders(
  manifest: Manifest,
  field: LabelAnnotationField,
  overriders: readonly LabelAnnotationOverrider[] | undefined,
): OverrideStep {
  return applyEachAsPatch(
    manifest,
    overriders,
    field === 'labels' ? 'labelsOverrider' : 'annotationsOverrider',
    (current, overrider) => {
      const base = overrider.operator === 'add' ? withStringMap(current, field) : current;
      return { base, patches: buildPatches(base, field, overrider) };
    },
  );
}

function buildPatches(
  manifest: Manifest,
  field: LabelAnnotationField,
  overrider: LabelAnnotationOverrider,
): JsonPatchOperation[] {
  const existing = stringMap(manifest, field);
  const patches: JsonPatchOperation[] = [];
  for (const [key, value] of Object.entries(overrider.value ?? {})) {
    if (overrider.operator !== 'add' && !(existing && Object.hasOwn(existing, key))) continue;
    if (overrider.operator === 'add' && !existing) continue;
    patches.push({ op: overrider.operator, path: `/metadata/${field}/${key.replace(/\//g, '~1')}`, value });
  }
  return patches;
}

/** metadata[field] when it is a map of strings, else undefined (absent, null, or holding a non-string). */
function stringMap(manifest: Manifest, field: LabelAnnotationField): Record<string, unknown> | undefined {
  const metadata = manifest.metadata;
  if (!isManifest(metadata)) return undefined;
  const map = metadata[field];
  if (!isManifest(map)) return undefined;
  return Object.values(map).every((v) => typeof v === 'string') ? map : undefined;
}

/** A copy whose metadata[field] is a map of strings, set to {} when it was not; unchanged when metadata is not a map. */
function withStringMap(manifest: Manifest, field: LabelAnnotationField): Manifest {
  if (stringMap(manifest, field)) return manifest;
  const metadata = manifest.metadata;
  if (metadata !== undefined && !isManifest(metadata)) return manifest;
  return { ...manifest, metadata: { ...metadata, [field]: {} } };
}
