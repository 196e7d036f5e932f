/**
 * Runs `parse` on a file Flotilla wrote to one of its branches (status, rendered). Such a file fails to parse only
 * after a hand edit or a bad merge, and then it fails every pass: the error names the branch and path, and how to
 * get the file back, instead of a bare parser message. A message that carries its own fix (a file from a newer
 * Flotilla) keeps it.
 */
export function parseBranchFile<T>(ref: string, path: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const branch = ref.replace(/^refs\/heads\//, '');
    if (message.includes('; fix: ')) throw new Error(`${branch}:${path}: ${message}`, { cause: err });
    const fix = `fix: restore it from the previous commit of ${branch} (git show ${branch}~1:${path}) and push`;
    // The YAML parser's message ends in an excerpt with a caret: the fix goes on a line of its own after it.
    const text = message.trimEnd();
    throw new Error(`${branch}:${path}: ${text}${text.includes('\n') ? '\n' : '; '}${fix}`, { cause: err });
  }
}
