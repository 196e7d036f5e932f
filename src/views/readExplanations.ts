import type { ObservedCluster } from '../api/cluster.ts';
import { resolveRev } from '../commits/resolveRev.ts';
import type { GitRepo } from '../commits/types.ts';
import { DEFAULT_STATUS_REF } from '../branches/status/branch.ts';
import { readObservedClusters } from '../branches/status/readStatusBranch.ts';
import { statusBranchAutoscaled } from '../outputs/autoscaledTemplates.ts';
import { readOutputBranch } from '../outputs/previousOutputs.ts';
import { renderSnapshot, type SnapshotPrevious } from '../outputs/renderSnapshot.ts';
import type { RenderLimits } from '../outputs/sourceLimits.ts';

export interface ExplanationRequest {
  /** Source revision. */
  rev: string;
  outputRef: string;
  /** The previous result to schedule against; default: what the output branch held before `rev` was rendered. */
  previous?: SnapshotPrevious;
  /** The cluster state; default: the status branch. With it given, no FederatedHPA decisions are read either. */
  clusterStatus?: ReadonlyMap<string, ObservedCluster>;
  now: Date;
  /** The operator's --max-source-files and --max-output-bytes, so the answer is the render's at that size. */
  limits?: RenderLimits;
}

/**
 * Why every template of `rev` went where it went (`flotilla explain`, the dashboard's object view): the commit
 * rendered in memory against the previous result render and sync schedule against (steady mode), so the answer is
 * theirs. Nothing is written.
 */
export async function readExplanations(repo: GitRepo, req: ExplanationRequest) {
  const previous = req.previous ?? (await readOutputBranch(repo, req.outputRef, await resolveRev(repo, req.rev)));
  return renderSnapshot(
    repo,
    req.rev,
    previous,
    req.clusterStatus ?? (await readObservedClusters(repo, DEFAULT_STATUS_REF)),
    req.now,
    undefined,
    req.clusterStatus ? new Map() : await statusBranchAutoscaled(repo),
    req.limits,
  );
}
