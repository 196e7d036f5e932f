import type { FileObjects } from '../api/model.ts';

/**
 * The `<group>/<version>/<Kind>` of every kind a file's (or unit's) CustomResourceDefinitions declare `scope: Cluster`,
 * one per served version, sorted (pure). What decides whether its objects have a namespace, wherever they are: a
 * cold render reads every file, and an incremental one keeps these per source file in the output index.
 */
export function declaredClusterScopedKinds(f: FileObjects): string[] {
  return declaredCrdKinds(f, 'Cluster');
}

/** The `<group>/<version>/<Kind>` of every kind a plain file's CustomResourceDefinitions declare, any scope (pure). */
export function declaredKinds(f: FileObjects): string[] {
  return f.unit ? [] : declaredCrdKinds(f);
}

/** The kinds the file's CRDs declare, one per version, of `scope` when given; sorted, each once. */
function declaredCrdKinds(f: FileObjects, scope?: 'Cluster'): string[] {
  const kinds = new Set<string>();
  for (const t of f.templates) {
    if (t.ref.kind !== 'CustomResourceDefinition') continue;
    const spec = t.manifest.spec as
      | { group?: string; scope?: string; names?: { kind?: string }; versions?: { name?: string }[] }
      | undefined;
    if ((scope && spec?.scope !== scope) || !spec?.group || !spec.names?.kind) continue;
    for (const v of spec.versions ?? []) if (v.name) kinds.add(`${spec.group}/${v.name}/${spec.names.kind}`);
  }
  return [...kinds].sort();
}

/** The key declaredClusterScopedKinds gives an object's kind. */
export function kindKey(ref: { apiVersion: string; kind: string }): string {
  return `${ref.apiVersion}/${ref.kind}`;
}

/**
 * The kinds CRDs declare cluster-scoped after a change (pure): those the output index names (`known`, kind → files)
 * less what the touched files declared, plus what they declare now (a file gone, null, declares nothing); and
 * `rescoped`, the kinds that became or stopped being cluster-scoped, whose every object moves in or out of a
 * namespace wherever it is defined.
 */
export function clusterScopedKindsAfter(
  known: Readonly<Record<string, readonly string[]>>,
  touched: ReadonlyMap<string, FileObjects | null>,
): { kinds: Set<string>; rescoped: Set<string> } {
  const kinds = new Set<string>();
  for (const [kind, files] of Object.entries(known)) if (files.some((f) => !touched.has(f))) kinds.add(kind);
  for (const f of touched.values()) for (const kind of f ? declaredClusterScopedKinds(f) : []) kinds.add(kind);
  const rescoped = new Set<string>();
  for (const kind of kinds) if (!Object.hasOwn(known, kind)) rescoped.add(kind);
  for (const kind of Object.keys(known)) if (!kinds.has(kind)) rescoped.add(kind);
  return { kinds, rescoped };
}
