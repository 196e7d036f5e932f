import { buildCommit } from '../commits/buildCommit.ts';
import { PackWriter } from '../commits/PackWriter.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readRef } from '../commits/readRef.ts';
import { RefConflictError } from '../commits/RefConflictError.ts';
import { flotillaIdentity, type GitRepo } from '../commits/types.ts';
import { updateRef } from '../commits/updateRef.ts';
import { writeTreeEdits } from '../commits/writeTreeEdits.ts';
import { parseBranchFile } from '../errors/parseBranchFile.ts';
import { readTextFiles } from '../outputs/readPathOids.ts';
import { growInventoryFile, type Inventory } from './inventory.ts';

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
}): Promise<PlannedInventoryResult> {
  const maxAttempts = opts.maxAttempts ?? 20;
  for (let attempt = 1; ; attempt++) {
    const head = await readRef(opts.repo, opts.statusRef);
    const headInfo = head ? await readCommitInfo(opts.repo, head) : null;
    const paths = [...opts.planned.keys()].map((c) => [c, opts.inventoryPath(c)] as const);
    const existing = headInfo ? await readTextFiles(opts.repo, headInfo.tree, paths.map(([, p]) => p)) : new Map<string, string>();
    const edits = new Map<string, string>();
    const grown: string[] = [];
    for (const [cluster, path] of paths) {
      const text = parseBranchFile(opts.statusRef, path, () => growInventoryFile(existing.get(path), opts.planned.get(cluster)!));
      if (text === null) continue;
      edits.set(path, text);
      grown.push(cluster);
    }
    if (edits.size === 0) return { commit: null, clusters: [] };

    const pack = new PackWriter(opts.repo);
    const tree = await writeTreeEdits(opts.repo, pack, headInfo?.tree ?? null, edits);
    const time = (opts.now ?? (() => new Date()))();
    const identity = flotillaIdentity(time);
    const message = `Inventory planned for ${grown.join(', ')}`.slice(0, 200)
      + `\n\nRecorded before applying rendered commit ${opts.renderedCommit}, so whatever that apply creates can be pruned`
      + `\nlater even if this process stops before its status commit.\n`;
    const commit = buildCommit(pack, { tree, parents: head ? [head] : [], message, author: identity, committer: identity });
    await pack.flush();
    try {
      await updateRef(opts.repo, opts.statusRef, commit, head ?? null);
      return { commit, clusters: grown };
    } catch (err) {
      if (!(err instanceof RefConflictError) || attempt >= maxAttempts) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 5 * 2 ** attempt)));
    }
  }
}
