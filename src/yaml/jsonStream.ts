/**
 * kubectl decides how to read a manifest file by its first character (apimachinery's YAMLOrJSONDecoder): when the
 * first one that is not white space (Go's unicode.IsSpace, which a byte order mark is not) is `{`, the file is a
 * stream of JSON values, one object after another with only JSON white space, or nothing, between them; that is what
 * `kubectl create --dry-run=client -o json` of several objects writes. YAML has no such stream: `{…}{…}` is one
 * invalid document there.
 */

/** Go's unicode.IsSpace: the characters kubectl skips before it looks for `{`. */
const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/;

/** One top-level value of a JSON stream: its text is `text.slice(start, end)`. */
export interface JsonStreamValue {
  start: number;
  end: number;
}

/**
 * The values of a text kubectl reads as a JSON stream holding more than one, in order (pure); undefined when kubectl
 * would not read it as one (no leading `{`), or any part is not JSON, or it holds a single value: such a text is
 * also the YAML document it reads as (newer kubectl reads it as YAML when JSON fails before a second value).
 */
export function splitJsonStream(text: string): JsonStreamValue[] | undefined {
  const first = GO_SPACE.exec(text)![0].length;
  if (text.charCodeAt(first) !== 0x7b /* { */) return undefined;
  const values: JsonStreamValue[] = [];
  for (let i = first; i < text.length; ) {
    const end = valueEnd(text, i);
    if (end === undefined) return undefined;
    values.push({ start: i, end });
    i = skipJsonSpace(text, end);
  }
  // Parsed only once there are several: a single object (every .json manifest) is read as YAML either way.
  if (values.length < 2) return undefined;
  for (const { start, end } of values) {
    try {
      JSON.parse(text.slice(start, end));
    } catch {
      return undefined;
    }
  }
  return values;
}

/** One value of a JSON stream as a text of its own, and how to move a position in that text back into the stream. */
export interface JsonStreamPart {
  text: string;
  /** A 1-based line and column in `text` as the same place in the stream. */
  place<T extends { line: number; column: number }>(at: T): T;
}

/** splitJsonStream's values as texts of their own (each ending in a line break, as a file read by kubectl does). */
export function jsonStreamParts(text: string): JsonStreamPart[] | undefined {
  const values = splitJsonStream(text);
  if (!values) return undefined;
  let lines = 0;
  let counted = 0;
  return values.map(({ start, end }) => {
    for (let i = text.indexOf('\n', counted); i >= 0 && i < start; i = text.indexOf('\n', i + 1)) lines++;
    counted = start;
    const lineOffset = lines;
    const columnOffset = start - (text.lastIndexOf('\n', start - 1) + 1);
    return {
      text: `${text.slice(start, end)}\n`,
      place: (at) => ({
        ...at,
        line: at.line + lineOffset,
        column: at.line === 1 ? at.column + columnOffset : at.column,
      }),
    };
  });
}

/** JSON's own white space, all Go's json.Decoder skips between values. */
function skipJsonSpace(text: string, from: number): number {
  let i = from;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
  }
  return i;
}

/** Where the value starting at `start` ends: after its closing bracket, string quote or last literal character. */
function valueEnd(text: string, start: number): number | undefined {
  const c = text[start];
  if (c === '"') return stringEnd(text, start);
  if (c !== '{' && c !== '[') {
    const literal = /[-+.\w]+/y;
    literal.lastIndex = start;
    return literal.test(text) ? literal.lastIndex : undefined;
  }
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      const end = stringEnd(text, i);
      if (end === undefined) return undefined;
      i = end - 1;
    } else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}

function stringEnd(text: string, start: number): number | undefined {
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === '"') return i + 1;
    else if (ch === '\n') return undefined;
  }
  return undefined;
}
