// A custom resource whose CustomResourceDefinition is in the commit is checked and stored as Karmada's API server,
// where that CRD is installed, checks and stores the template before Karmada propagates it: kubectl's strict field
// validation refuses unknown fields, the schema's validation refuses the rest, and the stored template (from which
// Karmada builds each Work) holds the schema's defaults. CEL rules (x-kubernetes-validations) are not evaluated.
// Only CRDs of plain files count: a Helm or Kustomize unit's output is not read on every sync, so a render that
// reads only a changed custom resource would not see such a CRD.
import type { FileObjects } from '../api/model.ts';
import type { Problem, SourceSpan } from '../errors/problem.ts';
import { compileCrd, type CompiledCrd, type CompiledSchema } from '../crdSchemas/compileCrdSchema.ts';
import { defaultCustomResource } from '../crdSchemas/defaultCustomResource.ts';
import { unknownFieldPaths, validateCustomResource } from '../crdSchemas/checkCustomResource.ts';
import { fieldPathText } from '../api/unknownFields.ts';

type FileTemplate = FileObjects['templates'][number];

/** Compiled once per CRD object read: a render assembles its model several times from the same files. */
const compiled = new WeakMap<object, CompiledCrd | null>();

/**
 * The schemas the plain files' CRDs serve, by `group/version/Kind`: each CRD compiled when an object of its kind is
 * first checked (kube-prometheus's CRDs are 400 KB each, and most commits change none of their objects).
 */
export function crdSchemasOf(files: readonly FileObjects[]): { get(kind: string): CompiledSchema | undefined } {
  const crds = new Map<string, { manifest: Record<string, unknown>; version: string }>();
  for (const f of files) {
    if (f.unit) continue;
    for (const t of f.templates) {
      if (t.ref.kind !== 'CustomResourceDefinition' || t.ref.apiVersion !== 'apiextensions.k8s.io/v1') continue;
      const spec = t.manifest.spec as { group?: unknown; names?: { kind?: unknown }; versions?: unknown } | undefined;
      if (typeof spec?.group !== 'string' || typeof spec.names?.kind !== 'string' || !Array.isArray(spec.versions))
        continue;
      for (const v of spec.versions as { name?: unknown }[])
        if (typeof v?.name === 'string')
          crds.set(`${spec.group}/${v.name}/${spec.names.kind}`, { manifest: t.manifest, version: v.name });
    }
  }
  return {
    get(kind) {
      const found = crds.get(kind);
      if (!found) return undefined;
      let crd = compiled.get(found.manifest);
      if (crd === undefined) {
        crd = compileCrd(found.manifest) ?? null;
        compiled.set(found.manifest, crd);
      }
      return crd?.versions.get(found.version);
    },
  };
}

/**
 * The template as Karmada's API server stores it (defaults applied), or the problems that make kube-apiserver refuse
 * it, each at its field: unknown fields first (strict decoding refuses the body before validating it).
 */
export function checkCustomResource(
  t: FileTemplate,
  schema: CompiledSchema,
): { manifest: Record<string, unknown>; problems: Problem[] } {
  const at = (path: (string | number)[], key?: 'key'): SourceSpan => t.locate?.(path, key) ?? t.source;
  const { kind } = t.ref;
  const unknown = unknownFieldPaths(t.manifest, schema);
  if (unknown.length > 0)
    return {
      manifest: t.manifest,
      problems: unknown.map((path) => ({
        ...at(path, 'key'),
        code: 'UNKNOWN_FIELD' as const,
        severity: 'error' as const,
        message: `strict decoding error: unknown field "${fieldPathText(path)}" (the ${kind} CRD's schema declares no ${String(path[path.length - 1])} there: the API server refuses the ${kind} under kubectl's strict field validation, and drops the field without it)`,
        fix: `remove ${fieldPathText(path)}, or move it where the CRD's schema declares it (check its spelling and indentation)`,
      })),
    };
  const manifest = defaultCustomResource(t.manifest, schema);
  const problems = validateCustomResource(manifest, schema).map(
    (e): Problem => ({
      ...at(e.path),
      code: e.message.includes(': Required value') ? 'MISSING_FIELD' : 'INVALID_VALUE',
      severity: 'error',
      message: `${e.message} (the ${kind} CRD's schema: the API server refuses the ${kind})`,
      fix: e.fix,
    }),
  );
  return { manifest, problems };
}
