// Every problem code a user can see, declared once. The README's "Validation" table explains each.
export const PROBLEM_CODES = [
  'YAML_SYNTAX',
  'YAML_TOO_COMPLEX',
  'FILE_TOO_LARGE',
  'COMMIT_TOO_LARGE',
  'FILE_NOT_TEXT',
  'NOT_AN_OBJECT',
  'MISSING_FIELD',
  'INVALID_VALUE',
  'UNKNOWN_FIELD',
  'INVALID_NAME',
  'DUPLICATE_OBJECT',
  'INLINE_CREDENTIALS',
  'POLICY_NAMESPACE_MISMATCH',
  'POLICY_SELECTS_NOTHING',
  'NO_CLUSTER_FITS',
  'UNSCHEDULABLE',
  'OVERRIDE_FAILED',
  'LUA_NOT_RUN',
  'SOURCE_EMPTY',
  'POLICY_REMOVED',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];
