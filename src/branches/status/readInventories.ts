import { listFolderFiles } from '../../commits/listFolderFiles.ts';
import { readBlobs } from '../../commits/readBlobs.ts';
import { readCommitInfo } from '../../commits/readCommitInfo.ts';
import { readRef } from '../../commits/readRef.ts';
import type { GitRepo } from '../../commits/types.ts';
import { parseBranchFile } from '../../errors/parseBranchFile.ts';
import { inventoryPath, parseInventoryFile, type DeliveryRecord, type Inventory } from './inventory.ts';

/** Each given cluster's inventory file on the status branch (absent when it has none). */
export async function readInventories(
  repo: GitRepo,
  statusRef: string,
  clusters: string[],
): Promise<Map<string, DeliveryRecord & { objects: Inventory }>> {
  const out = new Map<string, DeliveryRecord & { objects: Inventory }>();
  const head = await readRef(repo, statusRef);
  if (!head) return out;
  const files = await listFolderFiles(
    repo,
    (await readCommitInfo(repo, head)).tree,
    inventoryPath('x').replace(/[^/]*$/, ''),
  );
  const wanted = clusters.map((c) => [c, files.get(inventoryPath(c))?.oid] as const).filter(([, oid]) => oid);
  const blobs = await readBlobs(
    repo,
    wanted.map(([, oid]) => oid!),
  );
  const decoder = new TextDecoder();
  for (const [cluster, oid] of wanted) {
    out.set(
      cluster,
      parseBranchFile(statusRef, inventoryPath(cluster), () => parseInventoryFile(decoder.decode(blobs.get(oid!)!))),
    );
  }
  return out;
}
