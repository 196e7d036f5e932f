import { groupOf, type ObjectRef } from '../../api/kinds.ts';

export type PruneHoldReason =
  | 'SOURCE_EMPTY'
  | 'SOURCE_UNREADABLE'
  | 'SOURCE_MISSING'
  | 'EVERYTHING'
  | 'OVER_THRESHOLD'
  | 'NAMESPACE'
  | 'CRD';

/** A deletion the prune guard (deliveries/checkPruneSafety.ts) holds, recorded in the cluster's inventory. */
export interface HeldPrune {
  cluster: string;
  reason: PruneHoldReason;
  /** refKeys (`<apiVersion>/<kind>/<namespace>/<name>`) whose deletion is held. */
  refs: string[];
  message: string;
}

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
  /**
   * Objects an apply was about to create or change, not (yet) known to be Flotilla's: recorded before the apply
   * (crash safety), and kept while their apply conflicts. Pruned only when live, labelled and applied by Flotilla's
   * field manager; never forced (drift repair is for `objects`, confirmed ours).
   */
  pending?: ObjectRef[];
}

export function serializeInventory(items: Inventory, record: DeliveryRecord = {}): string {
  const lines = refLines(items);
  const source = record.sourceCommit ? `"sourceCommit":${JSON.stringify(record.sourceCommit)},` : '';
  const held = record.held?.length ? `"held":[\n${record.held.map((h) => JSON.stringify(h)).join(',\n')}\n],` : '';
  const owned = new Set(items.map(identityKey));
  const pendingRefs = (record.pending ?? []).filter((r) => !owned.has(identityKey(r)));
  const pending = pendingRefs.length ? `"pending":[\n${refLines(pendingRefs).join(',\n')}\n],` : '';
  return `{"version":1,${source}${held}${pending}"objects":[\n${lines.join(',\n')}\n]}\n`;
}

function refLines(items: Inventory): string[] {
  const unique = new Map(items.map((r) => [identityKey(r), r]));
  return [...unique.keys()].sort().map((k) => {
    const r = unique.get(k)!;
    return JSON.stringify({ apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace, name: r.name });
  });
}

export function parseInventory(text: string | undefined): Inventory {
  return parseInventoryFile(text).objects;
}

export function parseInventoryFile(text: string | undefined): DeliveryRecord & { objects: Inventory } {
  if (!text) return { objects: [] };
  const parsed = JSON.parse(text) as {
    version?: number;
    objects?: ObjectRef[];
    sourceCommit?: string;
    held?: HeldPrune[];
    pending?: ObjectRef[];
  };
  const refs = (list: ObjectRef[] | undefined) =>
    (list ?? []).map((r) => ({ apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace ?? '', name: r.name }));
  if (parsed.version !== 1) {
    // A newer Flotilla wrote it: restoring an older copy would drop what that one recorded.
    const newer =
      typeof parsed.version === 'number' && parsed.version > 1
        ? '; fix: run a Flotilla that reads it (the version that wrote it, or newer)'
        : '';
    throw new Error(`inventory has version ${String(parsed.version)}; this Flotilla reads version 1${newer}`);
  }
  return {
    objects: refs(parsed.objects),
    ...(Array.isArray(parsed.pending) && parsed.pending.length ? { pending: refs(parsed.pending) } : {}),
    ...(typeof parsed.sourceCommit === 'string' ? { sourceCommit: parsed.sourceCommit } : {}),
    ...(Array.isArray(parsed.held) && parsed.held.length ? { held: parsed.held } : {}),
  };
}

/** The entries of `planned` the inventory does not hold yet (by identity); empty when it would not grow. */
export function missingFrom(inventory: Inventory, planned: Inventory): Inventory {
  const have = new Set(inventory.map(identityKey));
  const out = new Map<string, ObjectRef>();
  for (const r of planned) if (!have.has(identityKey(r))) out.set(identityKey(r), r);
  return [...out.values()];
}

/**
 * The inventory file with `planned` (what this pass is about to apply) added to its pending entries; null when it
 * already names them all. Written before the apply, so a process killed between the apply and its status commit
 * still leaves every object it may have created in the inventory, where a later pass can prune it. Entries that
 * never got created cost nothing: pruning finds them gone (404) or not ours and drops them.
 */
export function growInventoryFile(text: string | undefined, planned: Inventory): string | null {
  const file = parseInventoryFile(text);
  const added = missingFrom([...file.objects, ...(file.pending ?? [])], planned);
  if (added.length === 0) return null;
  const { objects, ...record } = file;
  return serializeInventory(objects, { ...record, pending: [...(file.pending ?? []), ...added] });
}

/** Where the status branch keeps each cluster's inventory; written by statuses/writeStatus.ts. */
export function inventoryPath(cluster: string): string {
  return `inventories/${cluster}.json`;
}
