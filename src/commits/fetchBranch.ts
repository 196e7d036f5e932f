import git from 'isomorphic-git';
import { gitHttp } from './gitHttp.ts';
import { parseRemoteUrl, redactedError, redactUrlsIn } from './remoteUrl.ts';
import type { GitRepo } from './types.ts';

/**
 * Fetches one branch of the repository at `url` (smart HTTP) into a repo made by openMirror and points the same branch here at it, as a mirror
 * does: the local branch is whatever the remote has, even when that rewinds it. Only that branch's new objects
 * are transferred. Returns its commit, or null when the remote has no such branch (the local branch is then removed).
 */
export async function fetchBranch(repo: GitRepo, url: string, branch: string): Promise<string | null> {
  const ref = `refs/heads/${branch}`;
  const remote = parseRemoteUrl(url);
  let oid: string | null;
  try {
    const fetched = await git.fetch({
      fs: repo.fs,
      http: gitHttp(),
      gitdir: repo.gitdir,
      cache: repo.cache,
      remote: 'origin',
      url: remote.url,
      onAuth: remote.onAuth,
      // `ref` names the local branch whose tip is offered as "have"; `remoteRef` the one wanted.
      ref: branch,
      remoteRef: ref,
      singleBranch: true,
      tags: false,
    });
    oid = fetched.fetchHead;
  } catch (err) {
    const e = err as { code?: string; data?: { what?: string } };
    if (e.code !== 'NotFoundError') throw redactedError(err);
    // isomorphic-git also fails this way when the remote's HEAD names a branch that does not exist.
    if (e.data?.what !== ref)
      throw new Error(
        `fetching ${branch} from ${remote.shown}: ${redactUrlsIn((err as Error).message)}; fix: point the remote's HEAD at an existing branch (on the server: git symbolic-ref HEAD refs/heads/main)`,
      );
    oid = null;
  }
  if (oid) await git.writeRef({ fs: repo.fs, gitdir: repo.gitdir, ref, value: oid, force: true });
  else await git.deleteRef({ fs: repo.fs, gitdir: repo.gitdir, ref }).catch(() => undefined);
  return oid;
}
