import nodeFs from 'node:fs';
import git from 'isomorphic-git';
import { openRepo } from './openRepo.ts';
import type { GitRepo } from './types.ts';

/**
 * A local bare repository that mirrors branches of the repository at `url`: created on first use, reused after
 * (only new objects are fetched). Its remote "origin" is (re)pointed at `url`, so fetchBranch and pushBranch work.
 */
export async function openMirror(gitdir: string, url: string, fs: typeof nodeFs = nodeFs): Promise<GitRepo> {
  if (!fs.existsSync(`${gitdir}/HEAD`)) {
    await fs.promises.mkdir(gitdir, { recursive: true });
    await git.init({ fs, gitdir, bare: true, defaultBranch: 'main' });
  }
  await git.addRemote({ fs, gitdir, remote: 'origin', url, force: true });
  return openRepo(gitdir, fs);
}
