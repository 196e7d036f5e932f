import type { MemberFaults } from '../faults.ts';
import type { ResourceRegistry } from '../resources/ResourceRegistry.ts';
import type { ObjectStore } from '../store/ObjectStore.ts';

/** What the HTTP layer needs from a running member. */
export interface ServerContext {
  registry: ResourceRegistry;
  store: ObjectStore;
  faults: MemberFaults;
  token: string;
  /** How often an idle watch with allowWatchBookmarks gets a BOOKMARK (client-node gives up after 30 s). */
  bookmarkIntervalMs: number;
  /** How long a read at a resourceVersion the store has not reached waits for it (the watch cache's 3 s). */
  freshReadTimeoutMs: number;
  now: () => Date;
  /** host:port, reported in legacy /api discovery. */
  address: () => string;
}
