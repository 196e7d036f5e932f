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
      name: NOT_ASCII.test(name) ? buf.toString('utf8', space + 1, nul) : name,
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
    const raw = text.slice(space + 1, nul);
    if (checkOrder && inOrder) {
      // In place: an entry object and a `name/` string per entry were most of an edit's cost in a folder of thousands.
      const tree = isTreeModeAt(text, pos, space);
      if (
        previousStart >= 0 &&
        compareNamesAt(text, previousStart, previousEnd, previousTree, space + 1, nul, tree) >= 0
      )
        inOrder = false;
      previousStart = space + 1;
      previousEnd = nul;
      previousTree = tree;
    }
    const name = wanted.get(raw);
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

/** Whether the mode spelled at text[start, end) is a folder's ('40000', or '040000' as old tools wrote it). */
function isTreeModeAt(text: string, start: number, end: number): boolean {
  const length = end - start;
  return (length === 5 && text.startsWith('40000', start)) || (length === 6 && text.startsWith('040000', start));
}

/**
 * Git's order of two names of one latin1 body (bytes as chars), a folder's compared as if it ended in '/':
 * compareTreeEntries, without making the strings.
 */
function compareNamesAt(
  text: string,
  aStart: number,
  aEnd: number,
  aTree: boolean,
  bStart: number,
  bEnd: number,
  bTree: boolean,
): number {
  const aLength = aEnd - aStart + (aTree ? 1 : 0);
  const bLength = bEnd - bStart + (bTree ? 1 : 0);
  const n = Math.min(aLength, bLength);
  for (let i = 0; i < n; i++) {
    const a = aStart + i < aEnd ? text.charCodeAt(aStart + i) : 0x2f;
    const b = bStart + i < bEnd ? text.charCodeAt(bStart + i) : 0x2f;
    if (a !== b) return a - b;
  }
  return aLength - bLength;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: \x00-\x7f spells all of ASCII; the class is its complement
const NOT_ASCII = /[^\x00-\x7f]/;
