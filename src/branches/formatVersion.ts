// The format version both branches record on every commit Flotilla writes, as a trailer: a tool reading a branch
// knows which edition of docs/BRANCHES.md it follows. A trailer changes no file of the tree, so outputs stay
// byte-identical across the versions that only add it. A commit without the trailer (written before it existed)
// follows version 1.

export const FORMAT_TRAILER = 'Flotilla-Format';

/** The message with `Flotilla-Format: <version>` as its last trailer (a new trailer paragraph when it has none). */
export function withFormatTrailer(message: string, version: number): string {
  const body = message.trimEnd();
  const last = body.split(/\n\s*\n/).pop() ?? '';
  const isTrailers = last !== body && last.split('\n').every((line) => /^[A-Za-z0-9-]+: /.test(line));
  return `${body}${isTrailers ? '\n' : '\n\n'}${FORMAT_TRAILER}: ${version}\n`;
}

/** The format version a commit's trailers declare: 1 when absent, NaN when not a number. */
export function formatVersionOf(trailers: Readonly<Record<string, string>>): number {
  const value = trailers[FORMAT_TRAILER];
  return value === undefined ? 1 : /^[1-9][0-9]{0,5}$/.test(value) ? Number(value) : NaN;
}
