import type { StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import type { ControllerDeps } from './ControllerDeps.ts';
import { statusChanged } from './workloadPods.ts';

const NAMESPACES = '/namespaces';

/**
 * Namespace deletion: a deleted namespace is Terminating until everything in it is gone; then its
 * `kubernetes` finalizer is dropped and it disappears. Objects held by their own finalizers hold it too.
 */
export function namespaceController(deps: ControllerDeps): Controller {
  const { store, registry } = deps;

  function reconcile(name: string): void {
    const ns = store.get(NAMESPACES, undefined, name);
    if (!ns?.metadata.deletionTimestamp) return;
    const remaining = new Map<string, number>();
    const finalizers = new Map<string, number>();
    for (const resource of store.resources()) {
      const rt = registry.byResourceKey(resource);
      if (!rt?.namespaced) continue;
      for (const object of store.list(resource, name)) {
        if (!object.metadata.deletionTimestamp) store.delete(rt, name, object.metadata.name!);
        const left = store.get(resource, name, object.metadata.name!);
        if (!left) continue;
        const gr = `${rt.plural}.${rt.group}`;
        remaining.set(gr, (remaining.get(gr) ?? 0) + 1);
        for (const f of left.metadata.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
      }
    }
    const withConditions = structuredClone(ns);
    withConditions.status = {
      ...(withConditions.status ?? {}),
      conditions: deletionConditions(ns.status?.conditions, remaining, finalizers, deps.now()),
    };
    const current = statusChanged(ns, withConditions.status)
      ? store.update(registry.byResourceKey(NAMESPACES)!, withConditions)
      : ns;
    if (remaining.size === 0 && (current.spec?.finalizers ?? []).includes('kubernetes')) {
      const next = structuredClone(current);
      // finalizeNamespace takes out its own token only; others' wait for whoever put them there (namespaces/finalize).
      next.spec = {
        ...(next.spec ?? {}),
        finalizers: (next.spec?.finalizers ?? []).filter((f: string) => f !== 'kubernetes'),
      };
      store.update(registry.byResourceKey(NAMESPACES)!, next);
    }
  }

  return {
    name: 'namespace',
    keysFor(event: StoreEvent): string[] {
      const o = event.object;
      if (event.resource === NAMESPACES && o.metadata.deletionTimestamp && event.type !== 'DELETED')
        return [o.metadata.name!];
      // Not only deletions: a finalizer dropped from an object still held changes what the conditions count.
      if (o.metadata.namespace && store.get(NAMESPACES, undefined, o.metadata.namespace)?.metadata.deletionTimestamp) {
        return [o.metadata.namespace];
      }
      return [];
    },
    reconcile,
    initialKeys: () =>
      store
        .list(NAMESPACES)
        .filter((n) => n.metadata.deletionTimestamp)
        .map((n) => n.metadata.name!),
  };
}

/** The namespace deleter's condition types, in the order it first writes them, with their reason and message when fine. */
const DELETION_CONDITIONS: [type: string, okReason: string, okMessage: string][] = [
  ['NamespaceDeletionDiscoveryFailure', 'ResourcesDiscovered', 'All resources successfully discovered'],
  ['NamespaceDeletionGroupVersionParsingFailure', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
  [
    'NamespaceDeletionContentFailure',
    'ContentDeleted',
    'All content successfully deleted, may be waiting on finalization',
  ],
  ['NamespaceContentRemaining', 'ContentRemoved', 'All content successfully removed'],
  ['NamespaceFinalizersRemaining', 'ContentRemoved', 'All content successfully removed'],
];

/**
 * A Terminating namespace's conditions as the namespace deleter keeps them (status_condition_utils.go): what is
 * left per resource (`configmaps. has 1 resource instances`, group after the dot) and per finalizer, else the fine
 * variant; lastTransitionTime moves only when a condition's status does.
 */
export function deletionConditions(
  previous: any[] | undefined,
  remaining: ReadonlyMap<string, number>,
  finalizers: ReadonlyMap<string, number>,
  now: string,
): any[] {
  const conditions = structuredClone(previous ?? []);
  const counted = (m: ReadonlyMap<string, number>, phrase: string) =>
    [...m]
      .filter(([, n]) => n > 0)
      .map(([what, n]) => `${what} ${phrase.replace('%d', String(n))}`)
      .sort()
      .join(', ');
  const failing: Record<string, { reason: string; message: string }> = {};
  if (remaining.size > 0)
    failing.NamespaceContentRemaining = {
      reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${counted(remaining, 'has %d resource instances')}`,
    };
  if (finalizers.size > 0)
    failing.NamespaceFinalizersRemaining = {
      reason: 'SomeFinalizerRemain',
      message: `Some finalizers are remaining: ${counted(finalizers, 'in %d resource instances')}`,
    };
  for (const [type, okReason, okMessage] of DELETION_CONDITIONS) {
    const want = failing[type]
      ? { status: 'True', ...failing[type] }
      : { status: 'False', reason: okReason, message: okMessage };
    const old = conditions.find((c) => c.type === type);
    if (!old) conditions.push({ type, ...want, lastTransitionTime: now });
    else if (old.status !== want.status || old.reason !== want.reason || old.message !== want.message) {
      if (old.status !== want.status) old.lastTransitionTime = now;
      Object.assign(old, want);
    }
  }
  return conditions;
}
