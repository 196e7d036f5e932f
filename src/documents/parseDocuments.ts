import { isMap, isScalar, LineCounter, parseAllDocuments, type Document } from 'yaml';
import type { Problem, SourceSpan } from '../errors/problem.ts';
import { parseBlockYaml } from '../yaml/blockYaml.ts';
import { documentValue, DocumentValueError, type DuplicateKey } from '../yaml/documentValue.ts';
import { GO_YAML_PARSE_OPTIONS } from '../yaml/goYamlSchema.ts';
import { utf8FromUtf16 } from '../text/utf16Text.ts';
import { maxNesting } from '../yaml/maxNesting.ts';
import { indentFlowContinuations, indentQuotedContinuations } from '../yaml/quotedContinuations.ts';
import { jsonStreamParts, type JsonStreamPart } from '../yaml/jsonStream.ts';

/** One YAML document of a source file, as plain data plus where it came from. */
export interface SourceDocument {
  /** The parsed value: an object for anything Flotilla can use. */
  value: unknown;
  source: SourceSpan;
  /** Index of the document within its file (0-based), for messages and identity. */
  index: number;
  /**
   * Line/column of a field inside this document, for problems found by later checks: its value's, or with `key`,
   * its key's (a field that should not be there at all).
   */
  locate(path: readonly (string | number)[], at?: 'key'): SourceSpan;
}

export interface ParseLimits {
  /**
   * Files larger than this are rejected whole. Default 16 MiB: one-file installs with their CRDs reach a few MiB
   * (prometheus-operator's bundle.yaml 4.5 MiB, Argo CD's install.yaml 1.9 MiB); a manifest far beyond is a mistake.
   */
  maxFileBytes: number;
  /** Alias expansions per document before it counts as an alias bomb. Default 1,000. */
  maxAliasCount: number;
  /** Nesting depth of flow/block collections. Default 64. */
  maxDepth: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = { maxFileBytes: 16 * 1024 * 1024, maxAliasCount: 1000, maxDepth: 64 };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Duplicate-key warnings said one by one per document; the rest in one line. */
const MAX_DUPLICATE_WARNINGS = 10;

/**
 * Parses every document of one file. Never throws for bad input: a file that cannot be read as YAML
 * yields problems and no documents, so the caller can keep what the file rendered last time.
 */
export function parseDocuments(
  file: string,
  bytes: Uint8Array,
  limits: ParseLimits = DEFAULT_PARSE_LIMITS,
): { documents: SourceDocument[]; problems: Problem[] } {
  // Past the limit the file is refused for its size as stored, never transcoded.
  const utf16 = bytes.length <= limits.maxFileBytes ? utf8FromUtf16(bytes) : undefined;
  if (utf16 && 'invalidAt' in utf16)
    return placesIn(file).fail(
      'FILE_NOT_TEXT',
      `the file starts with a UTF-16 byte order mark but is not UTF-16 from byte ${utf16.invalidAt}`,
      'save the file as UTF-8 (or as UTF-16 whole)',
    );
  if (utf16) bytes = utf16.bytes;
  if (!/\.json$/i.test(file)) return parseText(file, bytes, limits);
  // Only JSON that names an apiVersion and a kind is read at all: a tsconfig.json with comments is no broken manifest.
  const text = new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.length, limits.maxFileBytes)));
  if (!/"apiVersion"\s*:/.test(text) || !/"kind"\s*:/.test(text)) return { documents: [], problems: [] };
  return jsonManifests(parseText(file, bytes, limits));
}

/**
 * A `.json` file is a manifest as kubectl reads one (`kubectl apply -f dir` takes .json beside .yaml) when it holds
 * Kubernetes objects; a repository's other JSON (package.json, a dashboard, renovate.json) holds none, and is passed
 * over as a file of another kind would be, rather than refused. JSON is read as the YAML it also is.
 */
function jsonManifests(parsed: { documents: SourceDocument[]; problems: Problem[] }): {
  documents: SourceDocument[];
  problems: Problem[];
} {
  if (parsed.problems.some((p) => p.severity === 'error') && parsed.documents.length === 0) return parsed;
  const isObject = (v: unknown) => {
    const o = v as { apiVersion?: unknown; kind?: unknown } | null;
    return typeof o === 'object' && o !== null && typeof o.apiVersion === 'string' && typeof o.kind === 'string';
  };
  // kubectl refuses a JSON array of objects ("cannot unmarshal array"), so it is a manifest refused, not passed over.
  const held = (v: unknown) => isObject(v) || (Array.isArray(v) && v.some(isObject));
  return parsed.documents.some((d) => held(d.value)) ? parsed : { documents: [], problems: [] };
}

/** Where in `file` a problem is (`at`), and a parse that failed with one problem there (`fail`). */
function placesIn(file: string) {
  const at = (line = 1, column = 1): SourceSpan => ({ file, line, column });
  const fail = (code: Problem['code'], message: string, fix: string, span = at()) => ({
    documents: [] as SourceDocument[],
    problems: [{ ...span, code, severity: 'error' as const, message, fix }],
  });
  return { at, fail };
}

function parseText(
  file: string,
  bytes: Uint8Array,
  limits: ParseLimits,
): { documents: SourceDocument[]; problems: Problem[] } {
  const { at, fail } = placesIn(file);

  if (bytes.length > limits.maxFileBytes) {
    return fail(
      'FILE_TOO_LARGE',
      `file is ${formatBytes(bytes.length)}, over the ${formatBytes(limits.maxFileBytes)} limit`,
      'split it into smaller files, or list it in .flotillaignore if it is not a manifest',
    );
  }
  if (bytes.includes(0)) {
    return fail(
      'FILE_NOT_TEXT',
      'file contains NUL bytes: it is binary, not YAML',
      'remove it or rename it so it does not end in .yaml/.yml, or list it in .flotillaignore',
    );
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    const { line, column } = lineColOfByte(bytes, offset);
    return fail('FILE_NOT_TEXT', `invalid UTF-8 at byte ${offset}`, 'save the file as UTF-8', at(line, column));
  }
  const bom = text.charCodeAt(0) === 0xfeff;
  if (bom) text = text.slice(1);
  // kubectl reads a file line by line and ends every line with \n, the last one too: a `|` block at the end of
  // a file without a final newline keeps its line break there, and so it does here.
  if (text.length > 0 && !text.endsWith('\n')) text += '\n';

  const source = sourceFormat(file);
  if (source) return fail('YAML_TEMPLATE', source.message, source.fix);
  // What a checkout with git-lfs replaces by the file; a render reads the commit's objects, which hold the pointer.
  if (text.startsWith('version https://git-lfs.github.com/spec/v1\n'))
    return fail(
      'FILE_NOT_TEXT',
      'this is a Git LFS pointer: the manifest itself is in LFS storage, which a render does not read (it reads the commit)',
      'commit the file itself: stop tracking it with LFS (`git lfs untrack` and `git add --renormalize` on it), or list it in .flotillaignore',
    );

  const depth = maxNesting(text);
  if (depth > limits.maxDepth) {
    return fail(
      'YAML_TOO_COMPLEX',
      `nesting is ${depth} levels deep, over the limit of ${limits.maxDepth}`,
      'flatten the document; no Kubernetes manifest needs that depth',
    );
  }

  const separator = kubectlSeparatorProblem(text);
  if (separator) return fail('YAML_SYNTAX', separator.message, separator.fix, at(separator.line, 1));

  const stream = bom ? undefined : jsonStreamParts(text);
  if (stream) return jsonStreamDocuments(file, stream, limits);
  return parseYaml(file, text, limits);
}

/** Each value of a JSON stream read as the one-document file it would be on its own, at its place in the stream. */
function jsonStreamDocuments(
  file: string,
  parts: JsonStreamPart[],
  limits: ParseLimits,
): { documents: SourceDocument[]; problems: Problem[] } {
  const documents: SourceDocument[] = [];
  const problems: Problem[] = [];
  for (const part of parts) {
    const parsed = parseYaml(file, part.text, limits);
    problems.push(...parsed.problems.map((p) => part.place(p)));
    for (const doc of parsed.documents)
      documents.push({
        value: doc.value,
        index: documents.length,
        source: part.place(doc.source),
        locate: (path, at) => part.place(doc.locate(path, at)),
      });
  }
  return { documents, problems };
}

function parseYaml(
  file: string,
  text: string,
  limits: ParseLimits,
): { documents: SourceDocument[]; problems: Problem[] } {
  const { at, fail } = placesIn(file);
  // Most manifests are plain block YAML, read by a reader several times faster than the library; the library
  // reads the rest, and is asked for field positions only when a later check reports a problem.
  const block = parseBlockYaml(text);
  if (block) {
    const locate = lazyLocator(file, text);
    const documents: SourceDocument[] = [];
    block.forEach((doc, index) => {
      if (doc.value === null) return; // an empty document (`---` alone, a trailing `---`): nothing, as for kubectl
      const source = at(doc.line, doc.column);
      documents.push({ value: doc.value, index, source, locate: (path, at) => locate(index, path, at) ?? source });
    });
    return kustomizeProblem(file, documents) ?? { documents, problems: [] };
  }

  const { docs, spanAt } = libraryParse(file, text);
  const documents: SourceDocument[] = [];
  const problems: Problem[] = [];
  if (!Array.isArray(docs)) {
    // An EmptyStream: a file of comments only. Nothing to render, nothing wrong.
    return { documents, problems };
  }
  docs.forEach((doc, index) => {
    const firstError = doc.errors[0];
    if (firstError) {
      // As kubectl, the first error of a document: the ones after it are mostly that error seen again.
      const more = doc.errors.length - 1;
      problems.push({
        ...spanAt(firstError.pos[0]),
        code: 'YAML_SYNTAX',
        severity: 'error',
        message: `${firstLine(firstError.message)}${more > 0 ? ` (and ${more} more error${more > 1 ? 's' : ''} after it in this document, most caused by this one)` : ''}`,
        fix: yamlFix(firstError.code),
      });
      return;
    }
    if (doc.contents === null) return; // empty document between `---` separators
    let value: unknown;
    const duplicates: DuplicateKey[] = [];
    try {
      // What aliases copy counts against the file's own limit: the document is never larger than a file could be.
      value = documentValue(doc, limits.maxAliasCount, duplicates, limits.maxFileBytes);
    } catch (err) {
      if (!(err instanceof DocumentValueError)) throw err;
      const span = err.code === 'YAML_TOO_COMPLEX' ? spanAt(doc.range[0]) : spanAt(err.offset);
      problems.push({
        ...span,
        code: err.code,
        severity: 'error',
        message: err.code === 'YAML_TOO_COMPLEX' ? `document ${index + 1}: ${err.message}` : err.message,
        fix: err.fix,
      });
      return;
    }
    // A document setting thousands of keys twice is said in a few lines, not thousands.
    for (const d of duplicates.slice(0, MAX_DUPLICATE_WARNINGS))
      problems.push({
        ...spanAt(d.offset),
        code: 'YAML_DUPLICATE_KEY',
        severity: 'warning',
        message: `the key \`${d.key}\` is set twice in this mapping (first at line ${spanAt(d.firstOffset).line}): kubectl keeps the last value, and so does Flotilla; the first is lost`,
        fix: 'remove one of the two keys (YAML 1.1 reads yes/on/y and true alike, so those count as one key)',
      });
    if (duplicates.length > MAX_DUPLICATE_WARNINGS)
      problems.push({
        ...spanAt(duplicates[MAX_DUPLICATE_WARNINGS]!.offset),
        code: 'YAML_DUPLICATE_KEY',
        severity: 'warning',
        message: `and ${duplicates.length - MAX_DUPLICATE_WARNINGS} more keys set twice in this document, from here on: each keeps its last value`,
        fix: 'remove the repeated keys',
      });
    if (value === null) return; // an empty document, as above
    const start = doc.contents.range?.[0] ?? doc.range[0];
    documents.push({
      value,
      index,
      source: spanAt(start),
      locate: (path, at) => locateIn(doc, path, spanAt, start, at),
    });
  });
  if (problems.some((p) => p.severity === 'error')) {
    // Template syntax in a file that is not YAML: one problem that says what the file is, not the parser's dozens.
    // Warnings (a key set twice) leave a file YAML, `{{ }}` in its strings (a Grafana dashboard) or not.
    const template = helmTemplateLine(text);
    if (template) {
      return fail(
        'YAML_TEMPLATE',
        `this is a Helm template ({{ … }} on line ${template}), not a manifest: it is YAML only once Helm renders it`,
        HELM_FIX,
        at(template, 1),
      );
    }
  }
  return kustomizeProblem(file, documents) ?? { documents, problems };
}

/**
 * kubectl splits a file into documents before any YAML is parsed (apimachinery's YAMLReader): at every line that
 * starts with `---`, refusing the file when anything but a comment follows on that line; and go-yaml then reads
 * only the first document of each part, so what follows a `...` up to the next `---` is silently dropped. Both
 * are refused here, so a file means the same to Flotilla and to kubectl.
 */
function kubectlSeparatorProblem(text: string): { line: number; message: string; fix: string } | undefined {
  let ended: number | undefined; // the line of a `...` whose part has not reached a `---` yet
  // Whether the part so far holds anything but blank and comment lines: one whose first such line is `...` is a
  // document end with no document, which go-yaml refuses ("did not find expected node content"), and so kubectl.
  let content = false;
  for (let start = 0, line = 1; start < text.length; line++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const c = text.charCodeAt(start);
    if (c === 45 /* - */ && text.startsWith('---', start)) {
      const rest = text.slice(start + 3, end).trim();
      if (rest !== '' && !rest.startsWith('#')) {
        return {
          line,
          message: `kubectl refuses a document separator with content after it (\`${text.slice(start, end).trimEnd()}\`)`,
          fix: 'put `---` on a line of its own and the content on the next line',
        };
      }
      ended = undefined;
      content = false;
    } else if (
      c === 46 /* . */ &&
      text.startsWith('...', start) &&
      /^\.\.\.(?:[ \t]+(?:#.*)?)?$/.test(text.slice(start, end))
    ) {
      if (!content)
        return {
          line,
          message: 'kubectl refuses a `...` document end before any document (did not find expected node content)',
          fix: 'remove the `...` line, or put it after the document it ends',
        };
      ended ??= line;
    } else if (!content && c === 37 /* % */) {
      // A directive belongs to the `---` after it, but kubectl splits the file there first: the directive is left
      // in a part of its own, which go-yaml refuses ("did not find expected <document start>").
      return {
        line,
        message: `kubectl refuses a YAML directive (\`${text.slice(start, end).trimEnd()}\`): it splits the file at \`---\` before reading it, which leaves the directive without its document`,
        fix: 'remove the directive line; kubectl reads every file as YAML 1.1 anyway',
      };
    } else if (!content && !/^\s*(?:#.*)?$/.test(text.slice(start, end))) {
      content = true;
    } else if (ended !== undefined && !/^\s*(?:#.*)?$/.test(text.slice(start, end))) {
      return {
        line: ended,
        message: 'kubectl reads nothing after a `...` document end until the next `---`, and would drop what follows',
        fix: 'replace the `...` with `---` to start a new document, or remove it',
      };
    }
    start = end + 1;
  }
  return undefined;
}

// A chart or kustomization in a folder of its own is rendered as a unit (src/units/): its files never reach this
// parser. What does is one at the repository's root, or a template or kustomization outside such a folder.
const HELM_FIX =
  'keep the chart in a folder of its own (not the repository root) with its Chart.yaml: Flotilla renders that folder with helm template; or list it in .flotillaignore';
const KUSTOMIZE_FIX =
  'name it kustomization.yaml in a folder of its own (not the repository root): Flotilla renders that folder with kustomize; or list it in .flotillaignore';

/** Files that are a Helm chart's or Kustomize's by their name alone; the manifests they stand for are not in them. */
function sourceFormat(file: string): { message: string; fix: string } | undefined {
  const name = file.slice(file.lastIndexOf('/') + 1);
  if (/^kustomization\.ya?ml$/i.test(name))
    return { message: 'this is a Kustomize kustomization, not a manifest', fix: KUSTOMIZE_FIX };
  if (name === 'Chart.yaml' || name === 'Chart.yml')
    return { message: "this is a Helm chart's Chart.yaml, not a manifest", fix: HELM_FIX };
  return undefined;
}

/** A Kustomization or Component (kustomize.config.k8s.io) under another file name: one problem at its first line. */
function kustomizeProblem(
  file: string,
  documents: SourceDocument[],
): { documents: SourceDocument[]; problems: Problem[] } | undefined {
  const doc = documents.find((d) => {
    const apiVersion = (d.value as { apiVersion?: unknown } | null)?.apiVersion;
    return typeof apiVersion === 'string' && apiVersion.startsWith('kustomize.config.k8s.io/');
  });
  if (!doc) return undefined;
  return {
    documents: [],
    problems: [
      {
        ...doc.source,
        file,
        code: 'YAML_TEMPLATE',
        severity: 'error',
        message: `document ${doc.index + 1} is a Kustomize ${(doc.value as { kind?: unknown }).kind ?? 'kustomization'}, not a manifest`,
        fix: KUSTOMIZE_FIX,
      },
    ],
  };
}

/** The 1-based line of the first `{{` outside a comment line, for a file that did not parse; undefined when none. */
function helmTemplateLine(text: string): number | undefined {
  let line = 1;
  for (let i = text.indexOf('{{'); i >= 0; i = text.indexOf('{{', i + 2)) {
    const lineStart = text.lastIndexOf('\n', i) + 1;
    if (text.slice(lineStart, i).trimStart().startsWith('#')) continue;
    for (let k = text.indexOf('\n'); k >= 0 && k < i; k = text.indexOf('\n', k + 1)) line++;
    return line;
  }
  return undefined;
}

function parseWithLibrary(file: string, text: string) {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, {
    ...GO_YAML_PARSE_OPTIONS,
    lineCounter,
    // kubectl (go-yaml v2) takes a key set twice, the last value winning: a warning, found on the way to JSON.
    uniqueKeys: false,
    prettyErrors: false,
    strict: true,
  });
  const spanAt = (offset: number): SourceSpan => {
    const pos = lineCounter.linePos(offset);
    return { file, line: pos.line, column: pos.col };
  };
  return { docs, spanAt };
}

/**
 * The library's parse, or where it finds errors, that of the text with under-indented continuation lines of flow
 * collections and quoted scalars indented (quotedContinuations.ts: the values kubectl reads) when that one has none. Line numbers are the same.
 */
function libraryParse(file: string, text: string): ReturnType<typeof parseWithLibrary> {
  const parsed = parseWithLibrary(file, text);
  if (!Array.isArray(parsed.docs) || !parsed.docs.some((d) => d.errors.length > 0)) return parsed;
  const flowed = indentFlowContinuations(text);
  const lenient = indentQuotedContinuations(flowed ?? text) ?? flowed;
  if (lenient === undefined) return parsed;
  const again = parseWithLibrary(file, lenient);
  return Array.isArray(again.docs) && again.docs.every((d) => d.errors.length === 0) ? again : parsed;
}

/** Field positions in a file the block reader took, from the library's parse of it, made on the first question. */
function lazyLocator(
  file: string,
  text: string,
): (index: number, path: readonly (string | number)[], at?: 'key') => SourceSpan | undefined {
  let parsed: ReturnType<typeof parseWithLibrary> | undefined;
  return (index, path, at) => {
    parsed ??= parseWithLibrary(file, text);
    const doc = Array.isArray(parsed.docs) ? parsed.docs[index] : undefined;
    if (!doc?.contents) return undefined;
    return locateIn(doc, path, parsed.spanAt, doc.contents.range?.[0] ?? doc.range[0], at);
  };
}

function locateIn(
  doc: Document,
  path: readonly (string | number)[],
  spanAt: (o: number) => SourceSpan,
  fallback: number,
  at?: 'key',
): SourceSpan {
  const last = path[path.length - 1];
  if (at === 'key' && typeof last === 'string') {
    const parent = doc.getIn(path.slice(0, -1), true);
    if (isMap(parent)) {
      const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === last);
      const range = isScalar(pair?.key) ? pair.key.range : undefined;
      if (range) return spanAt(range[0]);
    }
  }
  // Walk up to the deepest node that exists: a missing field is reported where its parent is.
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
    if (node && typeof node === 'object' && node.range) return spanAt(node.range[0]);
  }
  return spanAt(fallback);
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

function yamlFix(code: string): string {
  switch (code) {
    case 'DUPLICATE_KEY':
      return 'remove one of the two keys: YAML keeps only one and the other would be lost silently';
    case 'BAD_INDENT':
    case 'MISSING_CHAR':
    case 'UNEXPECTED_TOKEN':
      return 'check the indentation and quoting on this line (spaces, not tabs)';
    case 'TAB_AS_INDENT':
      return 'indent with spaces; YAML forbids tabs for indentation';
    default:
      return 'correct the YAML syntax at this position';
  }
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(n / 1024)} KiB`;
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  // Only called after the fatal decoder refused the file, to point at the first bad sequence.
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const len = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (len === 0 || i + len > bytes.length) return i;
    for (let k = 1; k < len; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += len;
  }
  return bytes.length;
}

function lineColOfByte(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let column = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      column = 1;
    } else column++;
  }
  return { line, column };
}
