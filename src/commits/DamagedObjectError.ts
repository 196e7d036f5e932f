import { ObjectNotFoundError } from './ObjectNotFoundError.ts';
import { ObjectTooLargeError } from './ObjectTooLargeError.ts';

/**
 * An object the repository lists cannot be read back: its pack or loose file is cut short or corrupt (a full disk, a
 * copy interrupted, a bad sector). What failed inside the reader (a short read, zlib, a delta) means nothing to the
 * user; the file, the object and how to repair the repository do.
 */
export class DamagedObjectError extends Error {
  readonly code = 'DamagedObjectError' as const;
  readonly data: { oid: string; file: string };

  constructor(oid: string, file: string, gitdir: string, reason: string, cause?: unknown) {
    super(
      `${file}: object ${oid} cannot be read (${reason}): the repository is damaged; fix: run ` +
        `\`git --git-dir=${gitdir} fsck\` to list what is broken, then fetch the objects again from a good copy ` +
        '(or clone the repository afresh)',
      { cause },
    );
    this.name = 'DamagedObjectError';
    this.data = { oid, file };
  }

  /**
   * What a failed read of `oid` from `file` throws: the reader's own answers (too large, not found, or already
   * damaged, as a delta's base) and the system's (permission denied: its message says so) as they are; anything else
   * (a short file, zlib, a delta that does not fit its base) as damage to that file.
   */
  static wrap(err: unknown, oid: string, file: string, gitdir: string): Error {
    if (
      err instanceof DamagedObjectError ||
      err instanceof ObjectTooLargeError ||
      err instanceof ObjectNotFoundError ||
      (err as NodeJS.ErrnoException)?.syscall !== undefined
    )
      return err as Error;
    return new DamagedObjectError(oid, file, gitdir, (err as Error)?.message ?? String(err), err);
  }
}
