import type { StoreEvent } from '../types.ts';

/**
 * One simulated controller: which keys a store event makes dirty, and how to converge one key. Reconcile
 * runs synchronously against the in-memory store and must write only when something changes, or it would
 * wake itself forever.
 */
export interface Controller {
  readonly name: string;
  keysFor(event: StoreEvent): string[];
  reconcile(key: string): void;
  /** Keys to converge at start, e.g. every existing object after a restart. */
  initialKeys(): string[];
  stop?(): void;
}
