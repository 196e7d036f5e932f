import path from 'node:path';
import { isMap, isSeq, parse, parseAllDocuments, parseDocument } from 'yaml';
import { parseDocuments } from '../documents/parseDocuments.ts';

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
  return originFile(text, dir);
}

/** The repository path an origin annotation's text names, relative to the unit's folder `dir` (pure). */
export function originFile(text: string, dir: string): string | undefined {
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

/** How kustomize tells objects apart in one output: group/version, kind, namespace and name (pure). */
export function outputObjectId(object: unknown): string | undefined {
  const o = object as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
  if (typeof o?.kind !== 'string' || typeof o.metadata?.name !== 'string') return undefined;
  return JSON.stringify([o.apiVersion ?? '', o.kind, o.metadata.namespace ?? '', o.metadata.name]);
}

/** The origin annotation of each object of a kustomize output, by the object's identity (pure). */
export function originsOf(output: string): Record<string, string> {
  const out: Record<string, string> = {};
  // Read as a manifest file is, several times faster than the library for a large output; what does not parse names
  // no origin.
  const { documents } = parseDocuments('kustomize build output', new TextEncoder().encode(output));
  for (const { value: object } of documents) {
    const id = outputObjectId(object);
    const text = (object as { metadata?: { annotations?: Record<string, unknown> } }).metadata?.annotations?.[
      ORIGIN_ANNOTATION
    ];
    if (id !== undefined && typeof text === 'string') out[id] = text;
  }
  return out;
}

/**
 * Whether the origin annotations kustomize tracked during the build reached an object's content (pure): a
 * `replacements` entry or a JSON6902 `copy` reading `metadata.annotations` copies them where the last step of the
 * build, which removes only each object's own annotation (krusty/kustomizer.go), never looks. Then the output is not
 * what a plain `kustomize build` gives, and the content comes from one. An output that does not parse is taken as
 * leaked: the plain build says what is wrong with it.
 */
export function originsLeaked(output: string): boolean {
  let objects: unknown[];
  try {
    objects = outputObjects(output);
  } catch {
    return true;
  }
  const texts = new Set<string>();
  for (const o of objects) {
    const text = (o as { metadata?: { annotations?: Record<string, unknown> } } | null)?.metadata?.annotations?.[
      ORIGIN_ANNOTATION
    ];
    if (typeof text === 'string') texts.add(text);
  }
  const leaks = (value: unknown): boolean => {
    if (typeof value === 'string') return value.includes(ORIGIN_ANNOTATION) || texts.has(value);
    if (Array.isArray(value)) return value.some(leaks);
    if (value !== null && typeof value === 'object')
      return Object.entries(value).some(([k, v]) => k.includes(ORIGIN_ANNOTATION) || leaks(v));
    return false;
  };
  return objects.some((o) => {
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return leaks(o);
    const meta = (o as { metadata?: Record<string, unknown> } | null)?.metadata;
    const annotations = meta?.annotations as Record<string, unknown> | undefined;
    const { [ORIGIN_ANNOTATION]: _own, ...otherAnnotations } = annotations ?? {};
    return leaks({ ...(o as object), metadata: { ...meta, annotations: otherAnnotations } });
  });
}

function outputObjects(output: string): unknown[] {
  return parseAllDocuments(output).flatMap((d) => {
    if (d.errors.length > 0) throw d.errors[0];
    const value: unknown = d.toJS();
    return value === null || value === undefined ? [] : [value];
  });
}
