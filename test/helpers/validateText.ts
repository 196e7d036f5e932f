import { validateCommand } from '../../src/commands/validateCommand.ts';
import { RENDERED_REF, SOURCE_REF } from './fleet.ts';

/** `flotilla validate` at HEAD of the repo at `dir`, as text: its exit code and what it printed, out and err as one. */
export async function validateText(dir: string): Promise<{ code: number; text: string }> {
  let text = '';
  const code = await validateCommand({
    repo: dir,
    rev: 'HEAD',
    sourceRef: SOURCE_REF,
    outputRef: RENDERED_REF,
    clusterStatusFile: undefined,
    output: 'text',
    out: (s) => void (text += s),
    err: (s) => void (text += s),
  });
  return { code, text };
}
