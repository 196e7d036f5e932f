import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import { parseDocuments } from '../documents/parseDocuments.ts';
import type { SourceSpan } from '../errors/problem.ts';
import { GO_YAML_PARSE_OPTIONS } from '../yaml/goYamlSchema.ts';
import { originFile } from './kustomizeOrigins.ts';

/** The generators kustomize names in an origin's `configuredBy`, by the kustomization field that lists their entries. */
const GENERATOR_FIELDS: Record<string, string> = {
  ConfigMapGenerator: 'configMapGenerator',
  SecretGenerator: 'secretGenerator',
};

/** What an object is called in a file, before kustomize renamed or moved it. */
export interface Written {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string | undefined;
  at: SourceSpan;
}

/**
 * The files each output object's origin annotation names (pure), relative to the repository: what `placeObjects` reads.
 * `origins` are the annotations' texts by object identity (kustomizeOrigins.ts outputObjectId).
 */
export function originFiles(origins: Readonly<Record<string, string>>, dir: string): string[] {
  return [...new Set(Object.values(origins).flatMap((text) => originFile(text, dir) ?? []))];
}

/**
 * The line of each output object in the file it came from (pure), by object identity: a resource's document in its
 * resources file, a generated ConfigMap's or Secret's entry in its kustomization's generator list. An origin names the
 * file only, and the object's name and namespace are the output's, after namePrefix, nameSuffix, namespace and a
 * generator's hash: the document is found by its kind and the longest name written there that the output's contains
 * (a namespace written alike decides between equals); with none, the file's only document of that kind. An object
 * found nowhere has no place, and stays at line 1 of its file. `textOf` gives a file's committed text.
 */
export function placeObjects(
  origins: Readonly<Record<string, string>>,
  dir: string,
  textOf: (file: string) => string | undefined,
): Record<string, SourceSpan> {
  // Many objects share one origin text and one file: each is read once.
  const read = new Map<string, { file: string; generator: string | undefined } | undefined>();
  const written = new Map<string, WrittenIndex>();
  const out: Record<string, SourceSpan> = {};
  for (const [id, text] of Object.entries(origins)) {
    if (!read.has(text)) {
      const file = originFile(text, dir);
      read.set(text, file === undefined ? undefined : { file, generator: generatorOf(text) });
    }
    const origin = read.get(text);
    if (origin === undefined) continue;
    const [apiVersion, kind, namespace, name] = JSON.parse(id) as [string, string, string, string];
    const key = origin.generator === undefined ? origin.file : `${origin.file}\0${origin.generator}\0${kind}`;
    let index = written.get(key);
    if (!index) {
      const { file, generator } = origin;
      const entries =
        generator === undefined
          ? resourcesIn(file, textOf(file))
          : generatorEntries(file, textOf(file), generator, apiVersion, kind);
      written.set(key, (index = indexWritten(entries)));
    }
    const at = bestMatch(index, { apiVersion, kind, namespace, name });
    if (at) out[id] = at;
  }
  return out;
}

/** A file's objects by group and kind, then by name. */
type WrittenIndex = Map<string, { byName: Map<string, Written[]>; all: Written[] }>;

function kindKey(apiVersion: string, kind: string): string {
  return `${apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : ''}/${kind}`;
}

function indexWritten(entries: readonly Written[]): WrittenIndex {
  const index: WrittenIndex = new Map();
  for (const w of entries) {
    const key = kindKey(w.apiVersion, w.kind);
    let ofKind = index.get(key);
    if (!ofKind) index.set(key, (ofKind = { byName: new Map(), all: [] }));
    ofKind.all.push(w);
    if (w.name !== '') ofKind.byName.set(w.name, [...(ofKind.byName.get(w.name) ?? []), w]);
  }
  return index;
}

function generatorOf(text: string): string | undefined {
  let origin: { configuredIn?: unknown; configuredBy?: { kind?: unknown } } | null;
  try {
    origin = parseDocument(text).toJS() as typeof origin;
  } catch {
    return undefined;
  }
  if (typeof origin?.configuredIn !== 'string') return undefined;
  const kind = origin.configuredBy?.kind;
  return typeof kind === 'string' ? (GENERATOR_FIELDS[kind] ?? '') : '';
}

function bestMatch(
  index: WrittenIndex,
  object: { apiVersion: string; kind: string; namespace: string; name: string },
): SourceSpan | undefined {
  const ofKind = index.get(kindKey(object.apiVersion, object.kind));
  if (!ofKind) return undefined;
  // The longest name written that the output's holds: prefixes and suffixes only add to it.
  let best: Written[] = [];
  for (let length = object.name.length; length > 0 && best.length === 0; length--)
    for (let start = 0; start + length <= object.name.length; start++)
      best = [...best, ...(ofKind.byName.get(object.name.slice(start, start + length)) ?? [])];
  const chosen =
    best.find((c) => c.name === object.name && (c.namespace ?? '') === object.namespace) ??
    best.find((c) => c.name === object.name) ??
    best.find((c) => (c.namespace ?? '') === object.namespace) ??
    best[0] ??
    (ofKind.all.length === 1 ? ofKind.all[0] : undefined);
  return chosen?.at;
}

/** The objects a resources file writes, a List's items each at its own line (pure). */
export function resourcesIn(file: string, text: string | undefined): Written[] {
  if (text === undefined) return [];
  const out: Written[] = [];
  for (const doc of parseDocuments(file, new TextEncoder().encode(text)).documents) {
    const value = doc.value as { kind?: unknown; items?: unknown };
    if (typeof value?.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items)) {
      value.items.forEach((item, i) => {
        const w = writtenAs(item, doc.locate(['items', i]));
        if (w) out.push(w);
      });
    } else {
      const w = writtenAs(value, doc.source);
      if (w) out.push(w);
    }
  }
  return out;
}

function writtenAs(value: unknown, at: SourceSpan): Written | undefined {
  const v = value as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
  if (typeof v?.kind !== 'string') return undefined;
  return {
    apiVersion: typeof v.apiVersion === 'string' ? v.apiVersion : '',
    kind: v.kind,
    name: typeof v.metadata?.name === 'string' ? v.metadata.name : '',
    namespace: typeof v.metadata?.namespace === 'string' ? v.metadata.namespace : undefined,
    at,
  };
}

/** A kustomization's entries of one generator list, each as the object it makes (its name before prefix and hash). */
function generatorEntries(
  file: string,
  text: string | undefined,
  field: string,
  apiVersion: string,
  kind: string,
): Written[] {
  if (text === undefined || field === '') return [];
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...GO_YAML_PARSE_OPTIONS, lineCounter });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return [];
  const list = doc.contents.get(field, true);
  if (!isSeq(list)) return [];
  return list.items.flatMap((item) => {
    if (!isMap(item) || !item.range) return [];
    const name = item.get('name');
    const namespace = item.get('namespace');
    const { line, col } = lineCounter.linePos(item.range[0]);
    return [
      {
        apiVersion,
        kind,
        name: typeof name === 'string' ? name : '',
        namespace: typeof namespace === 'string' ? namespace : undefined,
        at: { file, line, column: col },
      },
    ];
  });
}
