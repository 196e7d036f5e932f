import type { GitIdentity } from './types.ts';

export interface CommitFields {
  tree: string;
  parents: readonly string[];
  /** Stored verbatim; git's tools end messages with '\n' (`git commit-tree -m x` stores "x\n"). */
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
}

/** Serialises a commit object body. Pure: the same fields always give the same bytes, hence the same oid. */
export function renderCommit(fields: CommitFields): Uint8Array {
  for (const oid of [fields.tree, ...fields.parents]) {
    if (!/^[0-9a-f]{40}$/.test(oid)) throw new Error(`commit: not a full lowercase sha: ${JSON.stringify(oid)}`);
  }
  const lines = [`tree ${fields.tree}`, ...fields.parents.map((p) => `parent ${p}`)];
  lines.push(`author ${renderIdentity(fields.author)}`, `committer ${renderIdentity(fields.committer)}`);
  return Buffer.from(`${lines.join('\n')}\n\n${fields.message}`, 'utf8');
}

function renderIdentity(who: GitIdentity): string {
  // fsck rejects angle brackets and newlines inside either field, since they delimit the line.
  if (/[<>\n]/.test(who.name) || /[<>\n]/.test(who.email)) {
    throw new Error(`commit: name and email must not contain '<', '>' or newlines: ${JSON.stringify(who)}`);
  }
  if (!Number.isInteger(who.timestamp) || !Number.isInteger(who.timezoneOffset)) {
    throw new Error(`commit: timestamp and timezoneOffset must be integers: ${JSON.stringify(who)}`);
  }
  // timezoneOffset follows Date#getTimezoneOffset: -120 means UTC+02:00, written "+0200".
  const east = -who.timezoneOffset;
  const abs = Math.abs(east);
  const tz = `${east < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  return `${who.name} <${who.email}> ${who.timestamp} ${tz}`;
}
