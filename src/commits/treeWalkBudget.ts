import { TreeTooLargeError } from './TreeTooLargeError.ts';

/** How many tree entries one walk (listTreeFiles, diffTrees) may visit; absent: no bound. */
export interface TreeWalkLimit {
  maxEntries?: number;
}

/**
 * The entries one walk has visited so far, each tree's entries counted every time the walk reads that tree: what a
 * walk costs is the paths it spells, not the objects it reads. Throws TreeTooLargeError once past the bound.
 */
export class TreeWalkBudget {
  #spent = 0;
  readonly #tree: string;
  readonly #limit: number;

  constructor(tree: string, limit: TreeWalkLimit) {
    this.#tree = tree;
    this.#limit = limit.maxEntries ?? Number.POSITIVE_INFINITY;
  }

  /** Counts the entries of one tree read, at `path` ('' the root, else ending in '/'). */
  spend(entries: number, path: string): void {
    this.#spent += entries;
    if (this.#spent > this.#limit)
      throw new TreeTooLargeError(this.#tree, this.#spent, this.#limit, path.replace(/\/$/, ''));
  }
}
