// Output commit messages quote Git content (the source subject, file and object names, problem messages, the
// author). Their last paragraph is trailers (Source-Commit, Source-Author, Cluster-State) that verify, history and
// the next render parse, so a newline or CR smuggled into a quoted value could forge one; an ESC or bidi control
// would also reach whoever runs `git log` on the branch.

// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are what it matches
const LINE_BREAKS = /[\r\n\u000b\u000c\u0085\u2028\u2029]+/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are what it matches
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * One line of an output commit message, or one trailer value: line breaks become a space, other control
 * characters (C0, C1, DEL, bidi controls) are dropped; tabs are kept. Pure.
 */
export function commitMessageSafe(line: string): string {
  return line.replace(LINE_BREAKS, ' ').replace(CONTROL, '');
}
