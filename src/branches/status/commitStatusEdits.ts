import { buildCommit } from '../../commits/buildCommit.ts';
import { PackWriter } from '../../commits/PackWriter.ts';
import { readCommitInfo } from '../../commits/readCommitInfo.ts';
import { readRef } from '../../commits/readRef.ts';
import { RefConflictError } from '../../commits/RefConflictError.ts';
import { flotillaIdentity, type GitRepo } from '../../commits/types.ts';
import { updateRef } from '../../commits/updateRef.ts';
import { writeTreeEdits, type FileEdit } from '../../commits/writeTreeEdits.ts';
import { readTextFiles } from '../../commits/readPathOids.ts';
import { withFormatTrailer } from '../formatVersion.ts';
import { STATUS_FORMAT_VERSION } from './branch.ts';

/** What one attempt commits: the edits made against the files read, and the commit's message and time. */
export interface StatusEdits {
  edits: ReadonlyMap<string, FileEdit>;
  message: string;
  time: Date;
}

/**
 * One commit on a branch several writers share (the status branch: status passes, Pull agents, planned inventories).
 * Reads the files at `paths` in the branch head, asks `change` for the edits to make against them (null: nothing to
 * commit), commits them as Flotilla and moves the branch by compare-and-swap. When another writer got there first it
 * backs off with jitter, so writers do not collide in step, and starts over from the new head: nobody's update is lost.
 */
export async function commitStatusEdits<T extends StatusEdits>(
  repo: GitRepo,
  ref: string,
  paths: readonly string[],
  change: (existing: ReadonlyMap<string, string>) => T | null,
  maxAttempts = 20,
): Promise<{ commit: string | null; change: T | null; attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    const head = await readRef(repo, ref);
    const headInfo = head ? await readCommitInfo(repo, head) : null;
    const existing = headInfo ? await readTextFiles(repo, headInfo.tree, paths) : new Map<string, string>();
    const made = change(existing);
    if (!made || made.edits.size === 0) return { commit: null, change: made, attempts: attempt };
    const pack = new PackWriter(repo);
    const tree = await writeTreeEdits(repo, pack, headInfo?.tree ?? null, made.edits);
    const identity = flotillaIdentity(made.time);
    const commit = buildCommit(pack, {
      tree,
      parents: head ? [head] : [],
      message: withFormatTrailer(made.message, STATUS_FORMAT_VERSION),
      author: identity,
      committer: identity,
    });
    await pack.flush();
    try {
      await updateRef(repo, ref, commit, head);
      return { commit, change: made, attempts: attempt };
    } catch (err) {
      if (!(err instanceof RefConflictError) || attempt >= maxAttempts) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 5 * 2 ** attempt)));
    }
  }
}
