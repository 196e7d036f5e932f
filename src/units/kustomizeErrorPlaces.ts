import type { SourceSpan } from '../errors/problem.ts';
import { resolveRelative } from './detectUnits.ts';
import { resourcesIn, type Written } from './kustomizePlaces.ts';
import { parseKustomization } from './parseKustomization.ts';

/** A file a failed kustomize build read, with its committed text. */
export interface KustomizeInputText {
  file: string;
  text: string;
  /** A kustomization (its patches and replacements blocks are searched), or a file one names (searched whole). */
  kustomization: boolean;
  /** A file a kustomization lists as a resource: searched for the objects it writes, never for a patch's lines. */
  resource?: boolean;
  /** The kustomizations that name it, for a file that is none. */
  namedBy?: readonly string[];
}

/** An object's id as kustomize prints it (kyaml resid ResId.String: `Kind.version.group/name.namespace`). */
interface ResId {
  kind: string;
  group: string;
  name: string;
  namespace: string;
}

/**
 * The folder of the kustomization kustomize was building when it failed (pure), repository-relative: each base it
 * went into is named `recursed accumulation of path 'apps/base'`, the last the deepest; none, the unit's own.
 */
export function failingKustomizationDir(error: string, unitDir: string): string {
  return [...error.matchAll(/recursed accumulation of path '([^']+)'/g)].at(-1)?.[1] ?? unitDir;
}

/**
 * Where in the commit a kustomize error that names no line comes from (pure), found in `texts` (the unit's own
 * kustomization first, then every one the build read and the files they name):
 * - a JSON6902 patch operation whose path the object lacks (`replace operation does not apply: doc is missing path:
 *   /data/x`) at the patch's `path:` line, a replacement whose source selects nothing (`nothing selected by
 *   ConfigMap.[noVer].[noGrp]/cfg.[noNs]:data.k`) at its source's `name:` line: the first text that has one;
 * - the rest in the kustomization that failed (failingKustomizationDir): a strategic-merge patch whose object is in
 *   none of its resources (`no matches for Id ConfigMap.v1.[noGrp]/cfg.[noNs]; failed to find unique target for
 *   patch`, api/resmap/reswrangler.go GetById) at the patch's document or inline `name:`; an object added twice
 *   (`may not add resource with an already registered id`, reswrangler Append) at the second one's document, in the
 *   file (`merging resources from 'cm.yaml'`) or base (`recursed merging from path 'apps/b'`, else the entry naming
 *   that base) that adds it; a generator whose `behavior` finds no object to merge into or replace, or that creates
 *   one that exists (reswrangler appendReplaceOrMerge), at its entry's `name:`; objects a `namespace:` makes one
 *   (NamespaceTransformer: `namespace transformation produces ID conflict`) at that line.
 * Undefined when the error is of another kind or nothing matches: the caller keeps the kustomization's first line.
 */
export function kustomizeErrorPlace(
  raw: string,
  texts: readonly KustomizeInputText[],
  unitDir: string,
): SourceSpan | undefined {
  const error = readableKustomizeError(raw);
  const searched = texts.filter((t) => !t.resource);
  const pointer = /(?:doc is missing path|for path):? '?(\/[^\s':]*)'?/.exec(error)?.[1];
  if (pointer !== undefined) {
    const line = new RegExp(`^\\s*(?:-\\s*)?path:\\s*["']?${escapeRegExp(pointer)}["']?\\s*$`);
    return findLine(searched, ['patches', 'patchesJson6902'], line, pointer);
  }
  const selected = /nothing selected by [^\s/]*\/(\S+)\.[^.\s:]*:\S+/.exec(error)?.[1];
  if (selected !== undefined) {
    const line = new RegExp(`^\\s*(?:-\\s*)?name:\\s*["']?${escapeRegExp(selected)}["']?\\s*$`);
    const inline = new RegExp(`(?:[{,]\\s*)name:\\s*["']?${escapeRegExp(selected)}["']?\\s*[,}]`);
    return (
      findLine(searched, ['replacements'], line, selected) ?? findLine(searched, ['replacements'], inline, selected)
    );
  }
  const dir = failingKustomizationDir(error, unitDir);
  const kustomization = texts.find((t) => t.kustomization && dirOf(t.file) === dir);
  if (!kustomization) return undefined;
  const namedHere = (t: KustomizeInputText) => t.namedBy?.includes(kustomization.file) === true;

  const unmatched = /no matches for Id ([^\s;]+); failed to find unique target for patch/.exec(error)?.[1];
  if (unmatched !== undefined) {
    const id = parseResId(unmatched);
    if (!id) return undefined;
    for (const t of texts.filter((t) => namedHere(t) && !t.resource)) {
      const at = lastWritten(resourcesIn(t.file, t.text), id, false);
      if (at) return at;
    }
    const line = new RegExp(`^\\s*(?:-\\s*)?name:\\s*["']?${escapeRegExp(id.name)}["']?\\s*$`);
    return findLine([kustomization], ['patches', 'patchesStrategicMerge'], line, id.name);
  }

  const duplicate = /may not add resource with an already registered id: ([^\s']+)/.exec(error)?.[1];
  if (duplicate !== undefined) {
    const id = parseResId(duplicate);
    if (!id) return undefined;
    const file = /merging resources from '([^']+)': may not add/.exec(error)?.[1];
    if (file !== undefined) {
      const inRepo = resolveRelative(dir, file);
      const t = texts.find((t) => t.resource && t.file === inRepo);
      return t && lastWritten(resourcesIn(t.file, t.text), id, true);
    }
    const base = /recursed merging from path '([^']+)': may not add/.exec(error)?.[1];
    if (base === undefined) return undefined;
    const inBase = texts.filter((t) => t.resource && t.namedBy?.some((k) => dirOf(k) === base));
    for (const t of inBase.reverse()) {
      const at = lastWritten(resourcesIn(t.file, t.text), id, true);
      if (at) return at;
    }
    const entry = parseKustomization(kustomization.file, kustomization.text).references.find(
      (r) => r.folderAllowed && resolveRelative(dir, r.path) === base,
    );
    return entry && { file: kustomization.file, line: entry.line, column: entry.column };
  }

  const generated = /merging from generator: id ([^\s;]+) (?:does not exist|exists);/.exec(error)?.[1];
  if (generated !== undefined) {
    const id = parseResId(generated);
    const field = { ConfigMap: 'configMapGenerator', Secret: 'secretGenerator' }[id?.kind ?? ''];
    if (!id || field === undefined) return undefined;
    const line = new RegExp(`^\\s*(?:-\\s*)?name:\\s*["']?${escapeRegExp(id.name)}["']?\\s*$`);
    return findLine([kustomization], [field], line, id.name);
  }

  if (/namespace transformation produces ID conflict/.test(error))
    return findLine([kustomization], ['namespace'], /^namespace\s*:/, 'namespace');
  return undefined;
}

/**
 * kustomize's error as a user can read it and as it reads the same on every run (pure): a generator that cannot be
 * merged is printed with its Go pointer (`merging from generator &{0xc000907450 <nil>}`, kusttarget.go) and its id in
 * Go syntax (`resid.ResId{Gvk:resid.Gvk{…}, Name:"settings", …}`), an ID conflict with each object as JSON holding
 * kustomize's internal annotations: each becomes the id as kustomize prints it elsewhere, `ConfigMap.v1.[noGrp]/x.dev`.
 */
export function readableKustomizeError(error: string): string {
  return error
    .replace(/merging from generator &\{[^}]*\}/g, 'merging from generator')
    .replace(
      /resid\.ResId\{Gvk:resid\.Gvk\{Group:"([^"]*)", Version:"([^"]*)", Kind:"([^"]*)"[^}]*\}, Name:"([^"]*)", Namespace:"([^"]*)"\}/g,
      (_, group: string, version: string, kind: string, name: string, namespace: string) =>
        `${kind || '[noKind]'}.${version || '[noVer]'}.${group || '[noGrp]'}/${name || '[noName]'}.${namespace || '[noNs]'}`,
    )
    .replace(/(namespace transformation produces ID conflict: )\[(.*)\]/, (whole, lead: string, list: string) => {
      const ids = conflictIds(list);
      return ids ? `${lead}${ids.join(', ')}` : whole;
    });
}

/** The objects of the conflict list (`[{json} {json}]`) as `Kind.version.group/name.namespace (was namespace …)`. */
function conflictIds(list: string): string[] | undefined {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  let quoted = false;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '{' && depth++ === 0) start = i;
    else if (c === '}' && --depth === 0) {
      let object: {
        apiVersion?: string;
        kind?: string;
        metadata?: { name?: string; namespace?: string; annotations?: Record<string, string> };
      };
      try {
        object = JSON.parse(list.slice(start, i + 1)) as typeof object;
      } catch {
        return undefined;
      }
      const apiVersion = object.apiVersion ?? '';
      const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
      const m = object.metadata ?? {};
      const was = m.annotations?.['internal.config.kubernetes.io/previousNamespaces'];
      out.push(
        `${object.kind ?? '[noKind]'}.${version || '[noVer]'}.${group || '[noGrp]'}/${m.name ?? '[noName]'}.${m.namespace ?? '[noNs]'}${was ? ` (was in ${was})` : ''}`,
      );
    }
  }
  return out.length > 0 ? out : undefined;
}

function parseResId(text: string): ResId | undefined {
  const slash = text.indexOf('/');
  const dot = text.lastIndexOf('.');
  if (slash < 0 || dot < slash) return undefined;
  const [kind, , ...group] = text.slice(0, slash).split('.');
  const g = group.join('.');
  const namespace = text.slice(dot + 1);
  return {
    kind: kind!,
    group: g === '[noGrp]' ? '' : g,
    name: text.slice(slash + 1, dot),
    namespace: namespace === '[noNs]' ? '' : namespace,
  };
}

/**
 * The last document of `written` that is the object (its kind and group, its name; the namespace decides between
 * equals), else, when `renamed` (a prefix or suffix may have been added since), the last whose name is the longest
 * the object's holds.
 */
function lastWritten(written: readonly Written[], id: ResId, renamed: boolean): SourceSpan | undefined {
  const ofKind = written.filter((w) => w.kind === id.kind && groupOf(w.apiVersion) === id.group).reverse();
  const named =
    ofKind.find((w) => w.name === id.name && (w.namespace ?? '') === id.namespace) ??
    ofKind.find((w) => w.name === id.name);
  if (named || !renamed) return named?.at;
  const held = ofKind.filter((w) => w.name !== '' && id.name.includes(w.name));
  return held.sort((a, b) => b.name.length - a.name.length)[0]?.at;
}

function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '';
}

function dirOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash < 0 ? '' : file.slice(0, slash);
}

function findLine(
  texts: readonly KustomizeInputText[],
  fields: readonly string[],
  pattern: RegExp,
  token: string,
): SourceSpan | undefined {
  for (const { file, text, kustomization } of texts) {
    const lines = text.split('\n');
    let inField = !kustomization;
    for (const [i, l] of lines.entries()) {
      // A top-level key opens or closes the block searched in a kustomization.
      const key = /^([A-Za-z0-9_]+):/.exec(l)?.[1];
      if (kustomization && key !== undefined) inField = fields.includes(key);
      if (inField && pattern.test(l)) return { file, line: i + 1, column: l.indexOf(token) + 1 };
    }
  }
  return undefined;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
