import type { GitRepo } from '../commits/types.ts';
import { parseBranchFile } from '../errors/parseBranchFile.ts';
import { commitStatusEdits } from '../branches/status/commitStatusEdits.ts';
import { growInventoryFile, type Inventory } from '../branches/status/inventory.ts';

export interface PlannedInventoryResult {
  /** The status commit holding the grown inventories; null when every inventory already held its plan. */
  commit: string | null;
  /** Clusters whose inventory grew. */
  clusters: string[];
}

/**
 * Commits, before the apply, each cluster's inventory grown by what the apply is about to create (the status
 * branch's inventories/<cluster>.json, by compare-and-swap; on a lost race it re-reads and re-merges). Only growth
 * is written, so a pass that creates nothing new makes no commit, and the status commit after the apply still
 * writes the final inventory (what was really applied) as before.
 */
export async function recordPlannedInventory(opts: {
  repo: GitRepo;
  statusRef: string;
  planned: ReadonlyMap<string, Inventory>;
  /** The rendered commit about to be applied, named in the commit message. */
  renderedCommit: string;
  inventoryPath: (cluster: string) => string;
  now?: () => Date;
  maxAttempts?: number;
  /** The `Replica` trailer (--leader-elect). */
  replica?: string;
}): Promise<PlannedInventoryResult> {
  const paths = [...opts.planned.keys()].map((c) => [c, opts.inventoryPath(c)] as const);
  const done = await commitStatusEdits(
    opts.repo,
    opts.statusRef,
    paths.map(([, p]) => p),
    (existing) => {
      const edits = new Map<string, string>();
      const grown: string[] = [];
      for (const [cluster, path] of paths) {
        const text = parseBranchFile(opts.statusRef, path, () =>
          growInventoryFile(existing.get(path), opts.planned.get(cluster)!),
        );
        if (text === null) continue;
        edits.set(path, text);
        grown.push(cluster);
      }
      const message =
        `Inventory planned for ${grown.join(', ')}`.slice(0, 200) +
        `\n\nRecorded before applying rendered commit ${opts.renderedCommit}, so whatever that apply creates can be pruned` +
        `\nlater even if this process stops before its status commit.\n` +
        (opts.replica ? `\nReplica: ${opts.replica}\n` : '');
      return { edits, message, time: (opts.now ?? (() => new Date()))(), grown };
    },
    opts.maxAttempts,
  );
  return { commit: done.commit, clusters: done.commit ? done.change!.grown : [] };
}
