import { groupOf, type ObjectRef } from '../api/kinds.ts';

/**
 * The inventory is what Flotilla applied to one member: the only objects it may ever prune there (fluxcd's
 * inventory, internal/inventory/inventory.go). One JSON ref per line, sorted: stable bytes, small Git diffs.
 */
export type Inventory = ObjectRef[];

/**
 * Identity without the version: the same object seen through apps/v1beta1 and apps/v1 is one object, so an
 * apiVersion change in the folder must not look like "old object gone" and prune it.
 */
export function identityKey(ref: ObjectRef): string {
  return `${groupOf(ref.apiVersion)}/${ref.kind}/${ref.namespace}/${ref.name}`;
}

export function serializeInventory(items: Inventory): string {
  const unique = new Map(items.map((r) => [identityKey(r), r]));
  const lines = [...unique.keys()].sort().map((k) => {
    const r = unique.get(k)!;
    return JSON.stringify({ apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace, name: r.name });
  });
  return `{"version":1,"objects":[\n${lines.join(',\n')}\n]}\n`;
}

export function parseInventory(text: string | undefined): Inventory {
  if (!text) return [];
  const parsed = JSON.parse(text) as { version?: number; objects?: ObjectRef[] };
  if (parsed.version !== 1) throw new Error(`inventory has version ${String(parsed.version)}; this Flotilla reads version 1`);
  return (parsed.objects ?? []).map((r) => ({ apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace ?? '', name: r.name }));
}
