import { buildCommit } from './buildCommit.ts';
import { diffTrees } from './diffTrees.ts';
import { PackWriter } from './PackWriter.ts';
import { readCommitInfo } from './readCommitInfo.ts';
import type { CommitInfo, GitRepo } from './types.ts';
import { writeTreeEdits, type FileEdit } from './writeTreeEdits.ts';

/**
 * Replays the first-parent commits after `from` (null: from the root) up to `to` onto `onto`: each commit's file changes (the paths it
 * wrote or deleted, with their new blobs) applied to the new base's tree, message and identities kept. What others
 * committed on `onto` to other paths stays; a path both changed ends as the replayed commit wrote it. Returns the new
 * head (`onto` itself when there is nothing to replay). Throws when `from` is not within 100 commits below `to`.
 */
export async function replayCommits(repo: GitRepo, from: string | null, to: string, onto: string): Promise<string> {
  const chain: CommitInfo[] = [];
  for (let oid: string | undefined = to; oid !== from; ) {
    if (oid === undefined) throw new Error(`replay: ${from} is not an ancestor of ${to}`);
    if (chain.length >= 100) throw new Error(`replay: ${from} is not within 100 first-parent commits below ${to}`);
    const info = await readCommitInfo(repo, oid);
    chain.push(info);
    oid = info.parents[0];
    if (oid === undefined && from !== null) throw new Error(`replay: ${from} is not an ancestor of ${to}`);
    if (oid === undefined) break;
  }
  let head = onto;
  for (const commit of chain.reverse()) {
    const parent = commit.parents[0];
    const parentTree = parent ? (await readCommitInfo(repo, parent)).tree : null;
    const edits = new Map<string, FileEdit>();
    for (const change of await diffTrees(repo, parentTree, commit.tree))
      edits.set(change.path, change.newOid ? { blob: change.newOid } : null);
    const pack = new PackWriter(repo);
    const tree = await writeTreeEdits(repo, pack, (await readCommitInfo(repo, head)).tree, edits);
    head = buildCommit(pack, {
      tree,
      parents: [head],
      message: commit.message,
      author: commit.author,
      committer: commit.committer,
    });
    await pack.flush();
  }
  return head;
}
