/** Thrown by resolveRev when a revision names no commit, or an abbreviated sha matches several objects. */
export class RevNotFoundError extends Error {
  readonly code: 'REV_NOT_FOUND' | 'REV_AMBIGUOUS';
  readonly data: { rev: string; reason: string };

  constructor(rev: string, reason: string, ambiguous = false) {
    super(
      `revision "${rev}" ${ambiguous ? 'is ambiguous' : 'not found'}: ${reason}; fix: ${ambiguous ? 'give more characters of the sha' : 'name a branch, tag or commit that exists (git branch -a, git log --oneline)'}`,
    );
    this.name = 'RevNotFoundError';
    this.code = ambiguous ? 'REV_AMBIGUOUS' : 'REV_NOT_FOUND';
    this.data = { rev, reason };
  }
}
