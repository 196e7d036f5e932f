import { parse } from 'yaml';
import { listTreeFiles } from '../commits/listTreeFiles.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readRef } from '../commits/readRef.ts';
import type { GitRepo } from '../commits/types.ts';
import { parseTrailers } from '../outputs/outputMessage.ts';
import { clusterFolder } from '../works/outputPaths.ts';
import { applyClusterFolder, mapLimit, type ClusterApplyReport } from './applyClusterFolder.ts';
import { parseInventory, type Inventory } from './inventory.ts';
import type { KubeTarget } from './KubeTarget.ts';
import type { RetryPolicy } from './sendRequest.ts';
import type { ConflictResolution } from './types.ts';

export const DEFAULT_STATUS_REF = 'refs/heads/flotilla/status';

/** Where the status branch keeps each cluster's inventory; written by statuses/writeStatus.ts. */
export function inventoryPath(cluster: string): string {
  return `inventories/${cluster}.json`;
}

export interface ApplyRenderedOptions {
  repo: GitRepo;
  /** The rendered branch, e.g. refs/heads/flotilla/rendered. */
  outputRef: string;
  /** A commit of the rendered branch; its head when absent. */
  commit?: string;
  /** Member name → connection. Only these clusters are applied; other folders are left alone. */
  clusters: ReadonlyMap<string, KubeTarget>;
  /** Clusters applied at the same time. Default 4. */
  concurrency?: number;
  /** Branch holding the inventories. Default refs/heads/flotilla/status. */
  statusRef?: string;
  conflictResolution?: ConflictResolution;
  fieldManager?: string;
  retry?: RetryPolicy;
  /** Objects in flight per cluster. Default 8. */
  objectConcurrency?: number;
  crdEstablishTimeoutMs?: number;
}

export interface ClusterDelivery extends ClusterApplyReport {
  /** The inventory this pass started from (the status stage removes the status entries of objects that left it). */
  previousInventory: Inventory;
  durationMs: number;
}

export interface RenderedDelivery {
  renderedCommit: string;
  /** The Source-Commit trailer of the rendered commit. */
  sourceCommit: string | undefined;
  clusters: Map<string, ClusterDelivery>;
}

/**
 * Applies the rendered branch at one commit to every given member: each cluster's folder is read from Git, then
 * the clusters are applied in parallel (at most `concurrency` at once). A cluster that fails, however it fails,
 * ends as a report with failed results; it never stops or delays the others beyond its own slot.
 */
export async function applyRendered(opts: ApplyRenderedOptions): Promise<RenderedDelivery> {
  const commit = opts.commit ?? (await readRef(opts.repo, opts.outputRef));
  if (!commit) throw new Error(`rendered branch ${opts.outputRef} does not exist; fix: run flotilla render first`);
  const info = await readCommitInfo(opts.repo, commit);
  const files = await listTreeFiles(opts.repo, info.tree);
  const inventories = await readInventories(opts.repo, opts.statusRef ?? DEFAULT_STATUS_REF, [...opts.clusters.keys()]);

  const names = [...opts.clusters.keys()].sort();
  const reports = await mapLimit(names, opts.concurrency ?? 4, async (name): Promise<ClusterDelivery> => {
    const started = Date.now();
    const previousInventory = inventories.get(name) ?? [];
    try {
      const folder = await readClusterFolder(opts.repo, files, name);
      const report = await applyClusterFolder({
        cluster: name,
        manifests: folder.manifests,
        kube: opts.clusters.get(name)!,
        inventory: previousInventory,
        prune: folder.complete,
        conflictResolution: opts.conflictResolution,
        fieldManager: opts.fieldManager,
        retry: opts.retry,
        concurrency: opts.objectConcurrency,
        crdEstablishTimeoutMs: opts.crdEstablishTimeoutMs,
      });
      report.results.unshift(...folder.unreadable);
      report.notes.unshift(...folder.notes);
      return { ...report, previousInventory, durationMs: Date.now() - started };
    } catch (err) {
      // A bug or an unreadable blob: this cluster reports the failure, the others carry on.
      const message = err instanceof Error ? err.message : String(err);
      return { cluster: name, results: [], inventory: previousInventory, writes: 0, notes: [`apply failed: ${message}`], previousInventory, durationMs: Date.now() - started };
    }
  });
  return { renderedCommit: commit, sourceCommit: parseTrailers(info.message)['Source-Commit'], clusters: new Map(reports.map((r) => [r.cluster, r])) };
}

async function readClusterFolder(repo: GitRepo, files: Map<string, { oid: string }>, cluster: string) {
  const prefix = clusterFolder(cluster);
  const paths = [...files.keys()].filter((p) => p.startsWith(prefix) && p.endsWith('.yaml'));
  const notes: string[] = [];
  const manifests = new Map<string, unknown>();
  const unreadable: ClusterApplyReport['results'] = [];
  if (paths.length === 0) {
    // Git stores no empty folders: a missing folder may mean "nothing for this cluster" or a broken render.
    // Deleting everything on a guess is the one mistake that cannot be undone, so nothing is pruned.
    notes.push(`${prefix} is missing from the rendered commit; nothing applied and nothing pruned`);
    return { manifests, complete: false, notes, unreadable };
  }
  const blobs = await readBlobs(repo, paths.map((p) => files.get(p)!.oid));
  const decoder = new TextDecoder();
  for (const p of paths) {
    try {
      manifests.set(p, parse(decoder.decode(blobs.get(files.get(p)!.oid)!)));
    } catch (err) {
      unreadable.push({ ref: { apiVersion: '', kind: '', namespace: '', name: '' }, path: p, action: 'failed', message: `unreadable YAML: ${(err as Error).message}` });
    }
  }
  if (unreadable.length > 0) notes.push(`${unreadable.length} file(s) under ${prefix} could not be parsed; pruning skipped`);
  return { manifests, complete: unreadable.length === 0, notes, unreadable };
}

async function readInventories(repo: GitRepo, statusRef: string, clusters: string[]): Promise<Map<string, Inventory>> {
  const out = new Map<string, Inventory>();
  const head = await readRef(repo, statusRef);
  if (!head) return out;
  const files = await listTreeFiles(repo, (await readCommitInfo(repo, head)).tree);
  const wanted = clusters.map((c) => [c, files.get(inventoryPath(c))?.oid] as const).filter(([, oid]) => oid);
  const blobs = await readBlobs(repo, wanted.map(([, oid]) => oid!));
  const decoder = new TextDecoder();
  for (const [cluster, oid] of wanted) out.set(cluster, parseInventory(decoder.decode(blobs.get(oid!)!)));
  return out;
}
