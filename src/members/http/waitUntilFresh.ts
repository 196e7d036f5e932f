import { tooLargeResourceVersion } from '../ApiError.ts';
import type { ObjectStore } from '../store/ObjectStore.ts';

/**
 * The watch cache's waitUntilFreshAndBlock: a read at a resourceVersion the store has not reached yet waits up to
 * `timeoutMs` (the cache's 3 s blockTimeout) for a write to get there, then answers 504 with a one-second retry.
 */
export async function waitUntilFresh(store: ObjectStore, resourceVersion: number, timeoutMs: number): Promise<void> {
  if (store.resourceVersion >= resourceVersion) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    const unsubscribe = store.subscribe(() => {
      if (store.resourceVersion >= resourceVersion) done();
    });
  });
  if (store.resourceVersion < resourceVersion) throw tooLargeResourceVersion(resourceVersion, store.resourceVersion, 1);
}
