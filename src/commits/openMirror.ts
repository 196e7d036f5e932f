import nodeFs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import { openRepo } from './openRepo.ts';
import { parseRemoteUrl } from './remoteUrl.ts';
import type { GitRepo } from './types.ts';

/**
 * A local bare repository that mirrors branches of the repository at `url`: created on first use, reused after
 * (only new objects are fetched). Its remote "origin" is (re)pointed at `url`, so fetchBranch and pushBranch work.
 * A credential in `url` is not stored (fetchBranch and pushBranch take it from the URL they are given), and the
 * mirror is readable by its owner only.
 */
export async function openMirror(gitdir: string, url: string, fs: typeof nodeFs = nodeFs): Promise<GitRepo> {
  if (!fs.existsSync(`${gitdir}/HEAD`)) {
    await fs.promises.mkdir(gitdir, { recursive: true, mode: 0o700 });
    await git.init({ fs, gitdir, bare: true, defaultBranch: 'main' });
  }
  await fs.promises.chmod(gitdir, 0o700);
  await git.addRemote({ fs, gitdir, remote: 'origin', url: parseRemoteUrl(url).url, force: true });
  await fs.promises.chmod(path.join(gitdir, 'config'), 0o600);
  return openRepo(gitdir, fs);
}
