import { readTree } from '../commits/readTree.ts';
import { isTreeMode } from '../commits/types.ts';
import type { Fleet } from '../views/readFleet.ts';

/**
 * The tree oid of each cluster's folder at the rendered head: a cluster whose applied record names the same tree
 * has nothing newer waiting (what blame calls up to date). Two tree reads, whatever the fleet's size.
 */
export async function readClusterFolders(fleet: Fleet): Promise<Map<string, string>> {
  if (!fleet.rendered) return new Map();
  const root = await readTree(fleet.repo, fleet.rendered.commit.tree);
  const clusters = root.find((e) => e.name === 'clusters' && isTreeMode(e.mode));
  if (!clusters) return new Map();
  return new Map(
    (await readTree(fleet.repo, clusters.oid)).filter((e) => isTreeMode(e.mode)).map((e) => [e.name, e.oid]),
  );
}
