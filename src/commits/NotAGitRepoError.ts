/** Thrown by openRepo when the path holds neither a .git directory nor a bare repository. */
export class NotAGitRepoError extends Error {
  readonly code = 'NOT_A_GIT_REPO' as const;
  readonly data: { path: string };

  constructor(path: string, detail: string) {
    super(`${path} is not a git repository (${detail}); fix: run \`git init\` there or point at the repository root`);
    this.name = 'NotAGitRepoError';
    this.data = { path };
  }
}
