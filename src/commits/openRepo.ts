import nodeFs from 'node:fs';
import path from 'node:path';
import { NotAGitRepoError } from './NotAGitRepoError.ts';
import type { GitRepo } from './types.ts';

/**
 * Opens the repository at `repoPath`: a work tree with `.git/` (or a `.git` file pointing
 * elsewhere, as in submodules) or a bare repository. Does not search parent directories.
 */
export async function openRepo(repoPath: string, fs: typeof nodeFs = nodeFs): Promise<GitRepo> {
  const root = path.resolve(repoPath);
  const dotGit = path.join(root, '.git');
  const dotGitStat = await fs.promises.stat(dotGit).catch(() => null);
  if (dotGitStat?.isDirectory()) {
    await assertGitdir(fs, root, dotGit);
    return { dir: root, gitdir: dotGit, bare: false, fs, cache: {} };
  }
  if (dotGitStat?.isFile()) {
    const text = await fs.promises.readFile(dotGit, 'utf8');
    const match = /^gitdir: (.+)$/m.exec(text);
    if (!match?.[1]) throw new NotAGitRepoError(root, '.git is a file without a "gitdir:" line');
    const gitdir = path.resolve(root, match[1].trim());
    await assertGitdir(fs, root, gitdir);
    return { dir: root, gitdir, bare: false, fs, cache: {} };
  }
  await assertGitdir(fs, root, root);
  return { dir: root, gitdir: root, bare: true, fs, cache: {} };
}

async function assertGitdir(fs: typeof nodeFs, root: string, gitdir: string): Promise<void> {
  const kinds = await Promise.all(
    ['HEAD', 'objects', 'refs'].map((name) => fs.promises.stat(path.join(gitdir, name)).catch(() => null)),
  );
  const [head, objects, refs] = kinds;
  if (!head?.isFile() || !objects?.isDirectory() || !refs?.isDirectory()) {
    const missing = ['HEAD', 'objects/', 'refs/'].filter((_, i) => !kinds[i]);
    throw new NotAGitRepoError(
      root,
      missing.length ? `no ${missing.join(', ')} in ${gitdir}` : `${gitdir} is malformed`,
    );
  }
}
