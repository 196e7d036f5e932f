import { alignTabs } from '../text/alignTabs.ts';
import { terminalSafe } from '../text/terminalSafe.ts';
import {
  findJsonPathResults,
  goSprint,
  JsonPathExecutionError,
  JsonPathSyntaxError,
  parseJsonPath,
} from './jsonPath.ts';

/**
 * kubectl's custom-columns printer (kubectl/pkg/cmd/get/customcolumn.go): `-o custom-columns=HEADER:PATH,...` and
 * `-o custom-columns-file=FILE`, each cell fmt.Sprint of what the path finds. Pure.
 */

/** A column: its header and its JSONPath template (always `{...}`). */
export interface CustomColumn {
  header: string;
  fieldSpec: string;
}

/** A spec or template kubectl refuses; the message is kubectl's. */
export class CustomColumnsError extends Error {}

// A path with or without its leading dot and its braces; nothing inside may be a brace.
const RELAXED = /^\{\.?([^{}]+)\}$|^\.?([^{}]+)$/;

/**
 * kubectl's RelaxedJSONPathExpression: `a.b`, `.a.b`, `{a.b}` and `{.a.b}` all become `{.a.b}`; an empty path stays
 * empty. --sort-by reads its path so too.
 */
export function relaxedJsonPath(path: string): string {
  if (path === '') return path;
  const match = RELAXED.exec(path);
  if (!match)
    throw new CustomColumnsError(
      "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'",
    );
  return `{.${match[1] || match[2]}}`;
}

/** NewCustomColumnsPrinterFromSpec: comma-separated HEADER:PATH pairs. */
export function columnsFromSpec(spec: string): CustomColumn[] {
  if (spec === '') throw new CustomColumnsError('custom-columns format specified but no custom columns given');
  return spec.split(',').map((part) => {
    const colon = part.indexOf(':');
    if (colon < 0)
      throw new CustomColumnsError(`unexpected custom-columns spec: ${part}, expected <header>:<json-path-expr>`);
    return { header: part.slice(0, colon), fieldSpec: relaxedJsonPath(part.slice(colon + 1)) };
  });
}

/**
 * NewCustomColumnsPrinterFromTemplate: the file's first line holds the headers, its second the paths, each split
 * on white space (Go's bufio.ScanWords); lines after the second are not read.
 */
export function columnsFromTemplate(text: string): CustomColumn[] {
  const lines = scanLines(text);
  const format = 'Expected format is one line of space separated headers, one line of space separated column specs.';
  if (lines.length < 1) throw new CustomColumnsError(`invalid template, missing header line. ${format}`);
  if (lines.length < 2) throw new CustomColumnsError(`invalid template, missing spec line. ${format}`);
  const headers = words(lines[0]!);
  const specs = words(lines[1]!);
  if (headers.length !== specs.length)
    throw new CustomColumnsError(
      `number of headers (${headers.length}) and field specifications (${specs.length}) don't match`,
    );
  return headers.map((header, i) => ({ header, fieldSpec: relaxedJsonPath(specs[i]!) }));
}

// bufio.ScanLines: lines end at \n, a \r before it is dropped, and a last line without \n counts when not empty.
function scanLines(text: string): string[] {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (text.endsWith('\n') || text === '') lines.pop();
  return lines;
}

// bufio.ScanWords splits on Unicode white space.
function words(line: string): string[] {
  return line.split(/\s+/u).filter((w) => w !== '');
}

/**
 * The printer's output for these objects: the header line (unless noHeaders), then a line per object, laid out by
 * kubectl's tab writer (minwidth 6, padding 3). A cell is every value the path finds, fmt.Sprint'ed and joined with
 * `,`, or `<none>` when it finds nothing. Cells are not cut at a line break, as kubectl does not cut them. A path
 * that fails on an object ends the output there, with client-go's error beside what was printed before it.
 */
export function printCustomColumns(
  columns: readonly CustomColumn[],
  objects: readonly unknown[],
  options: { noHeaders: boolean },
): { text: string; error?: string } {
  const lines: string[] = options.noHeaders ? [] : [columns.map((c) => c.header).join('\t')];
  const layOut = () => (lines.length ? `${alignTabs(lines.join('\n'), 3, 6)}\n` : '');
  let templates;
  try {
    templates = columns.map((c) => parseJsonPath(c.fieldSpec));
  } catch (err) {
    if (err instanceof JsonPathSyntaxError) return { text: layOut(), error: err.message };
    throw err;
  }
  for (const object of objects) {
    const cells: string[] = [];
    for (const template of templates) {
      let results;
      try {
        results = findJsonPathResults(template, object, { allowMissingKeys: true });
      } catch (err) {
        if (err instanceof JsonPathExecutionError) return { text: layOut(), error: err.message };
        throw err;
      }
      const values = [...(results[0]?.length ? [] : ['<none>']), ...results.flat().map(goSprint)];
      // kubectl escapes ESC and CR but lets a tab or newline through to its tab writer, which splits the line there.
      cells.push(terminalSafe(values.join(','), { multiline: true }));
    }
    lines.push(cells.join('\t'));
  }
  return { text: layOut() };
}
