// Calls a command module the way cli.ts does, capturing what it prints.
import type { CommonOptions } from '../../../src/commands/options.ts';

export function commonOptions(
  repo: string,
  output: CommonOptions['output'] = 'text',
): CommonOptions & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return {
    repo,
    rev: 'main',
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
    clusterStatusFile: undefined,
    output,
    out: (s) => {
      out += s;
    },
    err: (s) => {
      err += s;
    },
    stdout: () => out,
    stderr: () => err,
  };
}
