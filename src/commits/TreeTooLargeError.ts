/**
 * A walk of a tree visited more entries than its reader allowed. Counted with every folder as often as the tree names
 * it: a few objects (a tree of a thousand entries naming one subtree a thousand times, a few levels deep) spell a
 * billion paths, and listing them took the reconciler's memory and time before anything else could render.
 * Or (`kind: 'path'`) a bounded walk met a path longer than MAX_PATH_BYTES: a chain of folders tens of thousands deep
 * made every path string megabytes long, and no checkout could write it.
 */
export class TreeTooLargeError extends Error {
  readonly code = 'TreeTooLargeError' as const;
  /** `entries`: counted so far (kind 'entries'), or the path's bytes (kind 'path'); `path`: where, at most 200 chars. */
  readonly data: { tree: string; kind: 'entries' | 'path'; entries: number; limit: number; path: string };

  constructor(tree: string, entries: number, limit: number, path: string, kind: 'entries' | 'path' = 'entries') {
    const shown = shortPath(path);
    super(
      kind === 'path'
        ? `tree ${tree} names a path of ${entries} bytes or more, over the ${limit} a checkout can write: '${shown}'`
        : `tree ${tree} holds over ${limit} entries, each folder counted as often as it is named (${entries} counted at '${shown || '.'}')`,
    );
    this.name = 'TreeTooLargeError';
    this.data = { tree, kind, entries, limit, path: shown };
  }
}

/** The bytes of a path past which a bounded walk refuses it: Linux's PATH_MAX. */
export const MAX_PATH_BYTES = 4096;

const SHOWN_PATH = 200;

/** A path as an error names it: its start, when it is one of the long ones this error is about. */
function shortPath(path: string): string {
  return path.length > SHOWN_PATH ? `${path.slice(0, SHOWN_PATH)}…` : path;
}
