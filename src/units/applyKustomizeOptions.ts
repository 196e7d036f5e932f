import { kustomizeImage, type KustomizeOptions } from './unitOptions.ts';

type Kustomization = Record<string, unknown>;

/** An option `kustomize edit` refuses for this kustomization, at the option's path in the options file. */
export interface KustomizeOptionRefusal {
  path: (string | number)[];
  message: string;
  fix: string;
}

/** An image argument's `*`: keep the value the kustomization's entry has. */
const PRESERVE = '*';

/**
 * A KustomizeUnit's options written into the unit's own kustomization, as Argo CD applies an Application's
 * `source.kustomize` with `kustomize edit` on its copy of the folder (pure): namePrefix, nameSuffix and namespace
 * replace the kustomization's own (an overlay's `namePrefix: kustomize-` becomes `staging-`, not `staging-kustomize-`),
 * an image of a name the kustomization already lists is replaced (`edit set image`), labels and annotations
 * are added to its commonLabels and commonAnnotations (`edit add label|annotation`), over a key it has only with
 * forceCommonLabels or forceCommonAnnotations (`--force`): without, kustomize refuses the key, and so does this.
 */
export function applyKustomizeOptions(
  kustomization: Kustomization,
  k: KustomizeOptions,
): { kustomization: Kustomization; refused: KustomizeOptionRefusal[] } {
  const out: Kustomization = { ...kustomization };
  const refused: KustomizeOptionRefusal[] = [];
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
  if (k.replicas?.length) {
    // `kustomize edit set replicas`: an entry of the same name is replaced, the others kept, the list sorted by name.
    const byName = new Map<string, unknown>();
    for (const r of Array.isArray(out.replicas) ? out.replicas : [])
      byName.set(String((asMap(r) as { name?: unknown }).name), r);
    for (const r of k.replicas) byName.set(r.name, { name: r.name, count: r.count });
    out.replicas = [...byName].sort(([a], [b]) => compareGo(a, b)).map(([, r]) => r);
  }
  if (k.commonLabels && Object.keys(k.commonLabels).length > 0) {
    if (k.labelWithoutSelector) out.labels = addLabelsWithoutSelector(out.labels, k, refused);
    else out.commonLabels = addMetadata(asMap(out.commonLabels), k.commonLabels, 'label', k.forceCommonLabels, refused);
  }
  if (k.commonAnnotations && Object.keys(k.commonAnnotations).length > 0)
    out.commonAnnotations = addMetadata(
      asMap(out.commonAnnotations),
      k.commonAnnotations,
      'annotation',
      k.forceCommonAnnotations,
      refused,
    );
  // Argo CD adds them with no kustomize edit command: appended to the kustomization's own, which apply first.
  if (k.patches?.length) out.patches = [...(Array.isArray(out.patches) ? out.patches : []), ...k.patches];
  if (k.components?.length) {
    // `kustomize edit add component`: appended, each once.
    const own = Array.isArray(out.components) ? out.components : [];
    out.components = [...own, ...k.components.filter((c, i) => !own.includes(c) && k.components!.indexOf(c) === i)];
  }
  return { kustomization: out, refused };
}

/**
 * `kustomize edit add label|annotation` (its addmetadata.go writeToMapEntry): a key the kustomization already has,
 * whatever its value, is refused unless forced ("label app already in kustomization file. Use --force to override."),
 * which Argo CD passes only with forceCommonLabels or forceCommonAnnotations.
 */
function addMetadata(
  own: Record<string, unknown>,
  added: Record<string, string>,
  kind: 'label' | 'annotation',
  force: boolean | undefined,
  refused: KustomizeOptionRefusal[],
  /** Where the kustomization holds them, as the message names it. */
  ownField?: string,
): Record<string, unknown> {
  const field = kind === 'label' ? 'commonLabels' : 'commonAnnotations';
  const forceField = kind === 'label' ? 'forceCommonLabels' : 'forceCommonAnnotations';
  for (const key of Object.keys(added))
    if (!force && Object.hasOwn(own, key))
      refused.push({
        path: ['spec', field, key],
        message: `${kind} ${key} is already in the kustomization's ${ownField ?? field}: kustomize edit add ${kind}, which Argo CD runs, refuses to overwrite it without ${forceField}`,
        fix: `set spec.${forceField}: true to overwrite the kustomization's value, or remove ${key} from spec.${field}`,
      });
  return { ...own, ...added };
}

/**
 * `kustomize edit add label --without-selector [--include-templates]` (addmetadata.go writeToLabels): the pairs go
 * into the first `labels` entry of the same settings (includeSelectors off, includeTemplates as asked), where a key
 * it has is refused unless forced, or into a new entry at the end.
 */
function addLabelsWithoutSelector(labels: unknown, k: KustomizeOptions, refused: KustomizeOptionRefusal[]): unknown[] {
  const list = Array.isArray(labels) ? [...labels] : [];
  const templates = k.labelIncludeTemplates === true;
  const at = list.findIndex((l) => {
    const entry = asMap(l);
    return entry.includeSelectors !== true && (entry.includeTemplates === true) === templates;
  });
  if (at < 0) {
    list.push({ pairs: { ...k.commonLabels }, ...(templates ? { includeTemplates: true } : {}) });
    return list;
  }
  const entry = asMap(list[at]);
  list[at] = {
    ...entry,
    pairs: addMetadata(asMap(entry.pairs), k.commonLabels!, 'label', k.forceCommonLabels, refused, 'labels'),
  };
  return list;
}

/** Go's `<` on strings: byte order, which is UTF-16 order for the ASCII names images have. */
function compareGo(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function asMap(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
