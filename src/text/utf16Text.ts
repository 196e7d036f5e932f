/**
 * A file that starts with a UTF-16 byte order mark, as UTF-8 bytes: kubectl reads every file through
 * `unicode.BOMOverride` (cli-runtime's FileVisitor), so a manifest saved as UTF-16 with a BOM (Windows PowerShell 5's
 * `Out-File` and `>` write that) applies as if it were UTF-8. Undefined when there is no such mark; `invalidAt` (a
 * byte offset) when what follows is not UTF-16: an unpaired surrogate, or an odd byte at the end.
 */
export function utf8FromUtf16(bytes: Uint8Array): { bytes: Uint8Array } | { invalidAt: number } | undefined {
  const encoding =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? 'utf-16le'
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? 'utf-16be'
        : undefined;
  if (!encoding) return undefined;
  let text: string;
  try {
    // The decoder drops the mark itself, as BOMOverride does.
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return { invalidAt: firstInvalidUtf16(bytes, encoding === 'utf-16le') };
  }
  return { bytes: new TextEncoder().encode(text) };
}

function firstInvalidUtf16(bytes: Uint8Array, littleEndian: boolean): number {
  const unit = (i: number) => (littleEndian ? bytes[i]! | (bytes[i + 1]! << 8) : (bytes[i]! << 8) | bytes[i + 1]!);
  for (let i = 2; i < bytes.length; i += 2) {
    if (i + 1 >= bytes.length) return i;
    const u = unit(i);
    if (u >= 0xdc00 && u <= 0xdfff) return i;
    if (u >= 0xd800 && u <= 0xdbff) {
      if (i + 3 >= bytes.length) return i;
      const next = unit(i + 2);
      if (next < 0xdc00 || next > 0xdfff) return i;
      i += 2;
    }
  }
  return bytes.length;
}
