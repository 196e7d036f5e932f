import { groupOf, type ObjectRef } from '../api/kinds.ts';
import type { HeldPrune } from '../plans/checkPruneSafety.ts';

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

/**
 * What the inventory file says besides the objects, like the lastAppliedRevision beside a Flux inventory: the last
 * source commit applied to the member (the start of the window in which a Flotilla-Allow-Prune trailer counts) and
 * the deletions prune safety holds there now (what status readers show).
 */
export interface DeliveryRecord {
  sourceCommit?: string;
  held?: HeldPrune[];
}

export function serializeInventory(items: Inventory, record: DeliveryRecord = {}): string {
  const unique = new Map(items.map((r) => [identityKey(r), r]));
  const lines = [...unique.keys()].sort().map((k) => {
    const r = unique.get(k)!;
    return JSON.stringify({ apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace, name: r.name });
  });
  const source = record.sourceCommit ? `"sourceCommit":${JSON.stringify(record.sourceCommit)},` : '';
  const held = record.held?.length ? `"held":[\n${record.held.map((h) => JSON.stringify(h)).join(',\n')}\n],` : '';
  return `{"version":1,${source}${held}"objects":[\n${lines.join(',\n')}\n]}\n`;
}

export function parseInventory(text: string | undefined): Inventory {
  return parseInventoryFile(text).objects;
}

export function parseInventoryFile(text: string | undefined): DeliveryRecord & { objects: Inventory } {
  if (!text) return { objects: [] };
  const parsed = JSON.parse(text) as { version?: number; objects?: ObjectRef[]; sourceCommit?: string; held?: HeldPrune[] };
  if (parsed.version !== 1) throw new Error(`inventory has version ${String(parsed.version)}; this Flotilla reads version 1`);
  return {
    objects: (parsed.objects ?? []).map((r) => ({ apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace ?? '', name: r.name })),
    ...(typeof parsed.sourceCommit === 'string' ? { sourceCommit: parsed.sourceCommit } : {}),
    ...(Array.isArray(parsed.held) && parsed.held.length ? { held: parsed.held } : {}),
  };
}
