import type { Problem } from '../errors/problem.ts';
import { loopbackUrl } from './loopbackUrl.ts';
import { chartArchiveEntries, type ChartArchiveRead, type UnpackBudget, unpackBudget } from './chartArchive.ts';

/**
 * Keys whose value helm's JSON Schema library (gojsonschema) resolves as a URL: a `file:` one (in any case) is read
 * from the host running helm, and what it holds comes back in the schema's error messages, so in validate and plan.
 */
const URL_KEYS = new Set(['$ref', '$id', 'id', '$schema']);
/** Packed subcharts inside packed subcharts are looked into this deep; helm nests no deeper in practice. */
const MAX_ARCHIVE_DEPTH = 4;

const SCHEMA_FILE = 'values.schema.json';

/**
 * Why a chart's values.schema.json would make helm read outside the commit (pure): a `$ref`, `$id`, `id` or `$schema`
 * naming a `file:` URL, or a file helm's JSON reader may take (it stops after the first value) that JavaScript's does
 * not, so what it names cannot be checked. At the file and line of the URL.
 */
export function schemaFileProblems(file: string, bytes: Uint8Array, shownAs: string = file): Problem[] {
  const text = new TextDecoder().decode(bytes);
  const at = (needle: string | undefined) => {
    const index = needle === undefined ? -1 : text.indexOf(needle);
    const before = index < 0 ? '' : text.slice(0, index);
    return { line: before.split('\n').length, column: before.length - before.lastIndexOf('\n') };
  };
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (err) {
    return [
      {
        file,
        line: 1,
        column: 1,
        code: 'INVALID_VALUE',
        severity: 'error',
        message: `${shownAs} is not JSON (${(err as Error).message}): the URLs it names cannot be checked, and helm would read them`,
        fix: `write ${shownAs} as one JSON document`,
      },
    ];
  }
  const out: Problem[] = [];
  const visit = (node: unknown, depth: number) => {
    if (depth > 200 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      const reads = URL_KEYS.has(key) && typeof value === 'string' ? hostReadBy(value) : undefined;
      if (reads)
        out.push({
          file,
          ...at(JSON.stringify(value).slice(1, -1)),
          code: 'INVALID_VALUE',
          severity: 'error',
          message: `${shownAs} names ${JSON.stringify(value)} as ${key}: helm would read ${reads}, not of the commit`,
          fix: 'put the definitions in the schema itself and refer to them by "#/definitions/…" (or "#/$defs/…")',
        });
      else visit(value, depth + 1);
    }
  };
  visit(schema, 0);
  return out;
}

/**
 * What of the host a schema URL makes helm read: a `file:` URL its files; an http(s) one on a loopback host its local
 * services, as Go's HTTP client connects to those directly and never through the refusing proxy a render sets
 * (golang.org/x/net/http/httpproxy useProxy), so a relative `$ref` under such an `$id` too. Any other URL goes to
 * that proxy and fails there.
 */
function hostReadBy(value: string): string | undefined {
  if (/^file:/i.test(value)) return 'that file of the host running the render';
  return loopbackUrl(value) ? 'a service listening on the loopback of the host running the render' : undefined;
}

/**
 * schemaFileProblems for every values.schema.json helm loads from a packed chart (`charts/<name>-<version>.tgz`) and
 * the packed charts inside it, at the archive (pure). An archive too large to look into whole is refused: helm would
 * load what it holds unchecked.
 */
export function archivedSchemaProblems(
  archive: string,
  tgz: Uint8Array | ChartArchiveRead,
  budget: UnpackBudget = unpackBudget(),
  depth = 0,
  inner = '',
): Problem[] {
  const read = tgz instanceof Uint8Array ? chartArchiveEntries(tgz, budget) : tgz;
  const shown = (p: string) => `${archive}:${inner}${p}`;
  const refused = (message: string, fix: string): Problem[] => [
    { file: archive, line: 1, column: 1, code: 'INVALID_VALUE', severity: 'error', message, fix },
  ];
  if ('problem' in read) {
    const at = `${archive}${inner ? `:${inner.slice(0, -1)}` : ''}`;
    if (read.problem === 'too-large')
      return refused(
        `${at} unpacks to more than 32 MiB${depth > 0 ? ' with the charts packed beside and around it' : ''}: its schemas cannot be checked before helm reads them`,
        'vendor the chart unpacked (charts/<name>/), or make it smaller',
      );
    if (read.problem === 'too-many')
      return refused(
        `${archive} holds more than 64 packed charts at every depth: ${at}'s schemas cannot be checked before helm reads them`,
        'vendor the nested charts unpacked (charts/<name>/charts/<sub>/)',
      );
    return [];
  }
  const out: Problem[] = [];
  for (const [p, bytes] of read.entries) {
    // The budget refused one archive of the tree, which said so: the rest goes unread.
    if (budget.spent) break;
    const name = p.slice(p.lastIndexOf('/') + 1);
    if (name === SCHEMA_FILE)
      out.push(...schemaFileProblems(archive, bytes, shown(p)).map((x) => ({ ...x, line: 1, column: 1 })));
    else if (name.endsWith('.tgz') && depth < MAX_ARCHIVE_DEPTH)
      out.push(...archivedSchemaProblems(archive, bytes, budget, depth + 1, `${inner}${p}:`));
    else if (name.endsWith('.tgz'))
      out.push({
        file: archive,
        line: 1,
        column: 1,
        code: 'INVALID_VALUE',
        severity: 'error',
        message: `${shown(p)} is a chart packed ${depth + 2} deep: its schemas cannot be checked before helm reads them`,
        fix: 'vendor the nested charts unpacked, or fewer levels deep',
      });
  }
  return out;
}

/** Whether a chart's file is one schemaFileProblems or archivedSchemaProblems reads. */
export function isSchemaInput(pathInChart: string): 'schema' | 'archive' | undefined {
  const name = pathInChart.slice(pathInChart.lastIndexOf('/') + 1);
  if (name === SCHEMA_FILE) return 'schema';
  if (name.endsWith('.tgz')) return 'archive';
  return undefined;
}
