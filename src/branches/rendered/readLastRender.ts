import { readCommitInfo } from '../../commits/readCommitInfo.ts';
import { readRef } from '../../commits/readRef.ts';
import type { CommitInfo, GitRepo } from '../../commits/types.ts';
import { formatVersionOf } from '../formatVersion.ts';
import { RENDERED_FORMAT_VERSION } from './branch.ts';
import { commitTrailers } from './trailers.ts';

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
    const trailers = commitTrailers(cursor);
    const source = trailers['Source-Commit'];
    if (source) return { head, rendered: checkFormat(cursor, trailers), source };
    cursor = cursor.parents[0] ? await readCommitInfo(repo, cursor.parents[0]) : undefined;
  }
  return { head, rendered: null, source: undefined };
}

/**
 * A rendered commit in a format this Flotilla does not know was written by a newer one: rendering or applying on
 * top of it would mix two formats on the branch, so every reader of the last render stops here instead.
 */
function checkFormat(commit: CommitInfo, trailers: Readonly<Record<string, string>>): CommitInfo {
  const version = formatVersionOf(trailers);
  if (version >= 1 && version <= RENDERED_FORMAT_VERSION) return commit;
  throw new Error(
    `rendered commit ${commit.oid.slice(0, 12)} has Flotilla-Format ${trailers['Flotilla-Format']}; this Flotilla writes and reads format ${RENDERED_FORMAT_VERSION} (docs/BRANCHES.md); fix: run the Flotilla that wrote it, or a newer one`,
  );
}
