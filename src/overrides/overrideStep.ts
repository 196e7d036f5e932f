// What every overrider returns: the patched manifest, or which overrider failed and why.
import { applyJsonPatch, type JsonPatchOperation } from '../patches/jsonPatch.ts';

export type Manifest = Record<string, unknown>;

export type OverrideStep = { ok: true; manifest: Manifest } | { ok: false; overrider: string; message: string };

/** Applies one JSON patch to the manifest; the whole patch fails if one operation does. */
export function patchManifest(
  manifest: Manifest,
  operations: readonly JsonPatchOperation[],
  overrider: string,
): OverrideStep {
  if (operations.length === 0) return { ok: true, manifest };
  const result = applyJsonPatch(manifest, operations);
  if (!result.ok) return { ok: false, overrider, message: result.message };
  if (!isManifest(result.document)) return { ok: false, overrider, message: 'the patch did not leave an object' };
  return { ok: true, manifest: result.document };
}

/**
 * Runs a list of overriders in order, each as its own JSON patch named `<label>[i]` in errors. `build`
 * turns one overrider into operations (or a failure message) against `base`, which is the current manifest
 * unless the overrider must prepare it first (e.g. create a missing map); nothing to do leaves it unchanged.
 */
export function applyEachAsPatch<T>(
  manifest: Manifest,
  overriders: readonly T[] | undefined,
  label: string,
  build: (current: Manifest, overrider: T) => { base?: Manifest; patches: readonly JsonPatchOperation[] } | string,
): OverrideStep {
  let current = manifest;
  for (const [index, overrider] of (overriders ?? []).entries()) {
    const name = `${label}[${index}]`;
    const built = build(current, overrider);
    if (typeof built === 'string') return { ok: false, overrider: name, message: built };
    if (built.patches.length === 0) continue;
    const step = patchManifest(built.base ?? current, built.patches, name);
    if (!step.ok) return step;
    current = step.manifest;
  }
  return { ok: true, manifest: current };
}

export function isManifest(value: unknown): value is Manifest {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Kinds whose pod spec Karmada knows without a path: Pod at /spec, the workloads at /spec/template/spec.
 * Only the kind is compared, not the apiVersion.
 */
export function podSpecPath(kind: unknown): string[] | undefined {
  switch (kind) {
    case 'Pod':
      return ['spec'];
    case 'ReplicaSet':
    case 'Deployment':
    case 'DaemonSet':
    case 'StatefulSet':
    case 'Job':
      return ['spec', 'template', 'spec'];
    default:
      return undefined;
  }
}

/** Reads a nested field; undefined when a step is missing or not an object. */
export function nestedField(manifest: Manifest, path: readonly string[]): unknown {
  let current: unknown = manifest;
  for (const key of path) {
    if (!isManifest(current)) return undefined;
    current = current[key];
  }
  return current;
}
