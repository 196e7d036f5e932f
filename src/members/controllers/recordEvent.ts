import { randomBytes } from 'node:crypto';
import type { ObjectStore } from '../store/ObjectStore.ts';
import type { ResourceRegistry } from '../resources/ResourceRegistry.ts';
import type { KubeObject } from '../types.ts';

/**
 * Writes a core/v1 Event about `involved`, as a controller's event recorder does, so `kubectl describe` and
 * `kubectl get events` show it. Names are `<object>.<16 hex>`, like client-go's recorder makes them. Best effort, as
 * the recorder is: an Event that cannot be written (its namespace is terminating) is dropped.
 */
export function recordEvent(
  store: ObjectStore,
  registry: ResourceRegistry,
  involved: KubeObject,
  component: string,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
  now: string,
): void {
  const eventType = registry.byResourceKey('/events');
  if (!eventType || !involved.metadata.namespace) return;
  // The recorder's correlator: the same event again bumps count and lastTimestamp ("x5 over 1m" in describe).
  const same = store
    .list('/events', involved.metadata.namespace)
    .find(
      (e) =>
        e.involvedObject?.uid === involved.metadata.uid &&
        e.type === type &&
        e.reason === reason &&
        e.message === message &&
        e.source?.component === component,
    );
  try {
    if (same) {
      store.update(eventType, { ...structuredClone(same), count: (same.count ?? 1) + 1, lastTimestamp: now });
      return;
    }
    store.create(eventType, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: `${involved.metadata.name}.${randomBytes(8).toString('hex')}`,
        namespace: involved.metadata.namespace,
      },
      involvedObject: {
        apiVersion: involved.apiVersion,
        kind: involved.kind,
        namespace: involved.metadata.namespace,
        name: involved.metadata.name,
        uid: involved.metadata.uid,
        resourceVersion: involved.metadata.resourceVersion,
      },
      reason,
      message,
      source: { component },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: component,
      reportingInstance: '',
    });
  } catch {
    // dropped, see above
  }
}
