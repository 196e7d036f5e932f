import { isTreeMode, type TreeEntry } from './types.ts';

/** Serialises entries into a tree object body, sorted the way git requires (see compareTreeEntries). */
export function renderTree(entries: readonly TreeEntry[]): Uint8Array {
  const sorted = [...entries].sort(compareTreeEntries);
  const parts: Buffer[] = [];
  for (const e of sorted) {
    parts.push(Buffer.from(`${e.mode} ${e.name}\0`, 'utf8'), Buffer.from(e.oid, 'hex'));
  }
  return Buffer.concat(parts);
}

/**
 * Git orders tree entries by the bytes of their name, with a subtree compared as if its name
 * ended in '/': so 'a.b' < 'a/' (tree a) < 'a0'. A wrong order still hashes, but fsck rejects it.
 */
export function compareTreeEntries(a: TreeEntry, b: TreeEntry): number {
  return compareUtf8(isTreeMode(a.mode) ? `${a.name}/` : a.name, isTreeMode(b.mode) ? `${b.name}/` : b.name);
}

/** Byte order of the UTF-8 encodings, i.e. code point order, without encoding either string. */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    // UTF-16 puts surrogates (astral code points) below U+E000..U+FFFF; code point order puts them above.
    if (ca !== cb) return rank(ca) - rank(cb);
  }
  return a.length - b.length;
}

function rank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}
