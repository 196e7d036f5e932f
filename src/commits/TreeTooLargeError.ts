/**
 * A walk of a tree visited more entries than its reader allowed. Counted with every folder as often as the tree names
 * it: a few objects (a tree of a thousand entries naming one subtree a thousand times, a few levels deep) spell a
 * billion paths, and listing them took the reconciler's memory and time before anything else could render.
 */
export class TreeTooLargeError extends Error {
  readonly code = 'TreeTooLargeError' as const;
  readonly data: { tree: string; entries: number; limit: number; path: string };

  constructor(tree: string, entries: number, limit: number, path: string) {
    super(
      `tree ${tree} holds over ${limit} entries, each folder counted as often as it is named (${entries} counted when the walk stopped at '${path || '.'}')`,
    );
    this.name = 'TreeTooLargeError';
    this.data = { tree, entries, limit, path };
  }
}
