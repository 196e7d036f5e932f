import { parseDocument } from 'yaml';
import { GO_YAML_PARSE_OPTIONS } from '../yaml/goYamlSchema.ts';

/** helm's words for a rendered template that is not YAML: the template, and the line within its failing document. */
const YAML_PARSE_ERROR = /YAML parse error on (\S+): error converting YAML to JSON: yaml: line (\d+):/;

/** The template (as helm names it, `<chart>/templates/x.yaml`) and line helm's YAML parse error names, if it is one. */
export function yamlParseError(stderr: string): { source: string; line: number } | undefined {
  const m = YAML_PARSE_ERROR.exec(stderr);
  return m ? { source: m[1]!, line: Number(m[2]) } : undefined;
}

/**
 * What `helm template --debug` printed for one template when its rendering was not YAML (pure): on that error helm
 * prints every rendered file as `---\n# Source: <name>\n<text>\n` (action.renderResources), in no set order.
 */
export function debugRendering(stdout: string, source: string): string | undefined {
  const header = `---\n# Source: ${source}\n`;
  // Found at the start, or after a newline (0 again when not found at all).
  const start = stdout.startsWith(header) ? 0 : stdout.indexOf(`\n${header}`) + 1;
  if (start === 0 && !stdout.startsWith(header)) return undefined;
  const body = start + header.length;
  const next = stdout.indexOf('\n---\n# Source: ', body - 1);
  // helm ends each file with a newline of its own.
  return stdout.slice(body, next < 0 ? undefined : next).replace(/\n$/, '');
}

/** Go's strings.TrimSpace and regexp `\s` both take these as white space (the ASCII ones, as templates write them). */
const SPACE = '\\t\\n\\v\\f\\r ';

/**
 * The line of the rendered template helm's YAML error is at (pure): helm splits a rendered template into documents as
 * releaseutil.SplitManifests does (the text trimmed, split at `(?:^|\s*\n)---\s*`, each document trimmed) and reads
 * them one by one, so its `line N` counts from the first line of the document that failed (N is one past its last
 * line when the error is at its end: its last line is given). That document is the first one this YAML reader refuses
 * too and that has N lines, or N - 1; where none does, the only one that long. Undefined where neither tells.
 */
export function renderedErrorLine(rendered: string, documentLine: number): number | undefined {
  const lead = new RegExp(`^[${SPACE}]*`).exec(rendered)![0];
  const text = rendered.slice(lead.length).replace(new RegExp(`[${SPACE}]+$`), '');
  const sep = new RegExp(`(?:^|[${SPACE}]*\\n)---[${SPACE}]*`, 'g');
  const docs: { text: string; line: number }[] = [];
  const add = (from: number, to: number) => {
    const raw = text.slice(from, to);
    const skipped = new RegExp(`^[${SPACE}]*`).exec(raw)![0];
    const offset = lead.length + from + skipped.length;
    docs.push({ text: raw.slice(skipped.length).trimEnd(), line: rendered.slice(0, offset).split('\n').length });
  };
  let from = 0;
  for (const m of text.matchAll(sep)) {
    add(from, m.index!);
    from = m.index! + m[0].length;
  }
  add(from, text.length);
  // go-yaml names the line after a document's last when it found the error at its end.
  const long = docs.filter((d) => d.text !== '' && d.text.split('\n').length >= documentLine - 1);
  const refused = long.find((d) => parseDocument(d.text, GO_YAML_PARSE_OPTIONS).errors.length > 0);
  const doc = refused ?? (long.length === 1 ? long[0] : undefined);
  return doc === undefined ? undefined : doc.line + Math.min(documentLine, doc.text.split('\n').length) - 1;
}

/**
 * The line of the committed template a line of its rendering comes from (pure): the nearest line at or above it whose
 * text the template holds once, literally, and as many lines below that as the rendering has; where no such line is
 * found, the same line number, as a template that renders line for line has it.
 */
export function committedLine(committed: string, rendered: string, line: number): number {
  const own = committed.split('\n');
  const out = rendered.split('\n');
  const places = new Map<string, number[]>();
  for (const [i, t] of own.entries()) {
    const key = t.trimEnd();
    if (key.trim() === '') continue;
    places.set(key, [...(places.get(key) ?? []), i + 1]);
  }
  for (let at = Math.min(line, out.length); at >= 1; at--) {
    const found = places.get(out[at - 1]!.trimEnd());
    if (found?.length === 1) return Math.min(found[0]! + (line - at), own.length);
  }
  return Math.max(1, Math.min(line, own.length));
}
