import type { TreeEntry } from './types.ts';

/**
 * Parses a raw tree object body into its entries, keeping modes exactly as stored. The body is decoded twice
 * whole, as latin1 (one char per byte) and as hex, and each entry's fields are slices of those: decoding field by
 * field cost three calls into the runtime per entry, most of a sync's tree reading in a new process.
 */
export function parseTree(bytes: Uint8Array): TreeEntry[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buf.toString('latin1');
  const hex = buf.toString('hex');
  const entries: TreeEntry[] = [];
  let pos = 0;
  while (pos < text.length) {
    const space = text.indexOf(' ', pos);
    const nul = text.indexOf('\0', space + 1);
    if (space < 0 || nul < 0 || nul + 21 > text.length) throw new Error(`malformed tree object at byte ${pos}`);
    const name = text.slice(space + 1, nul);
    entries.push({
      mode: text.slice(pos, space),
      // Names are UTF-8: a latin1 slice is the name only when every byte is ASCII.
      ...(NOT_ASCII.test(name) ? decodedName(buf, space + 1, nul) : { name }),
      oid: hex.slice(2 * nul + 2, 2 * nul + 42),
    });
    pos = nul + 21;
  }
  return entries;
}

/** An entry of a raw tree body, where it starts (its mode) in that body, and where its 20 oid bytes start. */
export interface FoundEntry extends TreeEntry {
  start: number;
  oidAt: number;
}

/**
 * The entries of a raw tree body with the given names, without decoding the others: a lookup or an edit touches a
 * name or two of folders that list hundreds (namespaces, clusters, templates). With `checkOrder` (an edit that
 * patches the body in place), `inOrder` says every entry is in git's order and no name repeats, so the body is
 * exactly what renderTree would make of its entries; a lookup does not pay for that.
 */
export function findTreeEntries(
  raw: Uint8Array,
  names: ReadonlySet<string>,
  checkOrder = false,
): { entries: Map<string, FoundEntry>; inOrder: boolean } {
  const buf = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  // Names compared as latin1 (one char per byte): their order is the bytes' order, git's, and a wanted name is
  // found by its UTF-8 bytes spelled the same way.
  const text = buf.toString('latin1');
  const wanted = new Map(
    [...names].map((name) => [NOT_ASCII.test(name) ? Buffer.from(name, 'utf8').toString('latin1') : name, name]),
  );
  // One or two names wanted of hundreds (an edit's folder): matched where they stand, no name cut out per entry.
  const few = wanted.size <= 4 ? [...wanted] : undefined;
  const entries = new Map<string, FoundEntry>();
  let inOrder = true;
  // The previous entry's name, where it is in `text`, and whether it is a folder (compared as `name/`).
  let previousStart = -1;
  let previousEnd = -1;
  let previousTree = false;
  for (let pos = 0; pos < text.length; ) {
    const space = text.indexOf(' ', pos);
    const nul = text.indexOf('\0', space + 1);
    if (space < 0 || nul < 0 || nul + 21 > text.length) throw new Error(`malformed tree object at byte ${pos}`);
    if (checkOrder && inOrder) {
      // In place: an entry object and a `name/` string per entry were most of an edit's cost in a folder of thousands.
      const tree = isTreeModeAt(text, pos, space);
      if (
        previousStart >= 0 &&
        compareNamesIn(text, previousStart, previousEnd, previousTree, text, space + 1, nul, tree) >= 0
      )
        inOrder = false;
      previousStart = space + 1;
      previousEnd = nul;
      previousTree = tree;
    }
    let name: string | undefined;
    if (few) {
      for (const [spelled, asked] of few)
        if (spelled.length === nul - space - 1 && text.startsWith(spelled, space + 1)) {
          name = asked;
          break;
        }
    } else name = wanted.get(text.slice(space + 1, nul));
    if (name !== undefined)
      entries.set(name, {
        name,
        mode: text.slice(pos, space),
        oid: buf.toString('hex', nul + 1, nul + 21),
        start: pos,
        oidAt: nul + 1,
      });
    pos = nul + 21;
  }
  return { entries, inOrder };
}

/**
 * The entries of two tree bodies that are not in both byte for byte (mode, name and oid), decoded: what a diff of two
 * versions of a folder pairs by name. The others, all but a few when a folder lists thousands of namespaces and a
 * change touches one, are passed over by comparing bytes, never decoded. Undefined when either body is not in git's
 * order, a name once (as git and renderTree write them), or does not parse: then the caller decodes both whole.
 * `scanned` counts the entries of both bodies, passed over or not: what a walk that bounds its cost counts.
 */
export function differingEntries(
  oldBytes: Uint8Array,
  newBytes: Uint8Array,
): { old: TreeEntry[]; new: TreeEntry[]; scanned: number } | undefined {
  const a = new TreeBody(oldBytes);
  const b = new TreeBody(newBytes);
  const old: TreeEntry[] = [];
  const now: TreeEntry[] = [];
  if (!a.next() || !b.next()) return undefined;
  while (a.at >= 0 || b.at >= 0) {
    let order: number;
    if (a.at < 0) order = 1;
    else if (b.at < 0) order = -1;
    else if (sameEntry(a, b)) order = 0;
    else {
      order = compareNamesIn(a.text, a.nameAt, a.nul, a.tree, b.text, b.nameAt, b.nul, b.tree);
      if (order === 0) {
        old.push(a.entry());
        now.push(b.entry());
      }
    }
    if (order < 0) old.push(a.entry());
    if (order > 0) now.push(b.entry());
    if ((order <= 0 && !a.next()) || (order >= 0 && !b.next())) return undefined;
  }
  return { old, new: now, scanned: a.count + b.count };
}

/** A cursor over a tree body's entries (latin1: a char per byte), checking git's order as it goes. */
class TreeBody {
  readonly text: string;
  readonly #bytes: Buffer;
  /** Where the current entry starts (its mode); -1 past the last. */
  at = -1;
  nameAt = 0;
  nul = 0;
  tree = false;
  /** Entries moved to so far. */
  count = 0;
  #end = 0;

  constructor(bytes: Uint8Array) {
    this.#bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.text = this.#bytes.toString('latin1');
  }

  /** Moves to the next entry; false when it does not parse or does not sort after the one before. */
  next(): boolean {
    const { text } = this;
    if (this.#end >= text.length) {
      this.at = -1;
      return true;
    }
    const pos = this.#end;
    const space = text.indexOf(' ', pos);
    const nul = space < 0 ? -1 : text.indexOf('\0', space + 1);
    if (space < 0 || nul < 0 || nul + 21 > text.length) return false;
    const tree = isTreeModeAt(text, pos, space);
    if (this.at >= 0 && compareNamesIn(text, this.nameAt, this.nul, this.tree, text, space + 1, nul, tree) >= 0)
      return false;
    this.at = pos;
    this.nameAt = space + 1;
    this.nul = nul;
    this.tree = tree;
    this.#end = nul + 21;
    this.count++;
    return true;
  }

  /** The current entry, decoded as parseTree decodes it. */
  entry(): TreeEntry {
    const name = this.text.slice(this.nameAt, this.nul);
    return {
      mode: this.text.slice(this.at, this.nameAt - 1),
      ...(NOT_ASCII.test(name) ? decodedName(this.#bytes, this.nameAt, this.nul) : { name }),
      oid: this.#bytes.toString('hex', this.nul + 1, this.nul + 21),
    };
  }

  /** Where the current entry ends (after its oid). */
  get end(): number {
    return this.#end;
  }
}

/** Whether the current entries of two bodies are the same bytes. */
function sameEntry(a: TreeBody, b: TreeBody): boolean {
  const length = a.end - a.at;
  if (b.end - b.at !== length) return false;
  for (let i = 0; i < length; i++) if (a.text.charCodeAt(a.at + i) !== b.text.charCodeAt(b.at + i)) return false;
  return true;
}

/** Whether the mode spelled at text[start, end) is a folder's ('40000', or '040000' as old tools wrote it). */
function isTreeModeAt(text: string, start: number, end: number): boolean {
  const length = end - start;
  return (length === 5 && text.startsWith('40000', start)) || (length === 6 && text.startsWith('040000', start));
}

/**
 * Git's order of two names, each in a latin1 body (bytes as chars; the same body or two), a folder's compared as if it
 * ended in '/': compareTreeEntries, without making the strings.
 */
function compareNamesIn(
  aText: string,
  aStart: number,
  aEnd: number,
  aTree: boolean,
  bText: string,
  bStart: number,
  bEnd: number,
  bTree: boolean,
): number {
  const aLength = aEnd - aStart + (aTree ? 1 : 0);
  const bLength = bEnd - bStart + (bTree ? 1 : 0);
  const n = Math.min(aLength, bLength);
  for (let i = 0; i < n; i++) {
    const a = aStart + i < aEnd ? aText.charCodeAt(aStart + i) : 0x2f;
    const b = bStart + i < bEnd ? bText.charCodeAt(bStart + i) : 0x2f;
    if (a !== b) return a - b;
  }
  return aLength - bLength;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: \x00-\x7f spells all of ASCII; the class is its complement
const NOT_ASCII = /[^\x00-\x7f]/;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A name with a byte beyond ASCII: decoded, and when it is not UTF-8, also shown with its bad bytes escaped. */
function decodedName(buf: Buffer, start: number, end: number): { name: string; notUtf8?: string } {
  const bytes = buf.subarray(start, end);
  try {
    return { name: strictUtf8.decode(bytes) };
  } catch {
    let shown = '';
    for (let i = 0; i < bytes.length; ) {
      const len = utf8SequenceAt(bytes, i);
      shown +=
        len > 0 ? bytes.toString('utf8', i, i + len) : `\\x${bytes[i]!.toString(16).toUpperCase().padStart(2, '0')}`;
      i += len || 1;
    }
    return { name: bytes.toString('utf8'), notUtf8: shown };
  }
}

/** The length of the well-formed UTF-8 sequence at `i`, or 0. */
function utf8SequenceAt(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  const len = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
  if (len === 0 || i + len > bytes.length) return 0;
  for (let k = 1; k < len; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return 0;
  try {
    strictUtf8.decode(bytes.subarray(i, i + len));
    return len;
  } catch {
    return 0; // an overlong form or a surrogate
  }
}
