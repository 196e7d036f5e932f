import { createHash } from 'node:crypto';
import { eventLoopTurns } from '../concurrency/eventLoopTurns.ts';
import type { PackEntries } from './PackEntries.ts';
import type { GitRepo } from './types.ts';

/**
 * The version 2 .idx of a pack, written to `file` section by section (fan-out, names, CRCs, offsets, 64-bit offsets,
 * checksums) from the compact entries: a pack of millions of objects never has its index in memory whole. Those
 * millions take seconds: the event loop gets a turn between two chunks now and then.
 */
export async function writePackIdx(
  fs: GitRepo['fs'],
  file: string,
  entries: PackEntries,
  packChecksum: Buffer,
): Promise<void> {
  const turns = eventLoopTurns();
  const order = await entries.writtenInOidOrder();
  const n = order.length;
  const hash = createHash('sha1');
  const fd = fs.openSync(file, 'w', 0o444);
  try {
    const out = (bytes: Buffer) => {
      hash.update(bytes);
      for (let done = 0; done < bytes.length; ) done += fs.writeSync(fd, bytes, done, bytes.length - done);
    };
    const head = Buffer.alloc(8 + 256 * 4);
    head.writeUInt32BE(0xff744f63, 0);
    head.writeUInt32BE(2, 4);
    const fanout = new Uint32Array(256);
    for (let k = 0; k < n; k++) {
      if (k % CHUNK === 0 && turns.due()) await turns.give();
      fanout[entries.firstByteAt(order[k]!)]!++;
    }
    let total = 0;
    for (let b = 0; b < 256; b++) {
      total += fanout[b]!;
      head.writeUInt32BE(total, 8 + b * 4);
    }
    out(head);
    const inChunks = async (width: number, fill: (chunk: Buffer, at: number, entry: number) => void) => {
      for (let start = 0; start < n; start += CHUNK) {
        if (turns.due()) await turns.give();
        const end = Math.min(n, start + CHUNK);
        const chunk = Buffer.allocUnsafe((end - start) * width);
        for (let k = start; k < end; k++) fill(chunk, (k - start) * width, order[k]!);
        out(chunk);
      }
    };
    await inChunks(20, (chunk, at, i) => chunk.set(entries.oidAt(i), at));
    await inChunks(4, (chunk, at, i) => chunk.writeUInt32BE(entries.crcAt(i), at));
    // Packs over 2 GiB: an offset past 31 bits is an index into the 64-bit table that follows.
    const large: number[] = [];
    await inChunks(4, (chunk, at, i) => {
      const offset = entries.offsetAt(i);
      if (offset < 0x80000000) chunk.writeUInt32BE(offset, at);
      else chunk.writeUInt32BE((0x80000000 | (large.push(offset) - 1)) >>> 0, at);
    });
    const table = Buffer.alloc(large.length * 8);
    large.forEach((offset, k) => table.writeBigUInt64BE(BigInt(offset), k * 8));
    out(table);
    out(packChecksum);
    const checksum = hash.digest();
    for (let done = 0; done < checksum.length; ) done += fs.writeSync(fd, checksum, done, checksum.length - done);
  } finally {
    fs.closeSync(fd);
  }
}

/** Entries per write: about 1 MiB of names. */
const CHUNK = 50_000;
