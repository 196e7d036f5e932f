/** FNV-1a 32-bit, the hash Karmada uses in names and for the Webster tie-break direction. */
export function fnv1a32(text: string): number {
  // Over the UTF-8 bytes. Keys and names are ASCII, whose bytes are their char codes: read them without encoding (an
  // encoder per call was most of the cost, and the output index hashes every key it looks up).
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) return hashBytes(h, new TextEncoder().encode(text.slice(i)));
    h ^= code;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Continues the hash `h` over bytes. */
function hashBytes(h: number, bytes: Uint8Array): number {
  for (const byte of bytes) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
