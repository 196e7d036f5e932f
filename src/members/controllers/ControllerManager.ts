import type { ObjectStore } from '../store/ObjectStore.ts';
import type { Controller } from './Controller.ts';

/**
 * Runs the controllers like kube-controller-manager's work queues: events mark keys dirty, a key is
 * reconciled once however many events hit it, and draining yields to I/O between rounds so HTTP requests
 * interleave with simulation.
 */
export class ControllerManager {
  private readonly dirty = new Map<Controller, Set<string>>();
  private scheduled: NodeJS.Immediate | undefined;
  private unsubscribe: (() => void) | undefined;
  private stopped = false;

  constructor(
    private readonly store: ObjectStore,
    private readonly controllers: Controller[],
    private readonly onError: (controller: string, key: string, error: unknown) => void,
  ) {}

  start(): void {
    this.unsubscribe = this.store.subscribe((event) => {
      for (const controller of this.controllers)
        for (const key of controller.keysFor(event)) this.enqueue(controller, key);
    });
    for (const controller of this.controllers)
      for (const key of controller.initialKeys()) this.enqueue(controller, key);
  }

  enqueue(controller: Controller, key: string): void {
    if (this.stopped) return;
    let keys = this.dirty.get(controller);
    if (!keys) this.dirty.set(controller, (keys = new Set()));
    keys.add(key);
    this.scheduled ??= setImmediate(() => this.drain());
  }

  /** Resolves once no key is dirty (for tests that want the simulation settled). */
  async idle(): Promise<void> {
    while (this.scheduled) await new Promise((resolve) => setImmediate(resolve));
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    for (const controller of this.controllers) controller.stop?.();
  }

  private drain(): void {
    this.scheduled = undefined;
    const batch = [...this.dirty].map(([controller, keys]) => [controller, [...keys]] as const);
    this.dirty.clear();
    for (const [controller, keys] of batch) {
      for (const key of keys) {
        if (this.stopped) return;
        try {
          controller.reconcile(key);
        } catch (error) {
          this.onError(controller.name, key, error);
        }
      }
    }
  }
}
