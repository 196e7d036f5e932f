import { readObject } from './readObject.ts';
import type { CommitInfo, GitIdentity, GitRepo } from './types.ts';

/** Reads and parses one commit object. Throws ObjectNotFoundError (code 'NotFoundError') when it is missing. */
export async function readCommitInfo(repo: GitRepo, sha: string): Promise<CommitInfo> {
  const found = readObject(repo, sha);
  if (found.type !== 'commit') throw new Error(`object ${sha} is a ${found.type}, not a commit`);
  const content = found.content;
  const split = content.indexOf('\n\n');
  if (split < 0) return parseCommit(sha, content.toString('utf8'));
  // The headers now, the message when first asked for: a cold render's message lists thousands of files (~470 KiB
  // at 50,000 templates, with non-ASCII ellipses that make decoding it ~3 ms), and a sync reads only its trailers.
  const info = parseCommit(sha, content.toString('utf8', 0, split));
  const body = content.subarray(split + 2);
  let message: string | undefined;
  Object.defineProperty(info, 'message', {
    get: () => (message ??= body.toString('utf8')),
    enumerable: true,
    configurable: true,
  });
  bodies.set(info, body);
  return info;
}

/** The raw messages of commits read by readCommitInfo, for messageTail. */
const bodies = new WeakMap<CommitInfo, Buffer>();

/**
 * The end of a commit's message from a line start at most `maxBytes` before its end, decoded alone (a line start,
 * so no character is cut); the whole message when it is shorter or was not read by readCommitInfo.
 */
export function messageTail(commit: CommitInfo, maxBytes: number): string {
  const body = bodies.get(commit);
  if (!body || body.length <= maxBytes) return commit.message;
  const start = body.indexOf(0x0a, body.length - maxBytes - 1) + 1;
  return body.toString('utf8', start);
}

/**
 * Headers up to the first empty line, then the message. Continuation lines (a leading space, as in
 * gpgsig or mergetag) belong to the header above and are skipped with it.
 */
export function parseCommit(oid: string, text: string): CommitInfo {
  const split = text.indexOf('\n\n');
  const head = split < 0 ? text : text.slice(0, split);
  const message = split < 0 ? '' : text.slice(split + 2);
  let tree = '';
  const parents: string[] = [];
  let author: GitIdentity | undefined;
  let committer: GitIdentity | undefined;
  for (const line of head.split('\n')) {
    const space = line.indexOf(' ');
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === 'tree') tree = value;
    else if (key === 'parent') parents.push(value);
    else if (key === 'author') author = parseIdentity(value);
    else if (key === 'committer') committer = parseIdentity(value);
  }
  if (!tree || !author || !committer)
    throw new Error(`commit ${oid} is malformed: it lacks a tree, author or committer line`);
  return { oid, tree, parents, message, author, committer };
}

/** `Name <email> 1700000000 +0530`; the offset is stored the way Date#getTimezoneOffset has it (+0530 = -330). */
function parseIdentity(value: string): GitIdentity {
  const m = /^(.*?) ?<([^>]*)> (-?\d+) ([+-])(\d\d)(\d\d)$/.exec(value);
  if (!m) return { name: value, email: '', timestamp: 0, timezoneOffset: 0 };
  const minutes = Number(m[5]) * 60 + Number(m[6]);
  return {
    name: m[1]!,
    email: m[2]!,
    timestamp: Number(m[3]),
    timezoneOffset: m[4] === '-' ? minutes : minutes === 0 ? 0 : -minutes,
  };
}
