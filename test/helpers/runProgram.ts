// A program run to its end as a shell runs it: the exit code (1 when it could not start, timed out or was killed)
// and what it printed, for tests that assert on a real CLI (flotilla, kubectl, sh) instead of a function.
import { execFile, type ExecFileOptions } from 'node:child_process';

export interface ProgramResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `input`, when given, is written to stdin, which is then closed; otherwise stdin stays open. */
export function runProgram(
  file: string,
  args: readonly string[],
  opts: ExecFileOptions & { input?: string } = {},
): Promise<ProgramResult> {
  const { input, ...options } = opts;
  return new Promise((resolve) => {
    const child = execFile(file, args, { ...options, encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}
