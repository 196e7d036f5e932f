import type { TreeEntry } from './types.ts';

/** Parses a raw tree object body into its entries, keeping modes exactly as stored. */
export function parseTree(bytes: Uint8Array): TreeEntry[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries: TreeEntry[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const space = buf.indexOf(0x20, pos);
    const nul = buf.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > buf.length) throw new Error(`malformed tree object at byte ${pos}`);
    entries.push({
      mode: buf.toString('latin1', pos, space),
      name: buf.toString('utf8', space + 1, nul),
      oid: buf.toString('hex', nul + 1, nul + 21),
    });
    pos = nul + 21;
  }
  return entries;
}
