import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { GitRepo } from '../commits/types.ts';
import { parseBranchFile } from '../errors/parseBranchFile.ts';
import { CLUSTERS_PATH } from '../branches/rendered/outputPaths.ts';
import { parseRegisteredClusters, type RegisteredCluster } from '../branches/rendered/registeredClusters.ts';
import { readTextFiles } from '../commits/readPathOids.ts';

/**
 * The clusters a rendered commit registers (.flotilla/clusters.json); undefined when it has no such file (rendered
 * by a Flotilla that did not write it yet), so a caller cannot tell and must not refuse.
 */
export async function readRegisteredClusters(
  repo: GitRepo,
  renderedCommit: string,
): Promise<RegisteredCluster[] | undefined> {
  const text = (await readTextFiles(repo, (await readCommitInfo(repo, renderedCommit)).tree, [CLUSTERS_PATH])).get(
    CLUSTERS_PATH,
  );
  return text === undefined
    ? undefined
    : parseBranchFile(renderedCommit, CLUSTERS_PATH, () => parseRegisteredClusters(text));
}
