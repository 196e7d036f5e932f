import type { KubeObject } from '../types.ts';
import type { ControllerDeps } from './ControllerDeps.ts';
import { ownerReferenceTo } from './workloadPods.ts';

export const REVISIONS = 'apps/controllerrevisions';
const HASH_LABEL = 'controller.kubernetes.io/hash';

/**
 * The ControllerRevision of a StatefulSet's or DaemonSet's pod template, `<owner>-<hash>`, as Kubernetes' history
 * package keeps them: made when the template is new (revision one above the highest), an old one renumbered when
 * the template goes back to it, its data the patch `kubectl rollout undo` applies ({"spec":{"template":{…,
 * "$patch":"replace"}}}), and past revisionHistoryLimit the oldest not in `inUse` deleted. Returns its name.
 */
export function syncControllerRevision(
  deps: ControllerDeps,
  owner: KubeObject,
  hash: string,
  inUse: ReadonlySet<string>,
): string {
  const { store, registry } = deps;
  const type = registry.byResourceKey(REVISIONS)!;
  const name = `${owner.metadata.name}-${hash}`;
  const owned = store
    .list(REVISIONS, owner.metadata.namespace)
    .filter((r) => r.metadata.ownerReferences?.some((o) => o.controller && o.uid === owner.metadata.uid));
  const highest = Math.max(0, ...owned.map((r) => Number(r.revision ?? 0)));
  const existing = owned.find((r) => r.metadata.name === name);
  const annotations = owner.metadata.annotations ? { annotations: { ...owner.metadata.annotations } } : {};
  if (!existing) {
    const template = structuredClone(owner.spec?.template ?? {});
    store.create(type, {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name,
        namespace: owner.metadata.namespace!,
        labels: { ...(owner.spec?.template?.metadata?.labels ?? {}), [HASH_LABEL]: hash },
        ...annotations,
        ownerReferences: [ownerReferenceTo(owner)],
      },
      data: { spec: { template: { ...template, $patch: 'replace' } } },
      revision: highest + 1,
    });
  } else if (Number(existing.revision ?? 0) < highest) {
    store.update(type, { ...structuredClone(existing), revision: highest + 1 });
  }
  const limit: number = owner.spec?.revisionHistoryLimit ?? 10;
  const old = owned
    .filter((r) => r.metadata.name !== name && !inUse.has(r.metadata.name!))
    .sort((a, b) => Number(b.revision ?? 0) - Number(a.revision ?? 0));
  for (const r of old.slice(limit)) store.delete(type, r.metadata.namespace, r.metadata.name!);
  return name;
}
