import git from 'isomorphic-git';
import { gitHttp } from './gitHttp.ts';
import { parseRemoteUrl, redactedError } from './remoteUrl.ts';
import type { GitRepo } from './types.ts';

export type PushOutcome = 'pushed' | 'rejected';

/**
 * Pushes one local branch to the same branch of the repository at `url` (smart HTTP), fast-forward only.
 * 'rejected' means the remote branch moved since it was last fetched (not a fast-forward, or it changed between
 * the ref advertisement and the update): fetch, rebuild on the new tip and push again. Other failures throw.
 */
export async function pushBranch(repo: GitRepo, url: string, branch: string): Promise<PushOutcome> {
  const ref = `refs/heads/${branch}`;
  const remote = parseRemoteUrl(url);
  try {
    await git.push({
      fs: repo.fs,
      http: gitHttp(),
      gitdir: repo.gitdir,
      cache: repo.cache,
      url: remote.url,
      onAuth: remote.onAuth,
      ref,
      remoteRef: ref,
      force: false,
    });
    return 'pushed';
  } catch (err) {
    const code = (err as { code?: string }).code;
    // PushRejectedError: isomorphic-git saw the advertised tip is not an ancestor. GitPushError: receive-pack
    // refused the update, e.g. the ref no longer held the old value it was told (a concurrent push won).
    if (code === 'PushRejectedError' || code === 'GitPushError') return 'rejected';
    throw redactedError(err);
  }
}
