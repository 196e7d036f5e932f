import path from 'node:path';
import { isMap, isSeq, parse, parseDocument } from 'yaml';

/**
 * Kustomize's own record of where an output object came from, set with `buildMetadata: [originAnnotations]`:
 * `path: ../base/podinfo/release.yaml` for a resource, `configuredIn: kustomization.yaml` for a generated one, relative
 * to the kustomization built.
 */
export const ORIGIN_ANNOTATION = 'config.kubernetes.io/origin';

/** kustomize learnt buildMetadata in v4.5.4 (kubectl 1.24); an older one refuses the field, so it is not asked. */
export function knowsOriginAnnotations(toolVersion: string): boolean {
  const m = /v?(\d+)\.(\d+)\.(\d+)/.exec(toolVersion);
  if (!m) return false;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return major > 4 || (major === 4 && (minor > 5 || (minor === 5 && patch >= 4)));
}

/** Whether the kustomization asks for origin annotations itself: then its output keeps them (pure). */
export function asksForOrigins(kustomization: string): boolean {
  try {
    const value = parse(kustomization) as { buildMetadata?: unknown } | null;
    return Array.isArray(value?.buildMetadata) && value.buildMetadata.includes('originAnnotations');
  } catch {
    return false;
  }
}

/**
 * The kustomization with `originAnnotations` added to its buildMetadata (pure), so each object of the output names the
 * file it came from; undefined when it already asks for them or is not one mapping (kustomize then reports it as it
 * is). The field is added at the end, so the lines kustomize may quote from the file stay where they are.
 */
export function withOriginAnnotations(kustomization: string): string | undefined {
  const doc = parseDocument(kustomization);
  if (doc.errors.length > 0 || !isMap(doc.contents) || asksForOrigins(kustomization)) return undefined;
  const existing = doc.get('buildMetadata');
  if (existing !== undefined && !isSeq(existing)) return undefined;
  const items = isSeq(existing) ? (existing.toJSON() as unknown[]) : [];
  doc.set('buildMetadata', doc.createNode([...items, 'originAnnotations'], { flow: true }));
  return doc.toString();
}

/**
 * The repository path of the file an output object came from, read from its origin annotation (pure), which is
 * removed from the object unless `keep` (the kustomization asked for it): Flotilla asked for it only to name the file.
 * `dir` is the unit's folder, which the annotation's paths are relative to; a path leaving the repository names none.
 */
export function takeOrigin(object: unknown, dir: string, keep: boolean): string | undefined {
  const meta = (object as { metadata?: { annotations?: Record<string, unknown> } } | null)?.metadata;
  const annotations = meta?.annotations;
  const text = annotations?.[ORIGIN_ANNOTATION];
  if (typeof text !== 'string') return undefined;
  if (!keep) {
    delete annotations![ORIGIN_ANNOTATION];
    if (Object.keys(annotations!).length === 0) delete meta!.annotations;
  }
  let origin: { path?: unknown; configuredIn?: unknown; repo?: unknown } | null;
  try {
    origin = parse(text) as typeof origin;
  } catch {
    return undefined;
  }
  const relative = origin?.repo === undefined ? (origin?.path ?? origin?.configuredIn) : undefined;
  if (typeof relative !== 'string' || relative === '') return undefined;
  const resolved = path.posix.normalize(path.posix.join(dir, relative));
  return resolved.startsWith('../') || resolved === '..' || path.posix.isAbsolute(resolved) ? undefined : resolved;
}
