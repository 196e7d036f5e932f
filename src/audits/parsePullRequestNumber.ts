/**
 * The pull request a source commit came from: a merge commit naming `#123` (GitHub's "Merge pull request
 * #123 from …", or any merge message that cites it), or a squash merge whose subject ends in "(#123)".
 */
export function parsePullRequestNumber(message: string, isMerge: boolean): number | undefined {
  const subject = message.split('\n')[0] ?? '';
  const github = /Merge pull request #(\d+)/.exec(message);
  if (github) return Number(github[1]);
  if (isMerge) {
    const any = /(?:^|[\s(!])#(\d+)\b/.exec(message);
    if (any) return Number(any[1]);
  }
  const squash = /\(#(\d+)\)\s*$/.exec(subject);
  return squash ? Number(squash[1]) : undefined;
}
