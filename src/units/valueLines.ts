import { isMap, isScalar, isSeq, LineCounter, parseDocument, Scalar, type Node } from 'yaml';
import type { SourceSpan } from '../errors/problem.ts';

/**
 * Where a value the chart was given is set (pure): `files` are the texts helm merges, lowest precedence first (the
 * chart's values.yaml, the value files in order, then the unit's options file, whose `parameters` (--set) win over its
 * `values` and `valuesObject`), and `path` a value's path as helm's schema errors name it (`image.pullPolicy`,
 * `hosts.0`). The place is the last file that sets it, at its key; undefined when none does (a required value no file
 * gives, or a default of a subchart's own values.yaml).
 */
export function whereValueIsSet(
  files: readonly { file: string; text: string; options?: boolean }[],
  path: readonly string[],
): SourceSpan | undefined {
  for (const source of [...files].reverse()) {
    const found = source.options ? inOptions(source.text, path) : inValues(source.text, path, 0, 0);
    if (found) return { file: source.file, ...found };
  }
  return undefined;
}

/** The path a schema error names: gojsonschema's `(root)` is the values themselves, and a property it refuses is named in its text. */
export function schemaErrorPath(reason: string): string[] | undefined {
  const m = /^([^:\s]+): (.*)$/.exec(reason);
  if (!m) return undefined;
  const at = m[1] === '(root)' ? [] : m[1]!.split('.');
  const extra = /^Additional property (\S+) is not allowed/.exec(m[2]!);
  const path = extra ? [...at, extra[1]!] : at;
  return path.length > 0 ? path : undefined;
}

type Place = { line: number; column: number };

/** The text as helm's YAML reader takes it (a key written twice allowed), and where a node of it starts. */
function parsedWithLines(text: string): { doc: ReturnType<typeof parseDocument>; at: (n: Node) => Place } | undefined {
  const lineCounter = new LineCounter();
  try {
    const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
    return {
      doc,
      at: (n) => {
        const pos = lineCounter.linePos(n.range?.[0] ?? 0);
        return { line: pos.line, column: pos.col };
      },
    };
  } catch {
    return undefined;
  }
}

function inValues(text: string, path: readonly string[], lineOffset: number, columnOf: number): Place | undefined {
  const parsed = parsedWithLines(text);
  if (!parsed) return undefined;
  const node = nodeAt(parsed.doc.contents, path);
  if (!node) return undefined;
  const at = parsed.at(node);
  return { line: at.line + lineOffset, column: at.column + columnOf };
}

/** The key (in a map) or item (in a list) at the end of `path`, walked from `node`. */
function nodeAt(node: unknown, path: readonly string[]): Node | undefined {
  let here = node;
  let last: Node | undefined;
  for (const segment of path) {
    if (isMap(here)) {
      // A key written twice: the last one counts, as in helm's YAML reader.
      const pair = here.items.filter((p) => isScalar(p.key) && String(p.key.value) === segment).at(-1);
      if (!pair) return undefined;
      last = pair.key as Node;
      here = pair.value;
    } else if (isSeq(here) && /^\d+$/.test(segment)) {
      const item = here.items[Number(segment)];
      if (item === undefined) return undefined;
      last = item as Node;
      here = item;
    } else return undefined;
  }
  return last;
}

function inOptions(text: string, path: readonly string[]): Place | undefined {
  const parsed = parsedWithLines(text);
  if (!parsed) return undefined;
  const { doc, at: pos } = parsed;
  const spec = isMap(doc.contents) ? doc.contents.get('spec', true) : undefined;
  // --set names a path with dots and list indexes (`hosts[0].name`).
  const wanted = path.join('.');
  const parameters = isMap(spec) ? spec.get('parameters', true) : undefined;
  if (isSeq(parameters))
    for (const item of [...parameters.items].reverse()) {
      if (!isMap(item)) continue;
      const name = item.get('name');
      if (typeof name === 'string' && name.replace(/\[(\d+)\]/g, '.$1') === wanted) return pos(item as Node);
    }
  if (!isMap(spec)) return undefined;
  const object = nodeAt(spec, ['valuesObject']);
  if (object) {
    const inner = nodeAt(spec.get('valuesObject', true), path);
    if (inner) return pos(inner);
  }
  const values = spec.get('values', true);
  if (isScalar(values) && typeof values.value === 'string') {
    const block = values.type === Scalar.BLOCK_LITERAL || values.type === Scalar.BLOCK_FOLDED;
    if (!block) return undefined;
    // The block's text starts on the line after its `|`, each line indented by the block's indentation.
    const start = pos(values).line;
    const lines = text.split('\n');
    const firstContent = lines.slice(start).find((l) => l.trim() !== '');
    const indent = firstContent === undefined ? 0 : firstContent.length - firstContent.trimStart().length;
    return inValues(values.value, path, start, indent);
  }
  return undefined;
}
