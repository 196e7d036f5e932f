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

const NOT_ASCII = /[^\x00-\x7f]/;
