import type { ResourceBinding } from '../api/binding.ts';
import type { Condition } from '../api/cluster.ts';
import { describeRef, parseRefKey, refKey, type ObjectRef } from '../api/kinds.ts';
import { bindingPath } from '../branches/rendered/outputPaths.ts';
import { inventoryPath, parseInventoryFile } from '../branches/status/inventory.ts';
import { isAwaitingApply, type TemplateStatusFile } from '../branches/status/statusFiles.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import { readTextFiles } from '../commits/readPathOids.ts';
import { parseYamlValues } from '../yaml/blockYaml.ts';
import type { Problem } from '../errors/problem.ts';
import { readDocuments, type Fleet } from '../views/readFleet.ts';
import { readClusterViews } from '../views/readListing.ts';
import { headsOf, type Heads } from './readFleetView.ts';

/** What a person should look at, worst first. Each item names the object (refKey) or cluster it links to. */
export interface AttentionItem {
  type:
    | 'validation-error'
    | 'apply-failed'
    | 'conflict'
    | 'cluster-not-ready'
    | 'prune-held'
    | 'unschedulable'
    | 'eviction';
  /** The template the item is about, as a refKey; absent for a cluster-wide item. */
  key?: string;
  cluster?: string;
  /** One line, as the CLI would print it. */
  title: string;
  message: string;
  /** A validation error's place in the source. */
  source?: { file: string; line: number; column: number };
}

export interface AttentionView {
  heads: Heads;
  items: AttentionItem[];
}

const ORDER: AttentionItem['type'][] = [
  'validation-error',
  'cluster-not-ready',
  'apply-failed',
  'conflict',
  'prune-held',
  'unschedulable',
  'eviction',
];

/** The source head's validation errors as attention items, each at its file, line and column. Pure. */
export function validationItems(problems: readonly Problem[]): AttentionItem[] {
  return problems
    .filter((p) => p.severity === 'error')
    .map((p) => ({
      type: 'validation-error' as const,
      title: `${p.file}:${p.line}:${p.column} ${p.code}`,
      message: `${p.message} (fix: ${p.fix})`,
      source: { file: p.file, line: p.line, column: p.column },
    }));
}

/** Per status-branch template file: the blob last read and the failed applies it recorded. */
export type FailedAppliesCache = Map<string, { oid: string; items: AttentionItem[] }>;

/** The failed and conflicting applies one template status file records. Pure. */
function failedApplies(blob: Uint8Array | undefined): AttentionItem[] {
  let file: TemplateStatusFile | undefined;
  try {
    file = blob ? (parseYamlValues(new TextDecoder().decode(blob))[0] as TemplateStatusFile | undefined) : undefined;
  } catch {
    return []; // a broken file: validate and the status writer report it
  }
  if (!file?.aggregatedStatus) return [];
  const ref: ObjectRef = {
    apiVersion: file.apiVersion,
    kind: file.kind,
    namespace: file.metadata?.namespace ?? '',
    name: file.metadata?.name,
  };
  return file.aggregatedStatus
    .filter((a) => !a.applied && !isAwaitingApply(a))
    .map((a) => {
      const conflict = /conflict/i.test(a.message ?? '');
      return {
        type: conflict ? ('conflict' as const) : ('apply-failed' as const),
        key: refKey(ref),
        cluster: a.clusterName,
        title: `${describeRef(ref)} on ${a.clusterName}: ${conflict ? 'conflict' : 'not applied'}`,
        message: a.message ?? '',
      };
    });
}

/**
 * Gathers the needs-attention list from the three branches: `earlier` first (the source head's validation errors,
 * from the same in-memory render explain uses), then members not Ready, failed or conflicting applies and held
 * prunes (status branch), unschedulable bindings and graceful evictions in progress (rendered index and bindings).
 */
export async function readAttention(
  fleet: Fleet,
  earlier: readonly AttentionItem[] = [],
  failures: FailedAppliesCache = new Map(),
): Promise<AttentionView> {
  const items: AttentionItem[] = [...earlier];
  const views = await readClusterViews(fleet);
  for (const [name, v] of views) {
    const ready = v.cluster.status?.conditions?.find((c: Condition) => c.type === 'Ready');
    if (ready && ready.status !== 'True')
      items.push({
        type: 'cluster-not-ready',
        cluster: name,
        title: `${name} Ready=${ready.status}${ready.reason ? ` (${ready.reason})` : ''}`,
        message: `${ready.message ?? ''}${ready.lastTransitionTime ? ` since ${ready.lastTransitionTime}` : ''}`.trim(),
      });
  }
  // A failed or conflicting apply is counted in the cluster's applied record (`failed`); only when some cluster has
  // one are the template status files read, one per template, to find which objects they are: at 10,000 templates
  // only the files whose blob changed since the last read (`failures`, kept by the caller across heads).
  const failing = [...views.values()].some((v) => (v.applied?.failed ?? 0) > 0);
  if (fleet.status && failing) {
    const listed = await fleet.status.list('templates');
    const current: FailedAppliesCache = new Map();
    for (const [path, f] of listed) {
      const known = failures.get(path);
      if (known?.oid === f.oid) current.set(path, known);
    }
    const fresh = [...listed].filter(([path]) => !current.has(path));
    const blobs = await readBlobs(
      fleet.repo,
      fresh.map(([, f]) => f.oid),
    );
    for (const [path, f] of fresh) current.set(path, { oid: f.oid, items: failedApplies(blobs.get(f.oid)) });
    failures.clear();
    for (const [path, known] of current) failures.set(path, known);
    for (const path of listed.keys()) items.push(...current.get(path)!.items);
  }
  if (fleet.status) {
    const inventories = await readTextFiles(fleet.repo, fleet.status.commit.tree, [...views.keys()].map(inventoryPath));
    for (const [, text] of inventories) {
      let held;
      try {
        held = parseInventoryFile(text).held ?? [];
      } catch {
        continue; // a newer writer's inventory: its own reader shows it
      }
      for (const h of held)
        items.push({
          type: 'prune-held',
          cluster: h.cluster,
          ...(h.refs.length === 1 ? { key: h.refs[0]! } : {}),
          title: `${h.cluster}: deletion of ${h.refs.length} object(s) held (${h.reason})`,
          message: h.message,
        });
    }
  }
  const templates = (await fleet.rendered?.index.whole())?.templates ?? {};
  const waiting = Object.entries(templates).filter(([, e]) => e.waiting);
  const bindings = fleet.rendered
    ? await readDocuments(
        fleet.repo,
        fleet.rendered,
        waiting.map(([k]) => bindingPath(parseRefKey(k))),
      )
    : new Map();
  for (const [key] of waiting) {
    const ref = parseRefKey(key);
    const binding = bindings.get(bindingPath(ref))?.[0] as ResourceBinding | undefined;
    const scheduled = binding?.status?.conditions?.find((c) => c.type === 'Scheduled');
    if (scheduled?.status === 'True') continue; // waits on status for a filter, but placed
    items.push({
      type: 'unschedulable',
      key,
      title: `${describeRef(ref)}: not scheduled${scheduled?.reason ? ` (${scheduled.reason})` : ''}`,
      message: scheduled?.message ?? 'waiting for cluster status to let it fit',
    });
  }
  for (const [key, e] of Object.entries(templates)) {
    for (const cluster of e.evicting ?? [])
      items.push({
        type: 'eviction',
        key,
        cluster,
        title: `${describeRef(parseRefKey(key))}: graceful eviction from ${cluster} in progress`,
        message: `${cluster} keeps its manifest until the replacement is healthy or the grace period ends`,
      });
  }
  items.sort((a, b) => ORDER.indexOf(a.type) - ORDER.indexOf(b.type));
  return { heads: headsOf(fleet), items };
}
