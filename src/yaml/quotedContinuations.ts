/**
 * go-yaml (kubectl's reader, a port of libyaml) and PyYAML take a quoted scalar whose continuation lines are indented
 * no deeper than its key, as hand-wrapped values often are:
 *
 *     message: 'a long
 *     sentence'
 *
 * The YAML spec, and so the yaml library, wants them indented past the key. A quoted scalar drops the leading white
 * space of each continuation line, so indenting those lines further changes no value: this gives the text with each
 * such line indented one column past the start of its entry (the key, or the list item), line numbers kept, or
 * undefined when no line was moved, a document marker interrupts the scalar (both readers refuse that too), or the
 * text would more than double (a pull request's file must not make the reader allocate without bound). Block scalars
 * (`|`, `>`) are passed over.
 */
export function indentQuotedContinuations(text: string): string | undefined {
  return liftContinuations(text, 'quote');
}

/**
 * The text with the continuation lines of each `kind` of construct opened in block context lifted one column past its
 * entry (see indentQuotedContinuations and indentFlowContinuations), or undefined when no line moved, a document
 * marker interrupts one, or the text would more than double.
 */
function liftContinuations(text: string, kind: 'quote' | 'flow'): string | undefined {
  const lines = text.split('\n');
  let added = 0;
  let blockIndent = -1; // inside a block scalar: lines indented deeper than this belong to it
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const indent = leadingSpaces(line);
    if (blockIndent >= 0) {
      if (indent === line.length || indent > blockIndent) continue;
      blockIndent = -1;
    }
    const opening = openingOf(line, indent);
    if (opening === undefined) continue;
    if (opening.kind === 'block scalar') {
      blockIndent = indent;
      continue;
    }
    if (opening.kind !== kind) continue;
    // Whether the construct goes on past the line just read: a quoted scalar until its quote closes, a flow collection
    // until its brackets do.
    let flow: FlowState = { depth: 0 };
    const openAfter = (read: string, from: number): boolean => {
      if (opening.kind === 'quote') return closingQuote(read, from, opening.quote) === undefined;
      flow = scanFlow(read, from, flow);
      return flow.depth > 0 || flow.quote !== undefined;
    };
    const target = opening.entryColumn + 1;
    let open = opening.kind === 'quote' || openAfter(line, opening.at);
    while (open && i + 1 < lines.length) {
      i++;
      const next = lines[i]!;
      if (/^(---|\.\.\.)(\s|$)/.test(next)) return undefined;
      const lead = leadingSpaces(next);
      if (lead < next.length && next[lead] !== '\t' && lead < target) {
        added += target - lead;
        if (added > text.length) return undefined;
        lines[i] = ' '.repeat(target - lead) + next;
      }
      open = openAfter(lines[i]!, opening.kind === 'quote' ? leadingSpaces(lines[i]!) : 0);
    }
  }
  return added > 0 ? lines.join('\n') : undefined;
}

function leadingSpaces(line: string): number {
  let n = 0;
  while (n < line.length && line.charCodeAt(n) === 32) n++;
  return n;
}

/**
 * What starts on this line in block context (a value after `key:` or `-`, or a key) and may go on past it: a quoted
 * scalar not closed on the line (its quote), or a flow collection (where its bracket is), each with the column its
 * entry starts at. Or a block scalar's header (`key: |`), whose lines are not YAML to look into.
 */
function openingOf(
  line: string,
  indent: number,
):
  | { kind: 'quote'; quote: string; entryColumn: number }
  | { kind: 'flow'; at: number; entryColumn: number }
  | { kind: 'block scalar' }
  | undefined {
  let at = indent;
  if (line[at] === '#') return undefined;
  while (line[at] === '-' && (line[at + 1] === ' ' || at + 1 === line.length)) at = skipSpaces(line, at + 1);
  const entryColumn = at;
  for (let entries = 0; entries < 2 && at < line.length; entries++) {
    const c = line[at];
    if (c === '|' || c === '>') return { kind: 'block scalar' };
    if (c === '[' || c === '{') return { kind: 'flow', at, entryColumn };
    if (c === "'" || c === '"') {
      const end = closingQuote(line, at + 1, c);
      if (end === undefined) return { kind: 'quote', quote: c, entryColumn };
      // A quoted key: its value follows the colon.
      const after = skipSpaces(line, end + 1);
      if (line[after] !== ':') return undefined;
      at = skipSpaces(line, after + 1);
      continue;
    }
    // A plain key up to `: ` (or `:` at the line's end); a comment ends the search.
    const colon = plainKeyEnd(line, at);
    if (colon === undefined) return undefined;
    at = skipSpaces(line, colon + 1);
  }
  return undefined;
}

function skipSpaces(line: string, at: number): number {
  while (line[at] === ' ') at++;
  return at;
}

function plainKeyEnd(line: string, at: number): number | undefined {
  const c = line[at];
  if (c === undefined || c === '{' || c === '[' || c === '&' || c === '*' || c === '!' || c === '#') return undefined;
  for (let k = at; k < line.length; k++) {
    if (line[k] === '#' && line[k - 1] === ' ') return undefined;
    if (line[k] === ':' && (k + 1 === line.length || line[k + 1] === ' ')) return k;
  }
  return undefined;
}

/** The column of the quote that closes a scalar, scanning from `from`; undefined when the line ends first. */
function closingQuote(line: string, from: number, quote: string): number | undefined {
  for (let k = from; k < line.length; k++) {
    const c = line[k];
    if (quote === '"') {
      if (c === '\\') {
        k++;
        continue;
      }
      if (c === '"') return k;
    } else if (c === "'") {
      if (line[k + 1] === "'") {
        k++;
        continue;
      }
      return k;
    }
  }
  return undefined;
}

/**
 * go-yaml (kubectl's reader, as libyaml) checks no indentation inside a flow collection, so a chart's `command: [
 * "/bin/sh",` continued on lines no deeper than its key (stable/minio's deployment, as `helm template` prints it) is
 * read as a list; the YAML spec, and so the yaml library, wants those lines indented past the key. Indenting them
 * changes no value (a flow collection's line breaks and leading white space, in quoted and plain scalars alike, fold
 * away): this gives the text with each such line indented one column past the start of the collection's entry, line
 * numbers kept, or undefined when no line was moved, a document marker interrupts the collection, or the text would
 * more than double.
 */
export function indentFlowContinuations(text: string): string | undefined {
  return liftContinuations(text, 'flow');
}

interface FlowState {
  /** Brackets open. */
  depth: number;
  /** The quote of a scalar open at the line's end. */
  quote?: string;
}

/** The flow state after a line, from `from` (pure): brackets, quoted scalars and a comment, which ends the line. */
function scanFlow(line: string, from: number, state: FlowState): FlowState {
  let { depth, quote } = state;
  // Where a scalar may start: a quote there opens a quoted one; elsewhere (`it's`) it is a character of a plain one.
  let tokenStart = true;
  for (let k = from; k < line.length; k++) {
    const c = line[k]!;
    if (quote !== undefined) {
      const end = closingQuote(line, k, quote);
      if (end === undefined) return { depth, quote };
      k = end;
      quote = undefined;
      tokenStart = false;
      continue;
    }
    if (c === ' ' || c === '\t') {
      if (line[k + 1] === '#') return { depth };
      continue;
    }
    if (c === '#' && k === from && from === 0) return { depth };
    if ((c === '"' || c === "'") && tokenStart) {
      quote = c;
      continue;
    }
    if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth <= 0) return { depth: 0 };
    }
    tokenStart = c === '[' || c === '{' || c === ',' || c === ':' || c === '?' || c === '-';
    if (tokenStart && c !== '[' && c !== '{' && c !== ',' && line[k + 1] !== ' ' && k + 1 < line.length)
      tokenStart = false;
  }
  return { depth };
}
