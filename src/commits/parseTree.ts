import { compareTreeEntries } from './renderTree.ts';
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
  let previous: TreeEntry | undefined;
  for (let pos = 0; pos < text.length; ) {
    const space = text.indexOf(' ', pos);
    const nul = text.indexOf('\0', space + 1);
    if (space < 0 || nul < 0 || nul + 21 > text.length) throw new Error(`malformed tree object at byte ${pos}`);
    const raw = text.slice(space + 1, nul);
    if (checkOrder) {
      const entry = { name: raw, mode: text.slice(pos, space), oid: '' };
      if (previous && compareTreeEntries(previous, entry) >= 0) inOrder = false;
      previous = entry;
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

// biome-ignore lint/suspicious/noControlCharactersInRegex: \x00-\x7f spells all of ASCII; the class is its complement
const NOT_ASCII = /[^\x00-\x7f]/;
