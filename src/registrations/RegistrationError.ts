/**
 * A cluster operation that cannot be done as asked: unknown cluster, name taken, bad taint, a work tree
 * that would be clobbered. The message names the file (and line when known) and says how to fix it.
 */
export type RegistrationErrorCode =
  | 'CLUSTER_NOT_FOUND'
  | 'CLUSTER_EXISTS'
  | 'BAD_TAINT'
  | 'TAINT_EXISTS'
  | 'TAINT_NOT_FOUND'
  | 'BAD_KUBECONFIG'
  | 'WORKTREE_DIRTY'
  | 'BAD_CLUSTER_FILE'
  | 'BAD_NAME'
  | 'NO_SOURCE_BRANCH'
  | 'PULL_MODE_CLUSTER';

export class RegistrationError extends Error {
  readonly code: RegistrationErrorCode;

  constructor(code: RegistrationErrorCode, message: string) {
    super(message);
    this.name = 'RegistrationError';
    this.code = code;
  }
}
