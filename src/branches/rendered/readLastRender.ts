import { readCommitInfo } from '../../commits/readCommitInfo.ts';
import { readRef } from '../../commits/readRef.ts';
import type { CommitInfo, GitRepo } from '../../commits/types.ts';
import { parseTrailers } from './trailers.ts';

export interface LastRender {
  /** The output branch head: the next output commit's parent and the tree it edits. null: no branch yet. */
  head: CommitInfo | null;
  /**
   * The newest commit from the head back along first parents that Flotilla wrote (it has a Source-Commit trailer):
   * what the previous source, the cluster state and the output index are read from. It is the head unless someone
   * committed on the output branch by hand; null when no commit within reach was written by Flotilla.
   */
  rendered: CommitInfo | null;
  /** Its Source-Commit trailer. */
  source: string | undefined;
}

/**
 * Where the next render continues from. A hand-made commit on the output branch carries no trailer: reading only
 * the head would lose the previous source, so an emptied source would not be held and the render would start over.
 */
export async function readLastRender(repo: GitRepo, outputRef: string, maxCommits = 1_000): Promise<LastRender> {
  const headOid = await readRef(repo, outputRef);
  return headOid ? readLastRenderAt(repo, headOid, maxCommits) : { head: null, rendered: null, source: undefined };
}

/** readLastRender from a given output commit (one being applied) rather than the branch head. */
export async function readLastRenderAt(repo: GitRepo, headOid: string, maxCommits = 1_000): Promise<LastRender> {
  const head = await readCommitInfo(repo, headOid);
  let cursor: CommitInfo | undefined = head;
  for (let n = 0; cursor && n < maxCommits; n++) {
    const source = parseTrailers(cursor.message)['Source-Commit'];
    if (source) return { head, rendered: cursor, source };
    cursor = cursor.parents[0] ? await readCommitInfo(repo, cursor.parents[0]) : undefined;
  }
  return { head, rendered: null, source: undefined };
}
