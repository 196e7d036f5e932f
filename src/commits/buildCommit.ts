import type { PackWriter } from './PackWriter.ts';
import { renderCommit, type CommitFields } from './renderCommit.ts';

/** Adds a commit object to `pack` and returns its oid; deterministic for the same fields. */
export function buildCommit(pack: PackWriter, fields: CommitFields): string {
  return pack.add('commit', renderCommit(fields));
}
