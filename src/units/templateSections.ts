/** What helm's sorter reads of a rendered document (releaseutil.SimpleHead), and its first line as helm printed it. */
export interface RenderedHead {
  kind?: string;
  apiVersion?: string;
  name?: string;
  /** Carries a `helm.sh/hook` annotation: helm prints it after every ordinary object. */
  hook: boolean;
  firstLine: string;
}

/** A `---`-separated part of a template's text and what it writes literally (undefined: templated, or not there). */
interface Section {
  /** 1-based lines of the template file, with the actions open at each line's start. */
  lines: { line: number; text: string; depth: number }[];
  kind?: string;
  apiVersion?: string;
  name?: string;
  /** Undefined where the text cannot tell: the annotation written by an action, or only under a condition. */
  hook: boolean | undefined;
}

/**
 * The line of a template file at which each of its rendered documents starts (pure), or undefined where the text
 * cannot tell: `helm template` prints a template's documents sorted by kind, its hooks after all ordinary objects
 * (releaseutil.SortManifests: a stable sort, so documents of one kind and hookness keep their order), so a
 * document's place in the output does not give its place in the file. `docs` are the template's documents in helm's
 * output order. Each is matched to a section of the file by its literal kind, apiVersion, hookness and name, in order
 * among equal candidates; a template whose documents come from a loop or a templated kind, or whose documents more
 * than one choice of sections would fit, gives undefined.
 */
export function placeRenderedDocuments(template: string, docs: readonly RenderedHead[]): number[] | undefined {
  const sections = sectionsOf(template);
  if (!sections) return undefined;
  const out: number[] = new Array(docs.length);
  const taken = new Set<Section>();
  const groups = new Map<string, number[]>();
  for (const [i, d] of docs.entries()) {
    if (d.kind === undefined) return undefined;
    const key = `${d.hook}\n${d.kind}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  }
  for (const indexes of groups.values()) {
    const first = docs[indexes[0]!]!;
    const candidates = sections.filter((s) => s.kind === first.kind && (s.hook ?? first.hook) === first.hook);
    const fits = (d: RenderedHead, s: Section) =>
      (s.apiVersion === undefined || s.apiVersion === d.apiVersion) && (s.name === undefined || s.name === d.name);
    // The earliest and the latest order-keeping matches bound every other: where they agree, the match is the only one.
    const earliest: number[] = [];
    for (let at = 0, k = 0; k < indexes.length; at++, k++) {
      while (at < candidates.length && !fits(docs[indexes[k]!]!, candidates[at]!)) at++;
      if (at >= candidates.length) return undefined;
      earliest.push(at);
    }
    for (let at = candidates.length - 1, k = indexes.length - 1; k >= 0; at--, k--) {
      while (at >= 0 && !fits(docs[indexes[k]!]!, candidates[at]!)) at--;
      if (at !== earliest[k]) return undefined;
      // A section the text cannot tell the hookness of is a candidate of both groups: it is taken by one at most.
      if (taken.has(candidates[at]!)) return undefined;
      taken.add(candidates[at]!);
      out[indexes[k]!] = startLine(candidates[at]!, docs[indexes[k]!]!.firstLine);
    }
  }
  return out;
}

/** Where in its section a document starts: at the line it printed first, else at the section's first written line. */
function startLine(section: Section, firstLine: string): number {
  const same = section.lines.find((l) => l.text.trimEnd() === firstLine.trimEnd());
  const written = section.lines.find((l) => l.text.trim() !== '' && !/^\s*\{\{.*\}\}\s*$/.test(l.text));
  return (same ?? written ?? section.lines[0]!).line;
}

const OPENS = new Set(['if', 'range', 'with', 'define', 'block']);
/** A `---` inside these can write a document more than once, or somewhere else than here. */
const REPEATS = new Set(['range', 'define', 'block']);

/**
 * The template's sections, or undefined when a `---` sits in a loop or a definition, or a section writes content
 * with no single literal `kind:` (pure).
 */
function sectionsOf(template: string): Section[] | undefined {
  const lines = template.split('\n');
  const parts: { line: number; text: string; depth: number }[][] = [[]];
  const stack: string[] = [];
  let inAction = false;
  for (const [i, text] of lines.entries()) {
    if (!inAction && /^---(\s.*)?$/.test(text)) {
      if (stack.some((s) => REPEATS.has(s))) return undefined;
      parts.push([]);
    } else parts.at(-1)!.push({ line: i + 1, text, depth: stack.length });
    const next = followActions(text, stack, inAction);
    if (next === undefined) return undefined;
    inAction = next;
  }
  const sections: Section[] = [];
  for (const part of parts) {
    const kinds = part.filter((l) => /^kind\s*:/.test(l.text));
    const written = part.some(
      (l) =>
        l.text.trim() !== '' &&
        !l.text.startsWith('#') &&
        !/^\s*\{\{-?\s*(\/\*|if\b|else\b|end\b|with\b|\$)/.test(l.text),
    );
    if (kinds.length === 0) {
      if (written) return undefined;
      continue;
    }
    const kind = kinds.length === 1 ? literal(kinds[0]!.text) : undefined;
    if (kind === undefined) return undefined;
    const apiVersions = part.filter((l) => /^apiVersion\s*:/.test(l.text));
    sections.push({
      lines: part,
      kind,
      ...(apiVersions.length === 1 && literal(apiVersions[0]!.text) !== undefined
        ? { apiVersion: literal(apiVersions[0]!.text)! }
        : {}),
      ...nameOf(part),
      hook: hookOf(part, kinds[0]!),
    });
  }
  return sections;
}

/**
 * Whether a section writes a `helm.sh/hook` annotation: literally, at as many open actions as its `kind:` line (so
 * whenever it renders); undefined where a condition holds the annotation, or where a line under `metadata:` or
 * `annotations:` is one action (`{{- include "x.hookAnnotations" . | nindent 4 }}`), which may write it.
 */
function hookOf(part: readonly { text: string; depth: number }[], kind: { depth: number }): boolean | undefined {
  const hooks = part.filter((l) => /^\s+["']?helm\.sh\/hook["']?\s*:/.test(l.text));
  if (hooks.some((l) => l.depth === kind.depth)) return true;
  if (hooks.length > 0) return undefined;
  const writes = part.some(
    (l, i) =>
      /^\s*\{\{.*\}\}\s*$/.test(l.text) &&
      !/^\s*\{\{-?\s*(\/\*|if\b|else\b|end\b|with\b|range\b|\$)/.test(l.text) &&
      /^\s*(metadata|annotations)\s*:\s*$/.test(keyAbove(part, i) ?? ''),
  );
  return writes ? undefined : false;
}

/** The key a line is written under: the nearest line above it of less indentation that is no action. */
function keyAbove(part: readonly { text: string }[], at: number): string | undefined {
  const indent = (t: string) => t.length - t.trimStart().length;
  const own = indent(part[at]!.text);
  for (let i = at - 1; i >= 0; i--) {
    const t = part[i]!.text;
    if (t.trim() === '' || t.trimStart().startsWith('{{') || t.trimStart().startsWith('#')) continue;
    if (indent(t) < own) return t;
  }
  return undefined;
}

/** A `key: value` line's value when the text writes it whole: unquoted, no comment, no template action in it. */
function literal(line: string): string | undefined {
  const raw = line
    .slice(line.indexOf(':') + 1)
    .replace(/\s+#.*$/, '')
    .trim();
  if (raw === '' || raw.includes('{{')) return undefined;
  const quoted = /^"([^"\\]*)"$|^'([^']*)'$/.exec(raw);
  return quoted ? (quoted[1] ?? quoted[2]!) : raw;
}

/** `metadata.name` when written literally, at the indentation of metadata's first key. */
function nameOf(part: readonly { text: string }[]): { name?: string } {
  const at = part.findIndex((l) => /^metadata\s*:\s*$/.test(l.text));
  if (at < 0) return {};
  let indent: number | undefined;
  for (const { text } of part.slice(at + 1)) {
    if (text.trim() === '' || text.trim().startsWith('#') || text.trim().startsWith('{{')) continue;
    const own = text.length - text.trimStart().length;
    if (own === 0) return {};
    indent ??= own;
    if (own !== indent) continue;
    if (/^\s+name\s*:/.test(text)) {
      const value = literal(text);
      return value === undefined ? {} : { name: value };
    }
  }
  return {};
}

/**
 * The template actions of one line followed (`{{ if }}` … `{{ end }}` onto `stack`), and whether the line ends inside
 * an action; undefined where an `end` closes nothing (text this reading does not follow).
 */
function followActions(text: string, stack: string[], inAction: boolean): boolean | undefined {
  let rest = text;
  if (inAction) {
    const close = rest.indexOf('}}');
    if (close < 0) return true;
    rest = rest.slice(close + 2);
  }
  for (let open = rest.indexOf('{{'); open >= 0; open = rest.indexOf('{{')) {
    const close = rest.indexOf('}}', open + 2);
    const body = rest
      .slice(open + 2, close < 0 ? undefined : close)
      .replace(/^-\s*/, '')
      .trimStart();
    const word = /^[a-z]+/.exec(body)?.[0];
    if (word !== undefined && OPENS.has(word)) stack.push(word);
    else if (word === 'end' && stack.pop() === undefined) return undefined;
    if (close < 0) return true;
    rest = rest.slice(close + 2);
  }
  return false;
}
