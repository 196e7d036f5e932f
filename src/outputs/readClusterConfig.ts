import type { Cluster } from '../api/cluster.ts';
import type { ClusterTaintPolicy } from '../api/policy.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { GitRepo } from '../commits/types.ts';
import { loadSource } from './loadSource.ts';
import { renderHistoryAt } from './lastGoodKarmada.ts';
import { readLastRender } from '../branches/rendered/readLastRender.ts';
import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
import { commitTrailers, LAST_GOOD_TRAILER } from '../branches/rendered/trailers.ts';
import { sourceLimitsOf, type RenderLimits } from './sourceLimits.ts';

/**
 * Git's Clusters and ClusterTaintPolicies as of the last rendered source commit: what the status writer needs to
 * decide a cluster's managed taints. Only the files holding Karmada objects are read (the output index lists them,
 * and they are parsed once per version). Empty before the first render. A render that held its source commit whole
 * (too large to walk) shows the last good one's: that is the one read, within the render's `limits`.
 */
export async function readClusterConfig(
  repo: GitRepo,
  outputRef: string,
  limits?: RenderLimits,
): Promise<{ clusters: Map<string, Cluster>; taintPolicies: ClusterTaintPolicy[] }> {
  const empty = { clusters: new Map<string, Cluster>(), taintPolicies: [] };
  // Below a hand-made commit on the output branch: the last commit Flotilla wrote, and the source it rendered.
  const { rendered, source } = await readLastRender(repo, outputRef);
  const sourceSha = rendered ? (commitTrailers(rendered)[LAST_GOOD_TRAILER] ?? source) : source;
  const index = rendered && sourceSha ? await openOutputIndex(repo, rendered.tree) : null;
  if (!sourceSha || !index) return empty;
  let tree: string;
  try {
    tree = (await readCommitInfo(repo, sourceSha)).tree;
  } catch {
    return empty; // the source commit is gone (history rewritten): the next render brings it back
  }
  // A cluster or taint policy that render held keeps the last good definition it had from the renders before.
  const below = rendered!.parents[0];
  const history = below ? await renderHistoryAt(repo, below) : null;
  const { model } = await loadSource(repo, tree, { tree, index }, undefined, sourceLimitsOf(limits), history);
  return {
    clusters: new Map([...model.clusters].map(([name, c]) => [name, c.object])),
    taintPolicies: model.clusterTaintPolicies.map((p) => p.object),
  };
}
