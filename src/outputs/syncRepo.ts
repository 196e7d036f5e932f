import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readRef } from '../commits/readRef.ts';
import type { GitRepo } from '../commits/types.ts';
import { parseTrailers } from './outputMessage.ts';
import { renderRevision, type RenderReport, type RenderTarget } from './renderRevision.ts';

export interface SyncOptions extends RenderTarget {
  sourceRef: string;
  /** Called after each rendered commit: progress for long catch-ups. */
  onRendered?: (report: RenderReport, position: number, total: number) => void;
  /** Upper bound on commits walked back when looking for the last rendered one. Default 10,000. */
  maxCommits?: number;
}

export interface SyncResult {
  /** Oldest first. */
  reports: RenderReport[];
  /** The last rendered source commit was not an ancestor of the branch: history was rewritten. */
  forcePushed: boolean;
}

/**
 * Renders every source commit not rendered yet, oldest first, each on top of the previous output, so
 * the output history has one commit per source commit. The last rendered commit is found from the
 * Source-Commit trailer of the output branch. After a force-push (that commit is no longer an ancestor)
 * only the new head is rendered: the rewritten commits never existed for the output.
 */
export async function syncRepo(repo: GitRepo, opts: SyncOptions): Promise<SyncResult> {
  const head = await readRef(repo, opts.sourceRef);
  if (!head) {
    throw Object.assign(new Error(`source branch ${opts.sourceRef} does not exist: nothing to render, and nothing was changed; fix: push a commit to it, or pass --source-branch`), { code: 'SOURCE_BRANCH_MISSING' });
  }
  const outputHead = await readRef(repo, opts.outputRef);
  const last = outputHead ? parseTrailers((await readCommitInfo(repo, outputHead)).message)['Source-Commit'] : undefined;

  const pending: string[] = [];
  let forcePushed = false;
  if (last !== head) {
    let cursor: string | undefined = head;
    const limit = opts.maxCommits ?? 10_000;
    while (cursor && cursor !== last && pending.length < limit) {
      pending.push(cursor);
      cursor = (await readCommitInfo(repo, cursor)).parents[0];
    }
    if (last && cursor !== last) {
      forcePushed = true;
      pending.splice(1); // keep the head only
    } else if (!last) {
      pending.splice(1); // first render: the head alone, not the whole history
    }
  }
  const reports: RenderReport[] = [];
  const order = pending.reverse();
  for (const [i, sha] of order.entries()) {
    const report = await renderRevision(repo, sha, opts);
    reports.push(report);
    opts.onRendered?.(report, i + 1, order.length);
  }
  return { reports, forcePushed };
}
