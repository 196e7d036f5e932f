// A file system for openRepo that counts what is read from some files (a pack, its index): tests of how much a reader
// reads, which no result alone shows.
import nodeFs from 'node:fs';

export interface CountedReads {
  /** Node's fs, counting the reads of the files `counts` takes. */
  fs: typeof nodeFs;
  /** Bytes and reads since the last reset. */
  bytes: number;
  reads: number;
  reset(): void;
}

/** Counts every readSync of a file opened (openSync) under a path `counts` takes. */
export function countedReads(counts: (path: string) => boolean): CountedReads {
  const counted = new Set<number>();
  const out: CountedReads = {
    fs: {
      ...nodeFs,
      readSync: (...args: Parameters<typeof nodeFs.readSync>) => {
        const n = (nodeFs.readSync as (...a: unknown[]) => number)(...args);
        if (counted.has(args[0] as number)) {
          out.bytes += n;
          out.reads++;
        }
        return n;
      },
      openSync: (...args: Parameters<typeof nodeFs.openSync>) => {
        const fd = (nodeFs.openSync as (...a: unknown[]) => number)(...args);
        if (counts(String(args[0]))) counted.add(fd);
        return fd;
      },
    } as typeof nodeFs,
    bytes: 0,
    reads: 0,
    reset() {
      out.bytes = 0;
      out.reads = 0;
    },
  };
  return out;
}
