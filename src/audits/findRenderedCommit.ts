import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readRef } from '../commits/readRef.ts';
import { resolveRev } from '../commits/resolveRev.ts';
import type { CommitInfo, GitRepo } from '../commits/types.ts';
import { parseTrailers } from '../branches/rendered/trailers.ts';

export interface RenderedCommit {
  /** The output commit whose tree is checked: the branch head, or the one --rev names. */
  output: CommitInfo;
  /** The nearest output commit, from `output` back along first parents, that Flotilla wrote. */
  renderedBy: CommitInfo;
  /** Its Source-Commit trailer. */
  source: string;
  /** Commits between renderedBy and output with no Source-Commit trailer: not written by Flotilla. */
  foreign: CommitInfo[];
}

/**
 * Which output commit to check and which source commit it claims to come from. `rev` may name an output
 * commit, or a source commit: then the newest output commit rendered from it. Throws with a code when the
 * branch does not exist or never rendered that revision.
 */
export async function findRenderedCommit(
  repo: GitRepo,
  outputRef: string,
  rev?: string,
  maxCommits = 10_000,
): Promise<RenderedCommit> {
  const head = await readRef(repo, outputRef);
  if (!head)
    throw coded(
      'NO_OUTPUT_BRANCH',
      `output branch ${outputRef.replace('refs/heads/', '')} does not exist: run flotilla render or sync first`,
    );
  let start = head;
  if (rev) {
    const sha = await resolveRev(repo, rev);
    // An output commit is one on the output branch, not any commit whose message has a Source-Commit line: a
    // source commit can carry one too (typed, or copied from a rendered commit), and must not be taken for one.
    const found = await walk(
      repo,
      head,
      maxCommits,
      (c) => c.oid === sha || parseTrailers(c.message)['Source-Commit'] === sha,
    );
    if (!found) {
      const branch = outputRef.replace('refs/heads/', '');
      const claims = parseTrailers((await readCommitInfo(repo, sha)).message)['Source-Commit'];
      if (claims) {
        throw coded(
          'NOT_AN_OUTPUT_COMMIT',
          `${rev} (${sha.slice(0, 12)}) is not an output commit: it has a Source-Commit line but is not on ${branch}, and ${branch} never rendered it` +
            `\n  fix: name a commit of ${branch} (git log --oneline ${branch}) or a source commit it rendered`,
        );
      }
      throw coded('NOT_RENDERED', `${rev} (${sha.slice(0, 12)}) was never rendered on ${branch}`);
    }
    start = found.oid;
  }
  const output = await readCommitInfo(repo, start);
  const foreign: CommitInfo[] = [];
  const renderedBy = await walk(repo, start, maxCommits, (c) => {
    if (parseTrailers(c.message)['Source-Commit']) return true;
    foreign.push(c);
    return false;
  });
  if (!renderedBy)
    throw coded(
      'NOT_RENDERED',
      `no commit on ${outputRef.replace('refs/heads/', '')} below ${start.slice(0, 12)} has a Source-Commit trailer: Flotilla did not write this branch`,
    );
  return { output, renderedBy, source: parseTrailers(renderedBy.message)['Source-Commit']!, foreign };
}

async function walk(
  repo: GitRepo,
  from: string,
  limit: number,
  stop: (c: CommitInfo) => boolean,
): Promise<CommitInfo | undefined> {
  let cursor: string | undefined = from;
  for (let i = 0; cursor && i < limit; i++) {
    const c = await readCommitInfo(repo, cursor);
    if (stop(c)) return c;
    cursor = c.parents[0];
  }
  return undefined;
}

function coded(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}
